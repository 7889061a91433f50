import type { EnrichmentStepName } from '../enrichment-row.js';
import { cleaningNames } from './cleaning-names.js';
import { completed } from './completed.js';
import { fetchingContacts, validatingContacts } from './contact-details.js';
import { exportingCsv } from './exporting-csv.js';
import { initialization } from './initialization.js';
import { liveEnrichment } from './live-enrichment.js';
import { resubmitting } from './resubmitting.js';
import { salesTool } from './sales-tool.js';
import type { Step, StepDeps } from './step.js';

export type { BatchOutcome, Step, StepDeps } from './step.js';

/**
 * The nine steps of an enrichment run, by the name each has in the run's step list (the spec's
 * names, in operations/schemas/audiences.ts; the run goes through them in that order). The type
 * makes a missing or misspelt step a compile error. One file per step, the two contact steps
 * together.
 */
export function enrichmentStepPlan(deps: StepDeps): Record<EnrichmentStepName, Step> {
  return {
    Initialization: initialization(),
    'Sales Tool Enrichment': salesTool(),
    'Live Enrichment': liveEnrichment(deps),
    'Resubmitting Audience': resubmitting(),
    'Cleaning Names': cleaningNames(),
    'Fetching Contact Details': fetchingContacts(deps),
    'Validating Contact Details': validatingContacts(),
    'Exporting CSV': exportingCsv(deps),
    Completed: completed(),
  };
}
