import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { profileUrl } from '../../schemas/common.js';

export const revealContactSingle = defineOperation({
  operationId: 'revealContactSingle',
  title: 'Reveal work email and direct phone',
  summary: 'One reveal attempt for a person: a work email and a direct phone together, for 1 credit.',
  description:
    'Reveals the work email and direct phone of the person at profileUrl, together, when available. Each attempt costs 1 credit, including attempts that find nothing.',
  category: 'contact',
  keywords: [
    'reveal',
    'single',
    'work email',
    'direct phone',
    'dial',
    'contact',
    'details',
    'one',
    'cheap',
    'lookup',
    'attempt',
    'cheapest',
    'one credit',
    'work email and phone',
    'direct dial',
    'single attempt',
  ],
  method: 'POST',
  path: '/v1/contact-details/single',
  input: z.strictObject({ profileUrl }),
  output: z.object({
    profileUrl: z.string(),
    found: z.boolean().describe('True when a work email or a direct phone was found.'),
    workEmail: z.string().nullable(),
    directPhone: z.string().nullable(),
  }),
  credits: {
    unit: 'revealContactSingle',
    charged: 'now',
    rule: '1 credit per attempt, including attempts that find nothing.',
    worstCase: () => 1,
    example: 'Each call costs 1 credit, found or not.',
  },
  rateLimitClass: 'heavy',
  readOnly: true,
  destructive: false,
  idempotent: false,
  openWorld: true,
  confirmation: 'above-threshold',
  example: { profileUrl: 'https://network.example.com/in/jane-doe-3f9a2' },
  workflow: { before: ['peopleSearch'], after: [] },
});
