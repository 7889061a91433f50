import { z } from 'zod';
import { defineOperation, free } from '../../define.js';
import { audienceId, enrichmentOptions } from '../../schemas/audiences.js';

const discountedCredits = z.object({ credits: z.number().int(), discounted: z.boolean() });
const freeCredits = z.object({ credits: z.number().int(), isFree: z.boolean() });

export const enrichmentEstimateOutput = z.object({
  estimateId: z.string().describe('Identifies this estimate; the trigger with the same values is matched to it.'),
  totalCredits: z.number().int(),
  prospectsToEnrich: z.number().int(),
  companiesToEnrich: z.number().int(),
  breakdown: z.object({
    salesNav: freeCredits,
    liveCompany: discountedCredits,
    liveProspect: discountedCredits,
    waterfall: z.object({
      credits: z.number().int(),
      originalCredits: z.number().int(),
      discount: z.number().int(),
      operations: z.object({ workEmail: z.number().int(), personalEmail: z.number().int(), phone: z.number().int() }),
    }),
    validation: freeCredits,
  }),
  timeEstimate: z.object({ totalSeconds: z.number().int(), formatted: z.string() }),
});

export const estimateEnrichmentCost = defineOperation({
  operationId: 'estimateEnrichmentCost',
  title: 'Estimate enrichment cost',
  summary:
    'Get the credit cost and time of enriching a built audience, before triggering it; step 5 of the audience workflow.',
  description:
    'Computes the credits (with a breakdown per kind of work) and the time that triggerEnrichment would take with these exact values. ' +
    'Show the estimate to the user and obtain explicit confirmation before triggering. To lower the cost, lower maxProspectsToEnrich or switch types off. ' +
    'Requires a NORMAL audience. Free.',
  category: 'enrichment',
  keywords: [
    'estimate',
    'cost',
    'price',
    'quote',
    'how much',
    'credits',
    'enrichment',
    'enrich',
    'preview',
    'budget',
    'time',
    'contacts',
    'how many credits',
    'what would it cost',
    'pricing',
    'charge',
    'spend',
    'before enriching',
    'afford',
  ],
  method: 'POST',
  path: '/v1/audiences/{audienceId}/enrichment/estimate',
  input: z.strictObject({ audienceId, ...enrichmentOptions }),
  output: enrichmentEstimateOutput,
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {
    audienceId: '1',
    maxProspectsToEnrich: 500,
    enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false },
    runContactEnrichment: true,
  },
  workflow: { before: ['getAudienceStatus'], after: ['triggerEnrichment'] },
});
