import { z } from 'zod';
import { defineOperation } from '../../define.js';
import { inputLimits } from '../../schemas/common.js';

export const validateEmail = defineOperation({
  operationId: 'validateEmail',
  title: 'Validate an email address',
  summary:
    'Check an email address before sending: syntax, whether its domain receives mail, disposable domain, role address; 1 credit.',
  description:
    'Checks syntax, the mail domain (built-in rules, or real MX lookups when the service runs with CONTACT_EMAIL_VALIDATION=dns: mailDomainCheck says which), ' +
    'whether the domain is a disposable-mail service and whether the address is a role mailbox (sales@, support@). valid is true for a well-formed address whose domain ' +
    'receives mail and is not disposable; role addresses can be valid. Costs 1 credit per call.',
  category: 'contact',
  keywords: [
    'validate',
    'validation',
    'verify',
    'verification',
    'check',
    'email',
    'address',
    'deliverable',
    'bounce',
    'mx',
    'disposable',
    'role',
    'valid',
    'is this email real',
    'will it bounce',
    'is it real',
    'check address',
    'safe to send',
    'mailbox',
    'catch-all',
    'typo',
    'exists',
  ],
  method: 'POST',
  path: '/v1/email/validate',
  input: z.strictObject({
    email: z.string().trim().min(1).max(inputLimits.emailLength).describe('The address to check.'),
  }),
  output: z.object({
    email: z.string(),
    normalized: z.string().nullable(),
    valid: z.boolean(),
    checks: z.object({
      syntax: z.boolean(),
      mailDomain: z.boolean().nullable().describe('The domain can receive mail (null when the syntax failed).'),
      disposable: z.boolean().nullable(),
      role: z.boolean().nullable(),
    }),
    domain: z.string().nullable(),
    reason: z.string().nullable().describe('Why it is not valid.'),
    mailDomainCheck: z.string().describe('embedded (built-in rules) or dns (MX lookups).'),
  }),
  credits: {
    unit: 'emailValidation',
    charged: 'now',
    rule: '1 credit per address checked, valid or not.',
    worstCase: () => 1,
    example: 'Checking jane@acme.com costs 1 credit, whatever the verdict.',
  },
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: true,
  confirmation: 'above-threshold',
  example: { email: 'jane.doe@acme.com' },
  workflow: { before: ['revealContactSync'], after: ['findPersonByWorkEmail'] },
});
