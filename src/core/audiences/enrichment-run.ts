import type pg from 'pg';
import { z } from 'zod';
import { accountOf, defineJob, JobInterrupted, type JobRun } from '../../job-queue/index.js';
import { canonicalJson } from '../search/cursor.js';
import { credit } from '../credits.js';
import { requireAudience } from './record.js';
import {
  enrichmentCreditUnit,
  findRun,
  statusView,
  type EnrichmentStepName,
  type RunRow,
  type StepState,
} from './enrichment-row.js';
import { enrichmentStepPlan, type BatchOutcome, type Step, type StepDeps } from './enrichment-steps/index.js';
import { failExportIn } from './exports.js';
import { enqueueMail } from './mail.js';
import { emitWebhookEvent } from '../webhooks/events.js';
import type { ServicesDeps } from '../deps.js';
import type { ExportDeps } from './exports.js';

/**
 * The enrichment run: the spec's nine steps in order (Initialization, Sales Tool Enrichment,
 * Live Enrichment, Resubmitting Audience, Cleaning Names, Fetching Contact Details,
 * Validating Contact Details, Exporting CSV, Completed; each in enrichment-steps/). A step the
 * request switched off is marked SKIPPED at once. A step works in batches; each batch commits
 * its results, the credits it settles (delivered, or refunded with an idempotency key naming
 * the run, step and batch) and the position reached, in one transaction. A run interrupted
 * anywhere (process killed, lease lost) resumes from the last committed batch and can neither
 * redo paid work nor refund twice. Outside calls (live fetches, contact providers) happen
 * between transactions, with the job's abort signal.
 */

export const enrichmentJob = defineJob({
  kind: 'audience.enrichment',
  payload: z.object({ enrichmentId: z.number().int().positive() }),
  maxAttempts: 3,
  run: (run, context: EnrichmentDeps) => runEnrichment(context, run),
  exhausted: (job, error, context: EnrichmentDeps) =>
    failRun(
      context,
      accountOf(job),
      job.payload.enrichmentId,
      `the enrichment stopped after repeated errors (${error.slice(0, 200)}); credits for the work not done were refunded`,
    ),
});

/** What an enrichment run needs: what its export step needs, and the two sources of contacts and live records. */
export type EnrichmentDeps = ExportDeps & ServicesDeps<'audienceContactSource' | 'audienceLiveSource'>;

type Plan = Record<EnrichmentStepName, Step>;

interface RunDeps {
  context: EnrichmentDeps;
  plan: Plan;
}

/** The step whose state is at `index` of the run's list, found by its name. */
function stepAt(plan: Plan, run: RunRow, index: number): Step {
  const name = run.steps[index]?.name;
  const step = name === undefined ? undefined : plan[name];
  if (!step) throw new Error(`enrichment ${run.id}: no step "${String(name)}" at position ${index}`);
  return step;
}

export async function runEnrichment(context: EnrichmentDeps, job: JobRun<{ enrichmentId: number }>): Promise<void> {
  const accountId = accountOf(job.job);
  const runId = job.job.payload.enrichmentId;
  const stepDeps: StepDeps = {
    context,
    // The contact-provider waterfall (dataset, HTTP vendor, pattern guess; validated) and the
    // configured network source, unless a test or an operator registered others.
    contacts: context.services.audienceContactSource,
    live: context.services.audienceLiveSource,
    job,
  };
  const deps: RunDeps = { context, plan: enrichmentStepPlan(stepDeps) };
  const found = await findRun(context.db.pool, accountId, runId);
  // Finished by an earlier attempt, or gone with its deleted audience.
  if (!found || found.status === 'DONE' || found.status === 'FAILED') return;
  let run = found;
  if (run.status === 'NOT_STARTED') {
    await context.db.transaction(async (tx) => {
      const locked = await findRun(tx, accountId, runId, true);
      if (locked?.status !== 'NOT_STARTED') return;
      await tx.query(
        `UPDATE enrichment_runs SET status = 'RUNNING', started_at = now() WHERE account_id = $1 AND id = $2`,
        [accountId, runId],
      );
    });
  }
  for (;;) {
    job.checkpoint();
    const current = await findRun(context.db.pool, accountId, runId);
    if (!current) return;
    run = current;
    if (run.status !== 'RUNNING') return;
    const index = run.step_index;
    const step = stepAt(deps.plan, run, index);
    if (!step.enabled(run)) {
      await commit(
        deps,
        run,
        index,
        async () => ({ cursor: null, done: 0, settled: 0, refund: 0, note: 'switched off by the request' }),
        'SKIPPED',
        () => 0,
      );
      continue;
    }
    if (run.steps[index]?.status === 'PENDING') await markRunning(deps, run, index, step.total(run));
    await job.pause(context.config.JOB_STEP_DELAY_MS);
    let cursor = run.step_cursor;
    for (;;) {
      job.checkpoint();
      const apply = await step.batch(run, cursor);
      const outcome = await commit(deps, run, index, apply, 'COMPLETED', step.total);
      await job.progress({ step: run.steps[index]?.name, cursor: outcome.cursor });
      if (outcome.cursor === null) break;
      await job.pause(context.config.JOB_STEP_DELAY_MS);
      cursor = outcome.cursor;
      const next = await findRun(context.db.pool, accountId, runId);
      if (!next) return;
      run = next;
    }
  }
}

/** PENDING → RUNNING with its start time and size, committed before the step's work so a poller sees what is running. */
async function markRunning(deps: RunDeps, seen: RunRow, index: number, total: number): Promise<void> {
  await deps.context.db.transaction(async (tx) => {
    const run = await findRun(tx, seen.account_id, seen.id, true);
    const step = run?.steps[index];
    if (!run || run.status !== 'RUNNING' || run.step_index !== index || !step || step.status !== 'PENDING') return;
    step.status = 'RUNNING';
    step.startedAt = new Date().toISOString();
    step.total = total;
    await tx.query('UPDATE enrichment_runs SET steps = $3 WHERE account_id = $1 AND id = $2', [
      run.account_id,
      run.id,
      JSON.stringify(run.steps),
    ]);
  });
}

/**
 * Commits one batch of step `index`: checks the run is where this worker thinks it is (else
 * another worker took over: stop), applies the batch, refunds, records progress; finishing the
 * step moves the run to the next one.
 */
async function commit(
  deps: RunDeps,
  seen: RunRow,
  index: number,
  apply: (tx: pg.PoolClient, run: RunRow) => Promise<BatchOutcome>,
  finalStatus: 'COMPLETED' | 'SKIPPED',
  total: (run: RunRow) => number,
): Promise<BatchOutcome> {
  const { context } = deps;
  return context.db.transaction(async (tx) => {
    const run = await findRun(tx, seen.account_id, seen.id, true);
    if (!run) throw new JobInterrupted('the run was cancelled: its audience was deleted');
    if (
      run.status !== 'RUNNING' ||
      run.step_index !== index ||
      canonicalJson(run.step_cursor) !== canonicalJson(seen.step_cursor)
    ) {
      throw new JobInterrupted('the run was advanced by another worker');
    }
    const step = run.steps[index] as StepState;
    const now = new Date().toISOString();
    if (step.status === 'PENDING') {
      step.status = 'RUNNING';
      step.startedAt = now;
      step.total = finalStatus === 'SKIPPED' ? 0 : total(run);
    }
    const outcome = await apply(tx, run);
    if (outcome.refund > 0) {
      await credit(tx, run.account_id, outcome.refund, {
        unit: enrichmentCreditUnit,
        reason: `enrichment ${run.id}: refund for ${step.name.toLowerCase()} that delivered nothing`,
        reference: `enrichment:${run.id}`,
        // The step's position, not its name: keys already in ledgers must keep their form, or a
        // batch refunded before an upgrade would be refunded again after it.
        idempotencyKey: `enrichment:${run.id}:refund:${index}:${canonicalJson(run.step_cursor)}`,
      });
    }
    step.done += outcome.done;
    if (outcome.note) step.note = outcome.note;
    let next = index;
    if (outcome.cursor === null) {
      step.status = finalStatus;
      step.completedAt = now;
      next = index + 1;
      // Steps the request switched off complete together with the step before them, so a
      // poller never sees one of them as the current step.
      while (next < run.steps.length && !stepAt(deps.plan, run, next).enabled(run)) {
        const skipped = run.steps[next] as StepState;
        Object.assign(skipped, {
          status: 'SKIPPED',
          startedAt: now,
          completedAt: now,
          note: 'switched off by the request',
        });
        next += 1;
      }
    }
    await tx.query(
      `UPDATE enrichment_runs SET steps = $3, step_cursor = $4, step_index = $5, settled_credits = settled_credits + $6,
              refunded_credits = refunded_credits + $7
        WHERE account_id = $1 AND id = $2`,
      [
        run.account_id,
        run.id,
        JSON.stringify(run.steps),
        outcome.cursor === null ? null : JSON.stringify(outcome.cursor),
        next,
        outcome.settled,
        outcome.refund,
      ],
    );
    // The Completed step's batch marked the run DONE: the event goes with the commit that makes it so.
    if (outcome.cursor === null && next >= run.steps.length) await emitRunEvent(tx, run.account_id, run.id);
    return outcome;
  });
}

/** enrichment.completed or enrichment.failed, with what getEnrichmentStatus answers now, in the caller's transaction. */
async function emitRunEvent(tx: pg.PoolClient, accountId: number, runId: number): Promise<void> {
  const run = await findRun(tx, accountId, runId);
  if (run?.status !== 'DONE' && run?.status !== 'FAILED') return;
  await emitWebhookEvent(tx, accountId, run.status === 'DONE' ? 'enrichment.completed' : 'enrichment.failed', {
    ...statusView(run),
    audienceId: String(run.audience_id),
  });
}

/**
 * The run failed for good: everything of the charge not yet delivered or refunded is refunded
 * (idempotency key `enrichment:<id>:refund:failed`), the run ends FAILED, and with userEmail a
 * mail says so.
 */
export async function failRun(
  context: EnrichmentDeps,
  accountId: number,
  runId: number,
  reason: string,
): Promise<void> {
  await context.db.transaction(async (tx) => {
    const run = await findRun(tx, accountId, runId, true);
    if (!run || run.status === 'DONE' || run.status === 'FAILED') return;
    const refund = Math.max(0, run.charged_credits - run.settled_credits);
    if (refund > 0) {
      await credit(tx, accountId, refund, {
        unit: enrichmentCreditUnit,
        reason: `enrichment ${runId} failed: refund of work not done`,
        reference: `enrichment:${runId}`,
        idempotencyKey: `enrichment:${runId}:refund:failed`,
      });
    }
    const step = run.steps[run.step_index];
    if (step && step.status !== 'COMPLETED' && step.status !== 'SKIPPED') step.status = 'FAILED';
    await tx.query(
      `UPDATE enrichment_runs SET status = 'FAILED', failure_reason = $3, completed_at = now(), steps = $4,
              refunded_credits = refunded_credits + $5, settled_credits = charged_credits
        WHERE account_id = $1 AND id = $2`,
      [accountId, runId, reason, JSON.stringify(run.steps), refund],
    );
    await emitRunEvent(tx, accountId, runId);
    if (run.export_id !== null)
      await failExportIn(tx, accountId, run.export_id, 'the enrichment failed before its CSV was written');
    if (run.user_email) {
      const audience = await requireAudience(tx, accountId, run.audience_id);
      await enqueueMail(tx, accountId, {
        to: run.user_email,
        subject: `Your enrichment ${run.id} failed`,
        template: {
          kind: 'enrichment-failed',
          enrichmentId: runId,
          audienceId: run.audience_id,
          audienceName: audience.name,
          reason,
          refundedCredits: run.refunded_credits + refund,
        },
      });
    }
  });
}
