import type { z } from 'zod';
import type { Logger } from '../log.js';
import type { JobRow } from './row.js';

/**
 * The shape of one kind of job, as `operations/define.ts` is the shape of one operation: a
 * kind, a zod schema for its payload (checked when the job is enqueued and again when it is
 * claimed, so `run` gets a typed, valid payload), the work, and what to do when every attempt
 * failed. Each kind is written once, next to the domain code it runs, with `defineJob`, and
 * listed in the one list the worker runs (src/core/job-kinds.ts).
 *
 * `Context` is what the worker hands to every job besides its run (the service's context). It
 * is a parameter rather than an import so that this layer needs nothing above it: annotate it in
 * `run` with what the job uses (`run: async (run, context: ExportDeps) => ...`) and it is inferred.
 */
export interface JobDefinition<Payload extends z.ZodType = z.ZodType, Context = unknown> {
  /** Stored in `jobs.kind`: never rename a kind that may have rows in a running system. */
  kind: string;
  payload: Payload;
  /** Attempts before the job is given up (a failed attempt is retried with backoff). Default 5. */
  maxAttempts?: number;
  /**
   * The work. Must be safe to run again from the start after any interruption (a killed process
   * gets its job run again once the lease runs out): record progress in the same transaction as
   * its effects, and give every charge a ledger idempotency key. Return `runAgainAfter(ms)`
   * when the job is not finished but has nothing to do until then.
   */
  run(run: JobRun<z.output<Payload>>, context: Context): Promise<void | RunAgain>;
  /** Called once, after the last attempt failed: put what the job worked on in a final, visible state. */
  exhausted?(job: Job<z.output<Payload>>, error: string, context: Context): Promise<void>;
}

/** A job row whose payload has passed its kind's schema. */
export type Job<Payload> = Omit<JobRow, 'payload'> & { payload: Payload };

/** What a job's `run` gets besides the context. */
export interface JobRun<Payload = unknown> {
  job: Job<Payload>;
  /** Identifies the worker running this job (for leases of finer-grained work the job claims itself). */
  workerId: string;
  /**
   * Aborted when the process stops or the lease is lost. Pass it to outside calls (HTTP
   * providers abort their requests with it), and stop at the next safe point: `checkpoint()`.
   */
  signal: AbortSignal;
  log: Logger;
  /** Throws JobInterrupted when the job must stop; call it between units of work. */
  checkpoint(): void;
  /** Records progress on the job row, for operators and tests. */
  progress(progress: Record<string, unknown>): Promise<void>;
  /** Waits, waking early (and throwing) when the job must stop. */
  pause(ms: number): Promise<void>;
}

/** Returned by `run`: the job is not finished; put it back in the queue for `afterMs`, without counting an attempt. */
export interface RunAgain {
  runAgainAfterMs: number;
}

export const runAgainAfter = (ms: number): RunAgain => ({ runAgainAfterMs: Math.max(0, Math.ceil(ms)) });

/** Thrown inside a job when the worker is stopping or lost its lease; the job is handed back, not failed. */
export class JobInterrupted extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'JobInterrupted';
  }
}

// Jobs of different payloads live in one list; each is run with its own schema's type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobDefinition<Context = any> = JobDefinition<any, Context>;

export const defaultMaxAttempts = 5;

export function defineJob<Payload extends z.ZodType, Context = unknown>(
  definition: JobDefinition<Payload, Context>,
): JobDefinition<Payload, Context> {
  if (!definition.kind.trim()) throw new Error('a job kind must not be empty');
  if (
    definition.maxAttempts !== undefined &&
    !(Number.isInteger(definition.maxAttempts) && definition.maxAttempts > 0)
  ) {
    throw new Error(`job ${definition.kind}: maxAttempts must be a positive integer`);
  }
  return definition;
}

/** The payload read through the kind's schema; a clear error naming the job and the field when it does not fit. */
export function parsePayload<Payload extends z.ZodType>(
  definition: Pick<JobDefinition<Payload>, 'kind' | 'payload'>,
  payload: unknown,
): z.output<Payload> {
  const parsed = definition.payload.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new InvalidPayload(
    `job ${definition.kind}: the payload does not match its schema (${issue ? `${issue.path.join('.') || '(payload)'}: ${issue.message}` : parsed.error.message})`,
  );
}

/** The job's account (jobs about an account's resources are enqueued with one); a job without one cannot run. */
export function accountOf(job: Pick<JobRow, 'id' | 'kind' | 'account_id'>): number {
  if (job.account_id === null) throw new InvalidPayload(`job ${job.kind} ${job.id} has no account`);
  return job.account_id;
}

/** A payload that does not fit its schema: retrying cannot help, so the job fails at once. */
export class InvalidPayload extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidPayload';
  }
}
