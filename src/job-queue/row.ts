/** A row of the job table, as queue.ts reads it and as define.ts hands it to a job. */

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface JobRow {
  id: number;
  kind: string;
  account_id: number | null;
  /** As stored: read it through the kind's schema (the worker does, before `run`). */
  payload: unknown;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  progress: Record<string, unknown>;
  last_error: string | null;
}
