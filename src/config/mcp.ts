import { z } from 'zod';
import { positiveInt, nonNegativeInt, booleanFlag, commaList, originList } from './types.js';

/**
 * The MCP gateway: its backend, guards, tasks, and the checks on who may reach its routes.
 * src/config.ts spreads these shapes into its one schema, in its order: the order of the rows of docs/configuration.md
 * and of the messages of a bad start. Each variable says what it does in `.describe()`; the page is generated from it.
 */

/** The MCP routes; the signing secret of their confirmation tokens and download links; proxy trust. */
export const mcpShape = {
  BACKEND_URL: z
    .url()
    .optional()
    .describe(
      "The REST API of another deployment that the MCP gateway runs operations through, with the caller's API key in `x-api-key`. Unset (the default): in this process. Refused together with single sign-on, whose callers have no key to send.",
    ),
  CONFIRM_ABOVE_CREDITS: nonNegativeInt
    .default(500)
    .describe("MCP calls whose worst-case cost exceeds this need the user's confirmation."),
  LOW_BALANCE_WARNING_CREDITS: nonNegativeInt
    .default(1000)
    .describe('MCP results warn when the balance falls under this.'),
  MCP_RESPONSE_TOKEN_BUDGET: positiveInt
    .default(20_000)
    .describe('MCP results larger than this (about 4 characters a token) are cut, and the rest kept reachable.'),
  BALANCE_CACHE_SECONDS: nonNegativeInt.default(5).describe('How long the MCP gateway trusts a balance it read.'),
  MCP_TASK_TTL_SECONDS: positiveInt
    .default(86_400)
    .describe(
      'How long an MCP task (the tasks extension, for the operations that start a job) is kept after it was created; a task waiting for the confirmation of its cost waits 15 minutes.',
    ),
  MCP_TASK_POLL_INTERVAL_MS: positiveInt
    .optional()
    .describe(
      'The `pollIntervalMs` MCP tasks suggest. Unset (the default): the documented interval of the status operation that follows the job (10 or 30 s). For tests and development.',
    ),
  MCP_DIRECT_PATH: booleanFlag
    .default(true)
    .describe(
      "Answer the common MCP tool calls without building the SDK's per-request server (`src/mcp/fast-path.ts`); `false` sends every MCP request through the SDK.",
    ),
  ALLOWED_HOSTS: commaList
    .optional()
    .describe(
      "Comma list of `Host` names accepted on the MCP routes besides the loopback names, the listening host and `PUBLIC_URL`'s host (DNS-rebinding check; another is 403); `*` turns the check off, for a proxy that checks `Host` itself.",
    ),
  ALLOWED_ORIGINS: commaList
    .optional()
    .describe(
      "Comma list of `Origin`s accepted on the MCP routes besides loopback and `PUBLIC_URL`'s host (DNS-rebinding check; another is 403).",
    ),
  SIGNING_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters')
    .optional()
    .describe(
      'HMAC key of download links and confirmation tokens. Unset: one generated once and kept in the database.',
    ),
  CORS_ORIGINS: originList
    .optional()
    .describe(
      'Comma list of browser origins (`https://app.example`) allowed to call the MCP routes cross-origin; outside production, loopback origins are allowed too.',
    ),
  TRUST_PROXY: booleanFlag
    .default(false)
    .describe(
      "Behind one reverse proxy: the client's address is the one the proxy put last in `X-Forwarded-For` (rate limits of sign-in and registration count it), and `X-Forwarded-Proto` is believed (never `X-Forwarded-Host`). Unset: forwarded headers are ignored from any peer, loopback included, and the address is the connection's.",
    ),
};
