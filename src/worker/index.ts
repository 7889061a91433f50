/**
 * The worker: the background side of a process (JOB_WORKER), above core. It runs core's jobs
 * (the one list in src/core/job-kinds.ts: audience builds, enrichments, exports, mails, batch
 * contact enrichment) in one job loop (job-worker.ts), and the retention sweeps the
 * composition root hands it.
 *
 * Layer rule: src/worker may import src/core, src/job-queue, src/store and the root files
 * (config, context, log, errors); nothing imports src/worker but the composition root
 * (src/service.ts) and tests. The queue it reads (table, `defineJob`, job types) is
 * src/job-queue, below core, so that core can define and enqueue jobs without knowing who runs them.
 */
import type { AppContext } from '../context.js';
import { jobDefinitions, webhookJobDefinitions } from '../core/job-kinds.js';
import type { AnyJobDefinition } from '../job-queue/define.js';
import { startRetentionSweeps, type RetentionTask } from '../job-queue/retention.js';
import { JobWorker } from './job-worker.js';

export { JobWorker } from './job-worker.js';

export interface BackgroundWork {
  worker: JobWorker<AppContext>;
  /** The loop of webhook deliveries (src/core/job-kinds.ts, webhookJobDefinitions). */
  webhookWorker: JobWorker<AppContext>;
  stop(): Promise<void>;
}

/**
 * Starts this process's job loop and the retention sweeps. Stopping interrupts running jobs at
 * their next checkpoint and hands them back to the queue, so another process (or this one after
 * a restart) continues them.
 */
export async function startBackgroundWork(
  context: AppContext,
  options: { retention: readonly RetentionTask[] },
): Promise<BackgroundWork> {
  const worker = startJobWorker(context);
  const webhookWorker = startWebhookWorker(context);
  const retention = startRetentionSweeps(
    context.db.pool,
    options.retention,
    context.config.RETENTION_SWEEP_MINUTES,
    context.log.child({ component: 'retention' }),
  );
  return {
    worker,
    webhookWorker,
    stop: async () => {
      await retention.stop();
      await Promise.all([worker.stop(), webhookWorker.stop()]);
    },
  };
}

/** The job loop alone, on the settings of `context.config` (tests start it on a context of their own). */
export function startJobWorker(
  context: AppContext,
  jobs: readonly AnyJobDefinition<AppContext>[] = jobDefinitions,
): JobWorker<AppContext> {
  const { config } = context;
  const worker = new JobWorker<AppContext>({
    db: context.db,
    log: context.log.child({ component: 'jobs' }),
    jobs,
    context,
    concurrency: config.JOB_CONCURRENCY,
    pollIntervalMs: config.JOB_POLL_INTERVAL_MS,
    leaseSeconds: config.JOB_LEASE_SECONDS,
    retryBaseMs: config.JOB_RETRY_BASE_MS,
    maxRunningPerAccount: config.jobMaxRunningPerAccount,
  });
  worker.start();
  context.log.info(
    { workerId: worker.id, concurrency: config.JOB_CONCURRENCY, kinds: jobs.map((j) => j.kind) },
    'job worker started',
  );
  return worker;
}

/**
 * The loop of webhook deliveries, beside the main one: WEBHOOK_DELIVERY_CONCURRENCY attempts at
 * once, at most all but one of them for one account, so one account's unreachable endpoint leaves
 * a slot to the others.
 */
export function startWebhookWorker(context: AppContext): JobWorker<AppContext> {
  const { config } = context;
  const worker = new JobWorker<AppContext>({
    db: context.db,
    log: context.log.child({ component: 'webhooks' }),
    jobs: webhookJobDefinitions,
    context,
    concurrency: config.WEBHOOK_DELIVERY_CONCURRENCY,
    pollIntervalMs: config.JOB_POLL_INTERVAL_MS,
    leaseSeconds: config.JOB_LEASE_SECONDS,
    retryBaseMs: config.JOB_RETRY_BASE_MS,
    maxRunningPerAccount: Math.max(1, config.WEBHOOK_DELIVERY_CONCURRENCY - 1),
  });
  worker.start();
  return worker;
}
