import { z } from 'zod';
import { positiveInt, nonNegativeInt } from './types.js';

/**
 * Outside sources: the live professional-network source and contact providers.
 * src/config.ts spreads these shapes into its one schema, in its order: the order of the rows of docs/configuration.md
 * and of the messages of a bad start. Each variable says what it does in `.describe()`; the page is generated from it.
 */

/** The live source and the contact providers, real or simulated. */
export const sourcesShape = {
  NETWORK_SOURCE_URL: z
    .url()
    .optional()
    .describe('The professional-network live source over HTTP. Unset: a simulated source over the stored catalog.'),
  NETWORK_SOURCE_API_KEY: z.string().optional().describe('The API key sent to `NETWORK_SOURCE_URL`.'),
  NETWORK_SOURCE_TIMEOUT_MS: positiveInt
    .default(8_000)
    .describe('Longest a live fetch from `NETWORK_SOURCE_URL` may take.'),
  NETWORK_SOURCE_FAILURE_RATE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0)
    .describe('Simulated source only: the share of live fetches that fail.'),
  NETWORK_SOURCE_LATENCY_MS: nonNegativeInt.default(0).describe('Simulated source only: the delay of each live fetch.'),
  NETWORK_SIMULATION_DAYS_PER_SECOND: z.coerce
    .number()
    .positive()
    .max(10_000)
    .optional()
    .describe(
      "Demos and tests: the network's clock (watch-list checks and the simulated source's drift) runs this many days per real second from the start of the process. Unset: real time. Refused with `NODE_ENV=production`.",
    ),
  CONTACT_PROVIDER_URL: z
    .url()
    .optional()
    .describe(
      'A third-party contact provider over HTTP, asked after the dataset and before the email-pattern guesser. Unset: not asked.',
    ),
  CONTACT_PROVIDER_API_KEY: z.string().optional().describe('The API key sent to `CONTACT_PROVIDER_URL`.'),
  CONTACT_PROVIDER_TIMEOUT_MS: positiveInt
    .default(8_000)
    .describe('Longest a call to `CONTACT_PROVIDER_URL` may take.'),
  CONTACT_EMAIL_VALIDATION: z
    .enum(['embedded', 'dns'])
    .default('embedded')
    .describe('`embedded`: deterministic syntax and reserved-name rules; `dns`: real MX lookups of mail domains.'),
  CONTACT_BATCH_CLAIM_SIZE: positiveInt
    .max(1000)
    .default(25)
    .describe("Batch contact enrichment: profiles a task's job claims per round."),
  CONTACT_BATCH_LEASE_SECONDS: positiveInt
    .default(120)
    .describe('Batch contact enrichment: how long a round holds its profiles before another run may take them.'),
};
