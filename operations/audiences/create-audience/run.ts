import { createAudience } from './definition.js';
import * as audiences from '../../../src/core/audiences/audiences.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(createAudience, async (input, { context, principal }) => {
  const row = await audiences.createAudience(context.db.pool, principal.accountId, input);
  const summary = audiences.summarize(row);
  return {
    output: {
      audienceId: summary.audienceId,
      name: summary.name,
      status: summary.status,
      creationMethod: summary.creationMethod,
      audienceSearchLogicId: summary.audienceSearchLogicId,
      createdAt: summary.createdAt,
    },
    message: 'Free. Next: set its filters with updateAudienceSearchParams.',
  };
});
