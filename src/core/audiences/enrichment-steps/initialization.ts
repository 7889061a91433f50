import { requireAudience } from '../record.js';
import { single, type Step } from './step.js';

export function initialization(): Step {
  return {
    enabled: () => true,
    total: () => 1,
    batch: single(async (tx, run) => {
      // The audience is still the one estimated (an audience never leaves NORMAL, but say so if it did).
      const audience = await requireAudience(tx, run.account_id, run.audience_id);
      return {
        done: 1,
        note: `${run.prospects_to_enrich} prospects and ${run.companies_to_enrich} companies to enrich in "${audience.name}"`,
      };
    }),
  };
}
