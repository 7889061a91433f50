/**
 * The job queue: the `jobs` table and its claims (queue.ts), the shape of a job kind
 * (`defineJob`, define.ts) and the retention-task interface with its sweep (retention.ts).
 * Core defines its jobs with `defineJob` next to the code they run and enqueues them with
 * `enqueue` in the transaction that creates their work; src/worker runs them.
 *
 * Layer rule: src/job-queue sits below core. It may import src/store and the root files that import
 * nothing (log), never src/core, src/worker, src/api, src/mcp or src/providers: everything
 * that uses jobs points down to here.
 */
export {
  accountOf,
  defineJob,
  JobInterrupted,
  runAgainAfter,
  type AnyJobDefinition,
  type JobRun,
  type RunAgain,
} from './define.js';
export { cancelJobs, enqueue, expediteJobs } from './queue.js';
export { finishedJobsRetention, type RetentionTask } from './retention.js';
