import { listAudienceCompanies } from './definition.js';
import * as audienceRecords from '../../../src/core/audiences/companies-and-prospects.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listAudienceCompanies, async (input, { context, principal }) => ({
  output: await audienceRecords.listAudienceCompanies(
    context.db.pool,
    context.services.cursors,
    principal.accountId,
    input,
  ),
}));
