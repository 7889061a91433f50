import { z } from 'zod';
import { positiveInt, nonNegativeInt, booleanFlag, parseDurations } from './types.js';

/**
 * Work outside requests: mail, exports, the job queue and its retention, webhooks.
 * src/config.ts spreads these shapes into its one schema, in its order: the order of the rows of docs/configuration.md
 * and of the messages of a bad start. Each variable says what it does in `.describe()`; the page is generated from it.
 */

/** Mail, exports, the job worker and what it deletes when. */
export const jobShape = {
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional()
    .describe('`smtp://user:pass@host:587` to send mail. Unset: `.eml` files in `DATA_DIR/outbox`.'),
  MAIL_FROM: z
    .string()
    .default('Prospecting Data Service <no-reply@prospecting.local>')
    .describe('Sender of notifications.'),
  MAIL_ANY_RECIPIENT: booleanFlag
    .default(false)
    .describe(
      "`false`: `userEmail` must be one of the account's own addresses (its email, or one registered with `npm run accounts -- add-recipient`); `true`: any address.",
    ),
  EXPORT_DIR: z.string().optional().describe('Where CSV exports are written. Unset: `DATA_DIR/exports`.'),
  EXPORT_QUOTA_ROWS_PER_MONTH: positiveInt
    .default(100_000)
    .describe('Rows each account may export per calendar month; past it, 429 `quota_exceeded`.'),
  EXPORT_LINK_TTL_SECONDS: positiveInt.default(7 * 24 * 3600).describe('Lifetime of a signed download link.'),
  JOB_POLL_INTERVAL_MS: positiveInt.default(250).describe('How often an idle worker looks for jobs.'),
  JOB_WORKER: booleanFlag.default(true).describe('Run the background job worker in this process.'),
  JOB_CONCURRENCY: positiveInt.max(32).default(2).describe("Jobs in flight at once in one process's worker."),
  JOB_MAX_RUNNING_PER_ACCOUNT: positiveInt
    .optional()
    .describe(
      "Jobs of one account running at once across all instances, so one account's builds never hold every worker while another waits; accounts with fewer jobs running are served first. Unset: `JOB_CONCURRENCY - 1` (at least 1).",
    ),
  JOB_LEASE_SECONDS: positiveInt
    .default(30)
    .describe(
      'Lease of a claimed job; one whose worker stops renewing it (a killed process) is claimed again after it runs out.',
    ),
  JOB_RETRY_BASE_MS: positiveInt
    .default(5_000)
    .describe('First retry delay of a failed job attempt; it doubles per attempt, up to 10 minutes.'),
  EXPORT_RETENTION_DAYS: positiveInt
    .default(30)
    .describe('Export files are deleted this many days after they were written (the export then says `EXPIRED`).'),
  JOB_RETENTION_DAYS: positiveInt
    .default(30)
    .describe('Finished job rows (succeeded or failed) are deleted this many days after they finished.'),
  RETENTION_SWEEP_MINUTES: positiveInt
    .default(60)
    .describe('How often one worker instance sweeps for expired exports, finished jobs and expired MCP results.'),
  JOB_STEP_DELAY_MS: nonNegativeInt
    .default(0)
    .describe(
      'Tests and demos only: a pause after each step of a build, enrichment or saved-search run, and between the 1,000-row pages of an export, so a job can be watched or killed mid-way.',
    ),
};

/** Webhook deliveries: retries, timeouts, disabling, retention. */
export const webhookShape = {
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .refine((text) => parseDurations(text) !== null, {
      message: 'must be a comma list of durations such as 5s,5m,30m,2h (each a number and one of ms, s, m, h, d)',
    })
    .default('5s,5m,30m,2h,5h,10h,14h,20h,20h')
    .describe(
      'Webhooks: the waits between the attempts of one delivery, after the first (durations in `ms`, `s`, `m`, `h` or `d`). The default makes ten attempts over about three days; after the last, the delivery is failed.',
    ),
  WEBHOOK_TIMEOUT_MS: positiveInt
    .max(60_000)
    .default(10_000)
    .describe(
      'Webhooks: longest one delivery attempt may take, connection and answer included; longer is a failed attempt.',
    ),
  WEBHOOK_MANUAL_DELIVERIES_PER_HOUR: positiveInt
    .max(100_000)
    .default(10)
    .describe(
      'Webhooks: test events and resends (testWebhookEndpoint, resendWebhookDelivery) one endpoint may be sent an hour, together; past it the call is 429 with Retry-After. Each is retried like any delivery, so this bounds what a caller can make an endpoint receive.',
    ),
  WEBHOOK_DISABLE_AFTER: z
    .string()
    .refine((text) => parseDurations(text)?.length === 1, {
      message: 'must be a duration such as 5d, 12h or 30m',
    })
    .default('5d')
    .describe(
      "Webhooks: an endpoint whose every attempt has failed for this long is disabled, and the account's owners are mailed.",
    ),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFlag
    .default(false)
    .describe(
      'Webhooks, development and tests only: endpoints may be on loopback, private and link-local addresses. Refused with `NODE_ENV=production`.',
    ),
  WEBHOOK_DELIVERY_CONCURRENCY: positiveInt
    .max(64)
    .default(4)
    .describe(
      "Webhooks: delivery attempts one process makes at once, in a worker of their own, so a slow endpoint never holds the other jobs' slots.",
    ),
  WEBHOOK_RETENTION_DAYS: positiveInt
    .default(30)
    .describe('Webhooks: events, deliveries and the delivery log are deleted this many days after they were written.'),
};
