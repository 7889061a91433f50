import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { databaseFailure } from '../errors.js';
import type { Logger } from '../log.js';
import type { Database } from '../store/db.js';
import type { KeptSession } from '../store/session.js';
import {
  InvalidPayload,
  JobInterrupted,
  parsePayload,
  type AnyJobDefinition,
  type Job,
  type JobRun,
} from '../job-queue/define.js';
import {
  claimJob,
  completeJob,
  failAttempt,
  failJob,
  jobsChannel,
  releaseJob,
  renewLease,
  reportProgress,
} from '../job-queue/queue.js';
import type { JobRow } from '../job-queue/row.js';

export interface WorkerOptions<Context> {
  db: Database;
  log: Logger;
  /** The kinds this worker runs (src/core/job-kinds.ts lists the service's). */
  jobs: readonly AnyJobDefinition<Context>[];
  /** Handed to every job's `run` and `exhausted`. */
  context: Context;
  concurrency: number;
  pollIntervalMs: number;
  leaseSeconds: number;
  retryBaseMs: number;
  /** Jobs of one account running at once across all workers (see claimJob). */
  maxRunningPerAccount?: number;
}

const maxRetryDelayMs = 10 * 60_000;

/**
 * The one job loop of a process: `concurrency` slots, each claiming one job at a time (fairly
 * across accounts), polling every `pollIntervalMs` when idle and woken at once when any instance
 * commits a job (a LISTEN on `jobsChannel`, on a session of its own that reconnects after a
 * failover; polling goes on beside it). While a job runs, a heartbeat renews its lease; losing the
 * lease, or `stop()`, aborts the job's signal, and the job is handed back at its next
 * checkpoint. A failed attempt is retried with exponential backoff; after the last one the
 * kind's `exhausted` runs. A payload that does not fit its kind's schema fails the job at once.
 */
export class JobWorker<Context = unknown> {
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private stopping = false;
  private readonly loops: Promise<void>[] = [];
  private readonly running = new Map<number, AbortController>();
  private wakers: Array<() => void> = [];
  /** Grows by one at every wake-up, so that a slot can tell one came while it was claiming. */
  private wakeCount = 0;
  private readonly definitions: Map<string, AnyJobDefinition<Context>>;
  private wakeups: KeptSession | null = null;
  private claiming: Promise<unknown> = Promise.resolve();
  private readonly settledWaiters = new Map<number, Array<() => void>>();
  private claimWaiters: Array<{ left: number; resolve: () => void }> = [];

  constructor(private readonly options: WorkerOptions<Context>) {
    this.definitions = new Map();
    for (const definition of options.jobs) {
      if (this.definitions.has(definition.kind)) throw new Error(`job kind ${definition.kind} is defined twice`);
      this.definitions.set(definition.kind, definition);
    }
  }

  start(): void {
    this.wakeups = this.options.db.keepSession({
      name: 'job wake-ups',
      log: this.options.log,
      onConnected: async (client) => {
        client.on('notification', () => this.wake());
        await client.query(`LISTEN ${jobsChannel}`);
        // Jobs committed while no session listened were announced to nobody.
        this.wake();
      },
    });
    void this.wakeups.start();
    for (let slot = 0; slot < this.options.concurrency; slot += 1) this.loops.push(this.loop());
  }

  /** Whether this worker hears of new jobs at once (its LISTEN session is up); it polls either way. */
  get listening(): boolean {
    return this.wakeups?.connected ?? false;
  }

  /** A job was just committed (by any instance): look now rather than at the next poll. */
  wake(): void {
    this.wakeCount += 1;
    const wakers = this.wakers;
    this.wakers = [];
    for (const wake of wakers) wake();
  }

  /**
   * Resolves once no attempt of job `id` runs on this worker (at once when none does). An attempt told to stop (its
   * job cancelled, its lease lost) goes on to its next checkpoint: whoever must see it write nothing more waits here.
   */
  settled(id: number): Promise<void> {
    if (!this.running.has(id)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.settledWaiters.get(id) ?? [];
      waiters.push(resolve);
      this.settledWaiters.set(id, waiters);
    });
  }

  /** Resolves once `count` more claims of this worker's slots have been answered, with a job or without one. */
  claimsAnswered(count: number): Promise<void> {
    if (count <= 0) return Promise.resolve();
    return new Promise((resolve) => this.claimWaiters.push({ left: count, resolve }));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.wakeups?.stop();
    for (const controller of this.running.values()) controller.abort(new JobInterrupted('the service is stopping'));
    this.wake();
    await Promise.all(this.loops);
  }

  private async loop(): Promise<void> {
    const kinds = [...this.definitions.keys()];
    while (!this.stopping) {
      // A job committed after the claim's snapshot is not seen by it, and its wake-up finds this slot busy claiming
      // rather than idle: compared after the claim, the count says to claim again instead of waiting for the next poll.
      const wakeupsBefore = this.wakeCount;
      let job: JobRow | null = null;
      try {
        job = await this.claim(kinds);
      } catch (error) {
        // The database away (a restart, a failover) is waited out: the next poll claims again.
        if (this.stopping) continue;
        if (databaseFailure(error)) this.options.log.warn({ err: error }, 'job claim failed: database unavailable');
        else this.options.log.error({ err: error }, 'job claim failed');
      }
      if (job) {
        await this.execute(job);
        continue;
      }
      if (this.wakeCount === wakeupsBefore) await this.idle();
    }
  }

  /**
   * This worker's slots claim one at a time: the per-account cap is read, not locked (claimJob), and two slots of one
   * worker claiming together both passed it under load, so one account's second build ran beside its first.
   */
  private claim(kinds: readonly string[]): Promise<JobRow | null> {
    const claimed = this.claiming.then(() =>
      claimJob(this.options.db.pool, this.id, this.options.leaseSeconds, kinds, this.options.maxRunningPerAccount),
    );
    this.claiming = claimed.catch(() => undefined);
    void this.claiming.then(() => this.claimAnswered());
    return claimed;
  }

  private claimAnswered(): void {
    const waiting = this.claimWaiters;
    this.claimWaiters = [];
    for (const waiter of waiting) {
      waiter.left -= 1;
      if (waiter.left > 0) this.claimWaiters.push(waiter);
      else waiter.resolve();
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

  private async execute(row: JobRow): Promise<void> {
    const { db, log: baseLog, leaseSeconds, context } = this.options;
    const log = baseLog.child({ jobId: row.id, jobKind: row.kind, attempt: row.attempts });
    const definition = this.definitions.get(row.kind);
    if (!definition) return;
    let job: Job<unknown>;
    try {
      job = { ...row, payload: parsePayload(definition, row.payload) };
    } catch (error) {
      if (!(error instanceof InvalidPayload)) throw error;
      // No attempt can read it: fail now, and leave `exhausted` out (it would get the same payload).
      log.error({ err: error }, 'job payload does not match its schema; the job failed');
      await failJob(db.pool, row.id, this.id, error.message).catch(() => undefined);
      return;
    }
    if (row.attempts > row.max_attempts) {
      // Its process died on every attempt: do not let it take the next process down too.
      const reason = row.last_error ?? 'the job was interrupted on every attempt';
      await failJob(db.pool, row.id, this.id, reason);
      log.error({ reason }, 'job gave up after its attempts');
      await this.exhaust(definition, job, reason, log);
      return;
    }
    const controller = new AbortController();
    this.running.set(row.id, controller);
    const heartbeat = setInterval(
      () => {
        renewLease(db.pool, row.id, this.id, leaseSeconds).then(
          (held) => {
            if (!held) controller.abort(new JobInterrupted('the job lease was lost'));
          },
          (error: unknown) => log.warn({ err: error }, 'lease renewal failed'),
        );
      },
      Math.max(200, (leaseSeconds * 1000) / 3),
    );
    const checkpoint = (): void => {
      if (controller.signal.aborted)
        throw controller.signal.reason instanceof Error ? controller.signal.reason : new JobInterrupted('stopped');
    };
    const run: JobRun<unknown> = {
      job,
      workerId: this.id,
      signal: controller.signal,
      log,
      checkpoint,
      progress: (progress) => reportProgress(db.pool, row.id, this.id, progress),
      pause: (ms) => pause(ms, controller.signal).then(checkpoint),
    };
    try {
      const outcome = await definition.run(run, context);
      if (outcome) {
        await releaseJob(db.pool, row.id, this.id, outcome.runAgainAfterMs);
        log.debug({ runAgainAfterMs: outcome.runAgainAfterMs }, 'job not finished; back in the queue');
      } else {
        await completeJob(db.pool, row.id, this.id);
      }
    } catch (error) {
      if (error instanceof JobInterrupted || controller.signal.aborted) {
        log.info({ reason: (error as Error).message }, 'job interrupted; handed back to the queue');
        await releaseJob(db.pool, row.id, this.id).catch(() => undefined);
      } else if (error instanceof InvalidPayload) {
        log.error({ err: error }, 'job cannot run; it failed without retries');
        await failJob(db.pool, row.id, this.id, error.message).catch(() => undefined);
      } else {
        const message = error instanceof Error ? error.message : String(error);
        const delay = Math.min(maxRetryDelayMs, this.options.retryBaseMs * 2 ** Math.max(0, row.attempts - 1));
        const willRetry = await failAttempt(db.pool, row.id, this.id, message, delay).catch(() => true);
        if (willRetry) {
          log.warn({ err: error, retryInMs: delay }, 'job attempt failed; will retry');
        } else {
          log.error({ err: error }, 'job failed on its last attempt');
          await this.exhaust(definition, job, message, log);
        }
      }
    } finally {
      clearInterval(heartbeat);
      this.running.delete(row.id);
      for (const resolve of this.settledWaiters.get(row.id) ?? []) resolve();
      this.settledWaiters.delete(row.id);
    }
  }

  private async exhaust(
    definition: AnyJobDefinition<Context>,
    job: Job<unknown>,
    reason: string,
    log: Logger,
  ): Promise<void> {
    try {
      await definition.exhausted?.(job, reason, this.options.context);
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
