import type express from 'express';
import type { AppContext } from '../context.js';
import { buildJobKind } from '../core/audiences/audiences.js';
import { failBuild, runBuild } from '../core/audiences/build.js';
import { enrichmentJobKind } from '../core/audiences/enrichment.js';
import { enrichmentJobExhausted, runEnrichment } from '../core/audiences/enrichment-run.js';
import { exportJobExhausted, exportJobKind, runExport } from '../core/audiences/exports.js';
import { mailJobExhausted, mailJobKind, sendQueuedMail } from '../core/audiences/mail.js';
import { linkSignerOf } from '../core/audiences/services.js';
import { mountDownloadRoute } from './downloads.js';
import { startRetentionSweeps } from './retention.js';
import { JobWorker, type JobHandler } from './worker.js';

export interface BackgroundWork {
  stop(): Promise<void>;
}

/**
 * Starts the job worker loop (audience builds, enrichments, exports, mails) in this process, and
 * the retention sweeps (retention.ts).
 * Stopping interrupts running jobs at their next checkpoint and hands them back to the queue,
 * so another process (or this one after a restart) continues them.
 */
export async function startBackgroundWork(context: AppContext): Promise<BackgroundWork> {
  // Made now, so a database problem shows at start rather than in the first export.
  await linkSignerOf(context);
  const handlers: Record<string, JobHandler> = {
    [buildJobKind]: {
      run: (run) => runBuild({ db: context.db, stepDelayMs: context.config.JOB_STEP_DELAY_MS }, run),
      exhausted: async (job) => {
        if (job.account_id === null) return;
        await failBuild(
          context.db,
          job.account_id,
          Number(job.payload.audienceId),
          'the build stopped after repeated internal errors; nothing was charged. Create a new audience to try again.',
        );
      },
    },
    [enrichmentJobKind]: { run: (run) => runEnrichment(context, run), exhausted: enrichmentJobExhausted(context) },
    [exportJobKind]: { run: (run) => runExport(context, run), exhausted: exportJobExhausted(context.db) },
    [mailJobKind]: { run: (run) => sendQueuedMail(context, run), exhausted: mailJobExhausted(context) },
  };
  const worker = new JobWorker({
    db: context.db,
    log: context.log.child({ component: 'jobs' }),
    handlers,
    concurrency: context.config.JOB_CONCURRENCY,
    pollIntervalMs: context.config.JOB_POLL_INTERVAL_MS,
    leaseSeconds: context.config.JOB_LEASE_SECONDS,
    retryBaseMs: context.config.JOB_RETRY_BASE_MS,
    maxRunningPerAccount: context.config.jobMaxRunningPerAccount,
  });
  context.services.jobWorker = worker;
  worker.start();
  context.log.info({ workerId: worker.id, concurrency: context.config.JOB_CONCURRENCY }, 'job worker started');
  const retention = startRetentionSweeps(context);
  return {
    stop: async () => {
      await retention.stop();
      await worker.stop();
      if (context.services.jobWorker === worker) delete context.services.jobWorker;
      context.services.mailer?.close();
    },
  };
}

/** Routes that are not operations: the signed download links of exports. */
export function mountJobRoutes(app: express.Express, context: AppContext): void {
  mountDownloadRoute(app, context);
}
