import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { audienceStatus, creationMethod } from '../../schemas/audiences.js';
import { inputLimits, isoTimestamp } from '../../schemas/common.js';

export const createAudience = defineOperation({
  operationId: 'createAudience',
  title: 'Create an audience',
  summary: 'Start a saved list of companies and prospects (an audience) in DRAFT; step 1 of the audience workflow.',
  description:
    'Creates an empty audience in status DRAFT. Then set its filters with updateAudienceSearchParams and build it with buildAudience. ' +
    'creationMethod NORMAL searches companies first and then prospects within them; START_FROM_PROSPECTS searches prospects only. Free.',
  category: 'audience',
  keywords: [
    'audience',
    'create',
    'new',
    'list',
    'segment',
    'saved',
    'campaign',
    'prospect list',
    'lead list',
    'start',
    'workflow',
    'make',
    'name',
    'named',
    'called',
    'outbound',
    'new audience',
    'cohort',
    'bucket',
    'target list',
    'draft',
    'empty',
    'set up',
  ],
  method: 'POST',
  path: '/v1/audiences/create',
  input: z.strictObject({
    name: z.string().max(inputLimits.nameLength).trim().min(1).describe('Display name.'),
    creationMethod: creationMethod.default('NORMAL'),
  }),
  output: z.object({
    audienceId: z.string(),
    name: z.string(),
    status: audienceStatus,
    creationMethod,
    audienceSearchLogicId: z.string(),
    createdAt: isoTimestamp,
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { name: 'US SaaS sales leaders', creationMethod: 'NORMAL' },
  workflow: { before: ['getCreditBalance'], after: ['updateAudienceSearchParams'] },
});
