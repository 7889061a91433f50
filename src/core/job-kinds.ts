import type { AnyJobDefinition } from '../job-queue/index.js';
import { buildJob } from './audiences/build.js';
import { enrichmentJob } from './audiences/enrichment-run.js';
import { exportJob } from './audiences/exports.js';
import { mailJob } from './audiences/mail.js';
import { batchContactsJob } from './contacts/batch-job.js';
import { exportFilesPurgeJob } from './audiences/delete.js';
import { savedSearchRunJob, scheduleJob } from './saved-searches/runs.js';
import { webhookDeliveryJob } from './webhooks/delivery.js';
import { watchListCheckJob } from './watch-lists/checks.js';
import type { LogDeps, ServicesDeps } from './deps.js';
import type { EnrichmentDeps } from './audiences/enrichment-run.js';

/** What the jobs below use between them: the worker passes the service's context, which has all of it. */
export type JobDeps = EnrichmentDeps &
  LogDeps &
  ServicesDeps<'mailer' | 'contactWaterfall' | 'webhookSender' | 'networkSource' | 'networkClock'>;

/**
 * Every kind of job the service runs, for the one job worker (src/worker). To add a kind:
 * define it with `defineJob` next to the code it runs, enqueue it with `enqueue` in the
 * transaction that creates its work (the workers of every instance are woken at its commit), and add it here.
 */
export const jobDefinitions: readonly AnyJobDefinition<JobDeps>[] = [
  buildJob,
  enrichmentJob,
  exportJob,
  mailJob,
  batchContactsJob,
  exportFilesPurgeJob,
  savedSearchRunJob,
  scheduleJob,
  watchListCheckJob,
];

/**
 * Webhook deliveries, run by a job loop of their own (WEBHOOK_DELIVERY_CONCURRENCY slots): an
 * attempt can wait WEBHOOK_TIMEOUT_MS on a slow endpoint, and an endpoint that is down must never
 * hold the slots that builds, exports and mails run in.
 */
export const webhookJobDefinitions: readonly AnyJobDefinition<JobDeps>[] = [webhookDeliveryJob];
