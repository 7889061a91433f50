import path from 'node:path';
import { z } from 'zod';
import type { RateLimitClass } from '../operations/define.js';
import { signOnShape, dashboardShape } from './config/auth.js';
import { databaseShape } from './config/database.js';
import { jobShape, webhookShape } from './config/jobs.js';
import { accountConcurrencyShape, demoShape, rateLimitShape } from './config/limits.js';
import { mcpShape } from './config/mcp.js';
import { serverShape, httpShape, metricsShape } from './config/server.js';
import { sourcesShape } from './config/sources.js';
import { parseDurations } from './config/types.js';

export { parseDurations };

/**
 * Every setting of the service, read from the environment in this one place.
 * A bad value stops the start with a message naming the variable.
 * The variables are declared by concern under src/config/; this module puts them in one schema, checks
 * the rules that span several of them, and derives the values the service uses.
 */

/**
 * Every variable carries its documentation in `.describe()`: `docs/configuration.md` is generated from it
 * (`npm run generate`), and `npm run check` fails when the two differ. The text says what the variable does and,
 * when it is unset without a default, what happens then. The order of the spreads is the order of the
 * variables within each section of that page and of the messages of a bad start.
 */
export const environmentSchema = z
  .object({
    ...serverShape,
    ...databaseShape,
    ...accountConcurrencyShape,
    ...httpShape,
    ...demoShape,
    ...rateLimitShape,
    ...metricsShape,
    ...mcpShape,
    ...signOnShape,
    ...dashboardShape,
    ...jobShape,
    ...sourcesShape,
    ...webhookShape,
  })
  .superRefine((env, ctx) => {
    const issue = (variable: string, message: string) => ctx.addIssue({ code: 'custom', path: [variable], message });
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS)
      issue('HTTP_HEADERS_TIMEOUT_MS', 'must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)');
    if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) issue('OIDC_CLIENT_ID', 'is required with OIDC_ISSUER');
    if (!env.OIDC_ISSUER && (env.OIDC_CLIENT_ID || env.OIDC_CLIENT_SECRET))
      issue('OIDC_ISSUER', 'is required with OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
    if (env.OIDC_DEV_PROVIDER && env.OIDC_ISSUER)
      issue(
        'OIDC_DEV_PROVIDER',
        'cannot be combined with OIDC_ISSUER: the built-in provider replaces the external one',
      );
    if (env.BACKEND_URL && (env.OIDC_ISSUER || env.OIDC_DEV_PROVIDER))
      issue(
        'BACKEND_URL',
        "cannot be combined with single sign-on (OIDC_ISSUER or OIDC_DEV_PROVIDER): the gateway calls BACKEND_URL with the caller's API key, and a /mcp/v3 sign-in has none (its token never goes upstream). Serve /mcp/v3 from instances without BACKEND_URL, which run operations in process",
      );
    if (env.NODE_ENV === 'production') {
      if (env.OIDC_DEV_PROVIDER)
        issue('OIDC_DEV_PROVIDER', 'is for development only and refused with NODE_ENV=production');
      if (env.OAUTH_CIMD_ALLOW_LOOPBACK)
        issue('OAUTH_CIMD_ALLOW_LOOPBACK', 'is for development only and refused with NODE_ENV=production');
      if (env.NETWORK_SIMULATION_DAYS_PER_SECOND !== undefined)
        issue('NETWORK_SIMULATION_DAYS_PER_SECOND', 'is for demos and tests only and refused with NODE_ENV=production');
      if (env.WEBHOOK_ALLOW_PRIVATE_TARGETS)
        issue(
          'WEBHOOK_ALLOW_PRIVATE_TARGETS',
          'is for development and tests only and refused with NODE_ENV=production',
        );
    }
  });

export type Environment = z.infer<typeof environmentSchema>;

export interface Config extends Environment {
  /** Absolute DATA_DIR. */
  dataDir: string;
  exportDir: string;
  jobMaxRunningPerAccount: number;
  /** Where the per-account concurrency caps are counted: ACCOUNT_CONCURRENCY_STORE, else RATE_LIMIT_STORE. */
  accountConcurrencyStore: 'memory' | 'database';
  /** WEBHOOK_RETRY_SCHEDULE and WEBHOOK_DISABLE_AFTER in milliseconds. */
  webhookRetryScheduleMs: number[];
  webhookDisableAfterMs: number;
}

export type RateLimitSettings = Pick<
  Config,
  | 'RATE_LIMIT_SEARCH_PER_MINUTE'
  | 'RATE_LIMIT_STANDARD_PER_MINUTE'
  | 'RATE_LIMIT_STATUS_PER_MINUTE'
  | 'RATE_LIMIT_HEAVY_PER_MINUTE'
>;

/** Each rate-limit class's requests per minute, as configured: what REST enforces and what OpenAPI and MCP announce. */
export function rateLimitsPerMinute(config: RateLimitSettings): Record<RateLimitClass, number> {
  return {
    search: config.RATE_LIMIT_SEARCH_PER_MINUTE,
    standard: config.RATE_LIMIT_STANDARD_PER_MINUTE,
    status: config.RATE_LIMIT_STATUS_PER_MINUTE,
    heavy: config.RATE_LIMIT_HEAVY_PER_MINUTE,
  };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(pickDefined(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const dataDir = path.resolve(parsed.data.DATA_DIR);
  return {
    ...parsed.data,
    dataDir,
    exportDir: path.resolve(parsed.data.EXPORT_DIR ?? path.join(dataDir, 'exports')),
    jobMaxRunningPerAccount: parsed.data.JOB_MAX_RUNNING_PER_ACCOUNT ?? Math.max(1, parsed.data.JOB_CONCURRENCY - 1),
    accountConcurrencyStore: parsed.data.ACCOUNT_CONCURRENCY_STORE ?? parsed.data.RATE_LIMIT_STORE,
    webhookRetryScheduleMs: parseDurations(parsed.data.WEBHOOK_RETRY_SCHEDULE) as number[],
    webhookDisableAfterMs: (parseDurations(parsed.data.WEBHOOK_DISABLE_AFTER) as number[])[0] as number,
  };
}

/** Empty variables count as unset, as a shell user would expect from `FOO= npm start`. */
function pickDefined(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}
