import { listAudienceProspects } from './definition.js';
import * as members from '../../../src/core/audiences/members.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listAudienceProspects, async (input, { context, principal }) => ({
  output: await members.listAudienceProspects(context.db.pool, context.services.cursors, principal.accountId, input),
}));
