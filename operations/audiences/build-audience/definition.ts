import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { audienceId, audienceStatus } from '../../schemas/audiences.js';

export const buildAudience = defineOperation({
  operationId: 'buildAudience',
  title: 'Build an audience',
  summary:
    "Run the audience's searches in the background and fill it with companies and prospects; step 3 of the audience workflow.",
  description:
    'Moves a DRAFT audience with filters to BUILDING and runs its searches as a background job; poll getAudienceStatus every 30 to 60 seconds until NORMAL. ' +
    'Credits: 1 per company found plus 1 per prospect found, charged once when the build completes (at most maxCompanies + maxProspects). ' +
    'A failed build ends FAILED and charges nothing. Fails with invalid_state if the audience is not DRAFT or has no filters.',
  category: 'audience',
  keywords: [
    'audience',
    'build',
    'run',
    'generate',
    'populate',
    'fill',
    'execute',
    'compile',
    'create list',
    'materialize',
    'assemble',
    'collect',
    'gather',
    'kick off',
    'records into',
  ],
  method: 'POST',
  path: '/v1/audiences/{audienceId}/build',
  input: z.strictObject({ audienceId }),
  output: z.object({ audienceId: z.string(), status: audienceStatus, message: z.string() }),
  credits: {
    unit: 'audienceBuildRecord',
    charged: 'later',
    rule: '1 credit per company found plus 1 per prospect found, charged after the build completes.',
    worstCase: () => null,
    pricedBy: {
      operationId: 'getAudienceStatus',
      worstCase: (output) => (typeof output.buildWorstCaseCredits === 'number' ? output.buildWorstCaseCredits : null),
      expected: (output) => (typeof output.buildExpectedCredits === 'number' ? output.buildExpectedCredits : null),
    },
    example:
      'A build that finds 120 companies and 900 prospects costs 1,020 credits; its worst case is maxCompanies + maxProspects.',
  },
  rateLimitClass: 'heavy',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { audienceId: '1' },
  workflow: { before: ['updateAudienceSearchParams'], after: ['getAudienceStatus'] },
  startsJob: {
    statusOperationId: 'getAudienceStatus',
    statusInput: (_input, output) => ({ audienceId: output.audienceId }),
  },
});
