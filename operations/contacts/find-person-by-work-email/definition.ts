import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { inputLimits } from '../../schemas/common.js';
import { profileRecord } from '../../schemas/records.js';

export const findPersonByWorkEmail = defineOperation({
  operationId: 'findPersonByWorkEmail',
  title: 'Identify a person from a work email',
  summary:
    'Reverse lookup: who is behind a work email address (name, title, company); 2 credits when found, 0 otherwise.',
  description:
    "Looks the work email up among the catalog's contact points and returns the person it belongs to (name, title, company, location, profile URL) when one matches. " +
    'Costs 2 credits when a person is found and nothing when none is.',
  category: 'contact',
  keywords: [
    'reverse',
    'lookup',
    'email lookup',
    'who is',
    'whose email',
    'identify',
    'by email',
    'work email',
    'match',
    'owner',
    'resolve',
    'who is this',
    'who sent',
    'person behind',
    'owner of email',
    'identify sender',
    'name from email',
    'reverse email',
  ],
  method: 'POST',
  path: '/v1/people/by-work-email',
  input: z.strictObject({
    email: z.string().trim().min(1).max(inputLimits.emailLength).describe('A work email address.'),
  }),
  output: z.object({ email: z.string(), found: z.boolean(), person: profileRecord.nullable() }),
  credits: {
    unit: 'personByWorkEmail',
    charged: 'now',
    rule: '2 credits when a person is found; nothing when none is.',
    worstCase: () => 2,
    example: 'jane.doe@acme.com found: 2 credits; an address nobody has: 0.',
  },
  rateLimitClass: 'search',
  readOnly: true,
  destructive: false,
  idempotent: false,
  openWorld: false,
  confirmation: 'above-threshold',
  example: { email: 'jane.doe@acme.com' },
  workflow: { before: ['validateEmail'], after: ['liveEnrichPerson', 'revealContactSync'] },
});
