import { createSavedSearch } from './definition.js';
import * as saved from '../../../src/core/saved-searches/saved-searches.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(createSavedSearch, async (input, { context, principal }) => {
  const row = await saved.createSavedSearch(context, principal.accountId, input);
  return {
    output: saved.viewOf(row),
    message:
      row.schedule === 'manual'
        ? 'Free. Run it with runSavedSearch; each run costs 2 credits per new record, charged when it completes.'
        : `Free now. It runs ${row.schedule} from ${row.next_run_at?.toISOString()}; each run costs 2 credits per new record (at most ${2 * row.max_new_records_per_run}).`,
  };
});
