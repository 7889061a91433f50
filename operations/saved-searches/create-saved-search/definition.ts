import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { inputLimits } from '../../schemas/common.js';
import {
  defaultMaxNewRecords,
  maxNewRecords,
  monthlyCredits,
  newRecordCredits,
  savedSearchKind,
  savedSearchQueryFields,
  savedSearchView,
  schedule,
  userEmailField,
} from '../../schemas/saved-searches.js';

export const createSavedSearch = defineOperation({
  operationId: 'createSavedSearch',
  title: 'Save a search that watches for new matches',
  summary:
    'Save a company or people search with a schedule (manual, daily, weekly); each run finds the records that are new since earlier runs.',
  description:
    'Saves filters (as companySearch or peopleSearch take them, with currentCompanies and exclusion lists) to be run again: by hand with runSavedSearch, or by itself ' +
    'daily or weekly (the first scheduled run one period after creation). Each run delivers the matching records that no earlier run of this saved search delivered, ' +
    `up to maxNewRecordsPerRun, at ${newRecordCredits} credits each; a run that finds nothing new costs nothing. userEmail gets a mail listing what is new. ` +
    'Count first (companyCount / peopleCount) to see how many match. Creating it charges nothing.',
  category: 'search',
  keywords: [
    'saved search',
    'save',
    'watch',
    'monitor',
    'alert',
    'alerts',
    'notify',
    'new matches',
    'new companies',
    'new leads',
    'recurring',
    'schedule',
    'daily',
    'weekly',
    'subscription',
    'track',
    'signal',
    'keep an eye',
    'automatic',
    'notify me',
    'ping me',
    'tell me when',
    'new hires',
    'appear',
    'pop up',
    'tracker',
    'standing search',
    'every week',
    'every day',
  ],
  method: 'POST',
  path: '/v1/saved-searches',
  input: z.strictObject({
    name: z.string().max(inputLimits.nameLength).trim().min(1).describe('Display name.'),
    kind: savedSearchKind,
    ...savedSearchQueryFields,
    schedule: schedule.default('manual'),
    maxNewRecordsPerRun: maxNewRecords('New records a scheduled run delivers at most').default(defaultMaxNewRecords),
    userEmail: userEmailField,
  }),
  output: savedSearchView,
  credits: {
    unit: 'savedSearchNewRecord',
    charged: 'later',
    rule: `Creating is free; each run costs ${newRecordCredits} credits per new record it delivers, charged when it completes (nothing when nothing is new).`,
    worstCase: (input) =>
      input.schedule === undefined || input.schedule === 'manual'
        ? 0
        : newRecordCredits * (input.maxNewRecordsPerRun ?? defaultMaxNewRecords),
    monthlyWorstCase: (input) =>
      monthlyCredits(input.schedule ?? 'manual', input.maxNewRecordsPerRun ?? defaultMaxNewRecords),
    example: `A daily saved search with maxNewRecordsPerRun 100 costs at most ${newRecordCredits * 100} credits a day (${monthlyCredits('daily', 100)} in a month), and 0 on days with nothing new.`,
  },
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {
    name: 'New US fintech startups',
    kind: 'companies',
    companySearchParams: {
      industriesV2: ['financial-services'],
      headquartersCountryCode: ['US'],
      stage: ['SEED', 'SERIES_A'],
    },
    schedule: 'weekly',
    maxNewRecordsPerRun: 50,
  },
  workflow: {
    before: ['companyCount', 'peopleCount', 'listExclusionLists'],
    after: ['runSavedSearch', 'listSavedSearches'],
  },
});
