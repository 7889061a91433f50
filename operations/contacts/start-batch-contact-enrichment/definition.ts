import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { enrichmentType, profileUrl } from '../../schemas/common.js';
import { contactTypePrices } from '../reveal-contact-sync/definition.js';

export const startBatchContactEnrichment = defineOperation({
  operationId: 'startBatchContactEnrichment',
  title: 'Start batch contact enrichment',
  summary:
    'Submit a list of profiles to reveal emails and phones in the background; poll with pollBatchContactEnrichment.',
  description:
    'Starts a background job revealing the contact types asked for, for up to 1,000 profiles. Returns a taskId; poll pollBatchContactEnrichment ' +
    'about every 30 seconds and page its results with the cursor. Charged like revealContactSync, per data type found, as each profile completes.',
  category: 'contact',
  keywords: [
    'batch',
    'bulk',
    'many',
    'list',
    'emails',
    'phones',
    'contacts',
    'reveal',
    'enrich',
    'job',
    'async',
    'background',
    'submit',
    'upload',
    'links',
    'urls',
    'hundreds',
    'several',
    'multiple',
    'bulk reveal',
    'profile urls',
    'csv of profiles',
    'mass',
    'pile',
    'all at once',
  ],
  method: 'POST',
  path: '/v1/contact-enrichment/batch',
  input: z.strictObject({
    profileUrls: z.array(profileUrl).min(1).max(1000).describe('Profile URLs (or slugs) of the people, at most 1,000.'),
    enrichmentType: enrichmentType.refine((t) => t.getWorkEmails || t.getPersonalEmails || t.getPhoneNumbers, {
      message: 'ask for at least one of getWorkEmails, getPersonalEmails, getPhoneNumbers',
    }),
  }),
  output: z.object({
    taskId: z.string(),
    status: z.enum(['QUEUED', 'RUNNING', 'DONE', 'FAILED']),
    totalProfiles: z.number().int(),
    maxCredits: z.number().int().describe('The most this job can charge.'),
  }),
  credits: {
    unit: 'revealContact',
    charged: 'later',
    rule: 'Per profile and data type found: work email 2, personal email 2, phone number 3; charged as each profile completes.',
    worstCase: (input) =>
      input.profileUrls.length *
      ((input.enrichmentType.getWorkEmails ? contactTypePrices.workEmail : 0) +
        (input.enrichmentType.getPersonalEmails ? contactTypePrices.personalEmail : 0) +
        (input.enrichmentType.getPhoneNumbers ? contactTypePrices.phone : 0)),
    example: '100 profiles asking for work emails cost at most 200 credits; only the emails found are charged.',
  },
  rateLimitClass: 'heavy',
  readOnly: false,
  destructive: false,
  idempotent: false,
  openWorld: true,
  confirmation: 'above-threshold',
  example: {
    profileUrls: ['https://network.example.com/in/jane-doe-3f9a2'],
    enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false },
  },
  workflow: { before: ['peopleSearch'], after: ['pollBatchContactEnrichment'] },
  startsJob: {
    statusOperationId: 'pollBatchContactEnrichment',
    statusInput: (_input, output) => ({ taskId: output.taskId }),
  },
});
