import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { enrichmentType, profileUrl } from '../../schemas/common.js';

/** Typical prices of the spec's credit table, per contact type found. */
export const contactTypePrices = { workEmail: 2, personalEmail: 2, phone: 3 } as const;

export const contactResult = z.object({
  workEmails: z.array(z.string()),
  personalEmails: z.array(z.string()),
  phoneNumbers: z.array(z.string()),
});

export const revealContactSync = defineOperation({
  operationId: 'revealContactSync',
  title: 'Reveal contact details (sync)',
  summary: "Reveal one person's work emails, personal emails and phone numbers, immediately.",
  description:
    'Looks up the contact details of the person at profileUrl and returns them at once. Charged per data type found: work email 2, ' +
    'personal email 2, phone number 3; nothing for a type that finds nothing (empty array).',
  category: 'contact',
  keywords: [
    'reveal',
    'email',
    'emails',
    'phone',
    'phones',
    'mobile',
    'number',
    'contact',
    'contact info',
    'find email',
    'lookup',
    'enrich',
    'person',
    'one',
    'instant',
    'immediate',
    'immediately',
    'realtime',
    'right away',
    'get email',
    'phone number',
    'cell',
    'mobile number',
    'personal email',
    'contact details',
    'right now',
  ],
  method: 'POST',
  path: '/v1/individual-reveal/sync',
  input: z.strictObject({
    profileUrl,
    enrichmentType: enrichmentType.refine((t) => t.getWorkEmails || t.getPersonalEmails || t.getPhoneNumbers, {
      message: 'ask for at least one of getWorkEmails, getPersonalEmails, getPhoneNumbers',
    }),
  }),
  output: contactResult.extend({
    profileUrl: z.string(),
    found: z.boolean().describe('True when the person exists.'),
    creditsByType: z.object({
      workEmails: z.number().int(),
      personalEmails: z.number().int(),
      phoneNumbers: z.number().int(),
    }),
  }),
  credits: {
    unit: 'revealContact',
    charged: 'now',
    rule: 'Per data type found: work email 2, personal email 2, phone number 3; nothing for types not found.',
    worstCase: (input) =>
      (input.enrichmentType.getWorkEmails ? contactTypePrices.workEmail : 0) +
      (input.enrichmentType.getPersonalEmails ? contactTypePrices.personalEmail : 0) +
      (input.enrichmentType.getPhoneNumbers ? contactTypePrices.phone : 0),
    example: 'Asking for all three types and finding a work email and a phone costs 2 + 3 = 5 credits.',
  },
  rateLimitClass: 'heavy',
  readOnly: true,
  destructive: false,
  idempotent: false,
  openWorld: true,
  confirmation: 'above-threshold',
  example: {
    profileUrl: 'https://network.example.com/in/jane-doe-3f9a2',
    enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: true },
  },
  workflow: { before: ['peopleSearch'], after: [] },
});
