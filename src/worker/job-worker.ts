import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Database } from '../store/db.js';
import type { Logger } from '../log.js';
import { claimJob, completeJob, failAttempt, releaseJob, renewLease, reportProgress, type JobRow } from './queue.js';

/** What a job handler gets besides its job row. */
export interface JobRun {
  job: JobRow;
  /** Aborted when the process stops or the lease is lost: stop at the next safe point by calling `checkpoint()`. */
  signal: AbortSignal;
  log: Logger;
  /** Throws JobInterrupted when the job must stop; call it between units of work. */
  checkpoint(): void;
  /** Records progress on the job row, for operators and tests. */
  progress(progress: Record<string, unknown>): Promise<void>;
  /** Waits, waking early (and throwing) when the job must stop. */
  pause(ms: number): Promise<void>;
}

export interface JobHandler {
  run(run: JobRun): Promise<void>;
  /** Called once when the last attempt failed: put what the job worked on in a final, visible state. */
  exhausted?(job: JobRow, error: string): Promise<void>;
}

/** Thrown inside a handler when the worker is stopping or lost its lease; the job is not failed by it. */
export class JobInterrupted extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'JobInterrupted';
  }
}

export interface WorkerOptions {
  db: Database;
  log: Logger;
  handlers: Record<string, JobHandler>;
  concurrency: number;
  pollIntervalMs: number;
  leaseSeconds: number;
  retryBaseMs: number;
  /** Jobs of one account running at once across all workers (see claimJob). */
  maxRunningPerAccount?: number;
}

const maxRetryDelayMs = 10 * 60_000;

/**
 * The in-process worker: `concurrency` loops, each claiming one job at a time, polling every
 * `pollIntervalMs` when idle (and woken at once by `wake()` when this process enqueues).
 * `stop()` interrupts running jobs at their next checkpoint and hands them back to the queue.
 */
export class JobWorker {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private stopping = false;
  private readonly loops: Promise<void>[] = [];
  private readonly running = new Map<number, AbortController>();
  private wakers: Array<() => void> = [];
  private readonly kinds: string[];

  constructor(private readonly options: WorkerOptions) {
    this.kinds = Object.keys(options.handlers);
  }

  start(): void {
    for (let slot = 0; slot < this.options.concurrency; slot += 1) this.loops.push(this.loop());
  }

  /** A job was just enqueued by this process: look now rather than at the next poll. */
  wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const controller of this.running.values()) controller.abort(new JobInterrupted('the service is stopping'));
    this.wake();
    await Promise.all(this.loops);
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let job: JobRow | null = null;
      try {
        job = await claimJob(this.options.db.pool, this.id, this.options.leaseSeconds, this.kinds, this.options.maxRunningPerAccount);
      } catch (error) {
        if (!this.stopping) this.options.log.error({ err: error }, 'job claim failed');
      }
      if (job) {
        await this.execute(job);
        continue;
      }
      await this.idle();
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.pollIntervalMs);
      const waker = (): void => done();
      this.wakers.push(waker);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  private async execute(job: JobRow): Promise<void> {
    const { db, log: baseLog, leaseSeconds } = this.options;
    const log = baseLog.child({ jobId: job.id, jobKind: job.kind, attempt: job.attempts });
    const handler = this.options.handlers[job.kind];
    if (!handler) return;
    if (job.attempts > job.max_attempts) {
      // Its process died on every attempt: do not let it take the next process down too.
      await this.giveUp(job, handler, job.last_error ?? 'the job was interrupted on every attempt', log);
      return;
    }
    const controller = new AbortController();
    this.running.set(job.id, controller);
    const heartbeat = setInterval(
      () => {
        renewLease(db.pool, job.id, this.id, leaseSeconds).then(
          (held) => {
            if (!held) controller.abort(new JobInterrupted('the job lease was lost'));
          },
          (error: unknown) => log.warn({ err: error }, 'lease renewal failed'),
        );
      },
      Math.max(200, (leaseSeconds * 1000) / 3),
    );
    const checkpoint = (): void => {
      if (controller.signal.aborted) throw controller.signal.reason instanceof Error ? controller.signal.reason : new JobInterrupted('stopped');
    };
    const run: JobRun = {
      job,
      signal: controller.signal,
      log,
      checkpoint,
      progress: (progress) => reportProgress(db.pool, job.id, this.id, progress),
      pause: (ms) => pause(ms, controller.signal).then(checkpoint),
    };
    try {
      await handler.run(run);
      await completeJob(db.pool, job.id, this.id);
    } catch (error) {
      if (error instanceof JobInterrupted || controller.signal.aborted) {
        log.info({ reason: (error as Error).message }, 'job interrupted; handed back to the queue');
        await releaseJob(db.pool, job.id, this.id).catch(() => undefined);
      } else {
        const message = error instanceof Error ? error.message : String(error);
        const delay = Math.min(maxRetryDelayMs, this.options.retryBaseMs * 2 ** Math.max(0, job.attempts - 1));
        const willRetry = await failAttempt(db.pool, job.id, this.id, message, delay).catch(() => true);
        if (willRetry) {
          log.warn({ err: error, retryInMs: delay }, 'job attempt failed; will retry');
        } else {
          log.error({ err: error }, 'job failed on its last attempt');
          await this.exhaust(job, handler, message, log);
        }
      }
    } finally {
      clearInterval(heartbeat);
      this.running.delete(job.id);
    }
  }

  private async giveUp(job: JobRow, handler: JobHandler, reason: string, log: Logger): Promise<void> {
    await this.options.db.pool.query(
      `UPDATE jobs SET status = 'failed', locked_by = NULL, lease_expires_at = NULL, finished_at = now(), updated_at = now()
        WHERE id = $1 AND locked_by = $2`,
      [job.id, this.id],
    );
    log.error({ reason }, 'job gave up after its attempts');
    await this.exhaust(job, handler, reason, log);
  }

  private async exhaust(job: JobRow, handler: JobHandler, reason: string, log: Logger): Promise<void> {
    try {
      await handler.exhausted?.(job, reason);
    } catch (error) {
      log.error({ err: error }, 'could not record the failure of a job');
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
