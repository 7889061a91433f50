import { z } from 'zod';
import { currentCompanies } from '../../schemas/filters.js';
import { defineOperation } from '../../define.js';
import { emailAddress, inputLimits } from '../../schemas/common.js';
import {
  maxNewRecords,
  maxNewRecordsLimit,
  monthlyCredits,
  newRecordCredits,
  savedSearchId,
  savedSearchQueryFields,
  savedSearchView,
  schedule,
} from '../../schemas/saved-searches.js';

export const updateSavedSearch = defineOperation({
  operationId: 'updateSavedSearch',
  title: 'Change a saved search',
  summary: "Change a saved search's name, filters, schedule, cap per run or mail address; what is not given stays.",
  description:
    'Changes only the fields given. New filters replace the old ones (the kind stays); records earlier runs delivered stay delivered, so later runs charge only for records ' +
    'no run delivered before. A new schedule starts counting from now; manual stops the scheduled runs. userEmail null stops the mails. Free; runs are charged as they complete.',
  category: 'search',
  keywords: [
    'saved search',
    'update',
    'change',
    'edit',
    'modify',
    'reschedule',
    'pause',
    'stop schedule',
    'frequency',
    'filters',
    'rename',
    'switch to daily',
    'switch to weekly',
    'change email',
    'recipient',
    'cap',
    'limit',
    'turn off schedule',
    'manual',
    'instead',
  ],
  method: 'PATCH',
  path: '/v1/saved-searches/{savedSearchId}',
  input: z.strictObject({
    savedSearchId,
    name: z.string().max(inputLimits.nameLength).trim().min(1).optional().describe('New display name.'),
    ...savedSearchQueryFields,
    currentCompanies: currentCompanies(
      'For kind people: only people currently at these companies; null removes the restriction (an empty list is refused).',
    ).nullable(),
    schedule: schedule.optional(),
    maxNewRecordsPerRun: maxNewRecords('New records a scheduled run delivers at most').optional(),
    userEmail: emailAddress.nullable().optional().describe('Where new records are mailed; null stops the mails.'),
  }),
  output: savedSearchView,
  credits: {
    unit: 'savedSearchNewRecord',
    charged: 'later',
    rule: `Changing is free; each scheduled run costs ${newRecordCredits} credits per new record it delivers, when it completes.`,
    worstCase: (input) => {
      if (input.schedule === undefined && input.maxNewRecordsPerRun === undefined) return 0;
      if (input.schedule === 'manual') return 0;
      return newRecordCredits * (input.maxNewRecordsPerRun ?? maxNewRecordsLimit);
    },
    // What is not given may already be set: the schedule daily, the cap the highest there is.
    monthlyWorstCase: (input) =>
      input.schedule === undefined && input.maxNewRecordsPerRun === undefined
        ? 0
        : monthlyCredits(input.schedule ?? 'daily', input.maxNewRecordsPerRun ?? maxNewRecordsLimit),
    example: `Setting schedule daily with maxNewRecordsPerRun 100: at most ${newRecordCredits * 100} credits per run.`,
  },
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { savedSearchId: '1', schedule: 'daily', maxNewRecordsPerRun: 100 },
  workflow: { before: ['getSavedSearch'], after: ['runSavedSearch'] },
});
