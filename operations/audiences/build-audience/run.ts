import { buildAudience } from './definition.js';
import { startBuild } from '../../../src/core/audiences/build.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(buildAudience, async (input, { context, principal }) => {
  const row = await startBuild(context.db, principal.accountId, input.audienceId);
  const searches =
    row.creation_method === 'NORMAL'
      ? `up to ${row.max_companies} companies by the company filters, then up to ${row.max_prospects} prospects at them`
      : `up to ${row.max_prospects} prospects by the prospect filters`;
  return {
    output: {
      audienceId: String(row.id),
      status: row.status,
      message:
        `Build started: searching ${searches}. Poll getAudienceStatus every 30 to 60 seconds until NORMAL. ` +
        `Credits: 1 per company plus 1 per prospect found (at most ${row.creation_method === 'NORMAL' ? row.max_companies + row.max_prospects : row.max_prospects}), ` +
        'charged once when the build completes; a build the balance cannot pay ends FAILED and charges nothing.',
    },
  };
});
