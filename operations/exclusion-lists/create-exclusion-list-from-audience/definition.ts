import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { audienceId } from '../../schemas/audiences.js';
import { inputLimits } from '../../schemas/common.js';
import { exclusionListKind, exclusionListSummary } from '../../schemas/exclusion-lists.js';

export const createExclusionListFromAudience = defineOperation({
  operationId: 'createExclusionListFromAudience',
  title: 'Make an exclusion list from an audience',
  summary:
    "Save a built audience's companies or prospects as a new exclusion list, so later searches and audiences skip them.",
  description:
    "Creates a companies list from the audience's companies, or a prospects list from its prospects (kind), one entry per record. " +
    'Use it after exporting or contacting an audience, so the next audience (companyExclusionListIDs / prospectExclusionListIDs) does not include them again. ' +
    'The audience must be NORMAL (built). Free.',
  category: 'account',
  keywords: [
    'exclusion',
    'from audience',
    'audience',
    'save as',
    'suppress',
    'already contacted',
    'dedupe',
    'reuse',
    'convert',
    'do not contact',
    'list',
    'do not contact again',
    'skip next time',
    'convert audience',
    'dedupe future audiences',
    'emailed',
    'contacted',
  ],
  method: 'POST',
  path: '/v1/exclusion-lists/from-audience',
  input: z.strictObject({
    audienceId,
    kind: exclusionListKind.describe("companies: the audience's companies; prospects: its prospects."),
    name: z.string().max(inputLimits.nameLength).trim().min(1).describe('Display name of the new list.'),
  }),
  output: exclusionListSummary,
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { audienceId: '1', kind: 'prospects', name: 'Contacted in Q3' },
  workflow: { before: ['getAudienceStatus'], after: ['updateAudienceSearchParams', 'peopleSearch'] },
});
