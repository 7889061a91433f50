import { getAudienceStatus } from './definition.js';
import * as audiences from '../../../src/core/audiences/audiences.js';
import { requireAudience } from '../../../src/core/audiences/record.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(getAudienceStatus, async (input, { context, principal }) => {
  const row = await requireAudience(context.db.pool, principal.accountId, input.audienceId);
  return { output: audiences.audienceStatusView(row) };
});
