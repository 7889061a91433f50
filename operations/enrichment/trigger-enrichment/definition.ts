import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { audienceId, enrichmentOptions } from '../../schemas/audiences.js';
import { emailAddress } from '../../schemas/common.js';

export const triggerEnrichment = defineOperation({
  operationId: 'triggerEnrichment',
  title: 'Trigger enrichment',
  summary:
    'Start enriching a built audience (contacts, live data); charges the estimated credits upfront; step 6 of the audience workflow.',
  description:
    'Starts an enrichment run on a NORMAL audience with the same values as an estimate made with estimateEnrichmentCost, and charges that estimate upfront. ' +
    "Always show the estimate and get the user's explicit confirmation of credits and time first. Credits for work a failed run did not do are refunded. " +
    'Give userEmail to be mailed when it completes. Then poll getEnrichmentStatus about every 30 seconds.',
  category: 'enrichment',
  keywords: [
    'enrich',
    'enrichment',
    'trigger',
    'start',
    'run',
    'launch',
    'emails',
    'phones',
    'contacts',
    'append',
    'waterfall',
    'audience',
    'go ahead',
    'proceed',
    'execute',
    'confirm',
    'get emails for audience',
    'find contacts for audience',
    'approved',
    'confirmed',
    'spend credits',
    'phones and emails',
  ],
  method: 'POST',
  path: '/v1/audiences/{audienceId}/enrich',
  input: z.strictObject({
    audienceId,
    ...enrichmentOptions,
    userEmail: emailAddress.optional().describe('Mailed a notification when the enrichment completes.'),
  }),
  output: z.object({
    enrichmentId: z.string(),
    status: z.enum(['NOT_STARTED', 'RUNNING', 'DONE', 'FAILED']),
    estimatedCredits: z.number().int(),
  }),
  credits: {
    unit: 'audienceEnrichment',
    charged: 'upfront',
    rule: "The estimate's totalCredits, charged upfront at trigger; work not done by a failed run is refunded.",
    worstCase: () => null,
    example: 'An estimate of 1,000 credits (500 work emails at 2) is charged 1,000 at trigger.',
  },
  rateLimitClass: 'heavy',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: true,
  confirmation: 'always',
  example: {
    audienceId: '1',
    maxProspectsToEnrich: 500,
    enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false },
    runContactEnrichment: true,
  },
  workflow: { before: ['estimateEnrichmentCost'], after: ['getEnrichmentStatus'] },
  startsJob: { statusOperationId: 'getEnrichmentStatus', statusInput: (input) => ({ audienceId: input.audienceId }) },
});
