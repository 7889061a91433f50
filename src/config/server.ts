import { z } from 'zod';
import { positiveInt, nonNegativeInt } from './types.js';

/**
 * Settings of the process and its HTTP server: environment, listening address, files, logs, metrics.
 * src/config.ts spreads these shapes into its one schema, in its order: the order of the rows of docs/configuration.md
 * and of the messages of a bad start. Each variable says what it does in `.describe()`; the page is generated from it.
 */

/** Where the service listens and keeps its files. */
export const serverShape = {
  NODE_ENV: z
    .enum(['development', 'production', 'test'])
    .default('development')
    .describe(
      '`production` refuses the settings meant only for development and tests (the built-in identity provider, loopback OAuth clients) and turns off the loopback CORS origins.',
    ),
  HOST: z
    .string()
    .default('127.0.0.1')
    .describe('The address the service listens on (the container image sets `0.0.0.0`).'),
  PORT: nonNegativeInt.max(65535).default(3000).describe('The port the service listens on (`0`: a free one).'),
  PUBLIC_URL: z
    .url()
    .optional()
    .describe(
      'Absolute base of the links in responses and mails (download links, OAuth metadata); also an allowed MCP `Host`. Unset: the listening address.',
    ),
  DATA_DIR: z
    .string()
    .default('./data')
    .describe(
      'Made private (0700) at every start: the embedded PostgreSQL and its credentials (as root, the cluster lives under `/var/lib`: see [getting started](getting-started.md)), the demo key file, exports, the mail outbox.',
    ),
};

/** Logs, and what one HTTP client may take of the server. */
export const httpShape = {
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('The least severe log line written; logs are JSON lines on stdout.'),
  HTTP_HEADERS_TIMEOUT_MS: positiveInt
    .default(20_000)
    .describe(
      "Longest a client may take to send a request's headers, counted from its first byte (or from the connection, for a new one); a connection that sends nothing is closed after this too. Then 408.",
    ),
  HTTP_REQUEST_TIMEOUT_MS: positiveInt
    .default(60_000)
    .describe(
      'Longest a client may take to send a whole request, body included; then 408 and the connection is closed.',
    ),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt
    .default(65_000)
    .describe(
      'How long an idle keep-alive connection is kept between requests (a little longer than the 60 s of common proxies and client pools).',
    ),
};

/** The Prometheus endpoint. */
export const metricsShape = {
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe(
      'Set: Prometheus metrics at `/metrics`, for a scraper that sends this as a bearer token. Unset: no metrics.',
    ),
};
