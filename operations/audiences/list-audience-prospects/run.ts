import { listAudienceProspects } from './definition.js';
import * as audienceRecords from '../../../src/core/audiences/companies-and-prospects.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listAudienceProspects, async (input, { context, principal }) => ({
  output: await audienceRecords.listAudienceProspects(
    context.db.pool,
    context.services.cursors,
    principal.accountId,
    input,
  ),
}));
