import { enrichmentSteps } from '../../../operations/schemas/audiences.js';
import { findAccountRow, type Queryable } from '../../store/db.js';
import type { EnrichmentEstimate, EnrichmentOptions } from './pricing.js';

/**
 * An enrichment run as the `enrichment_runs` table holds it: the row, its per-step states
 * (the spec's nine steps, in order, each keyed by its name), and the read that every part of
 * enrichment shares. Triggering is in enrichment.ts, the run loop in enrichment-run.ts, the
 * steps in enrichment-steps/.
 */

export const enrichmentCreditUnit = 'audienceEnrichment';

export type EnrichmentStepName = (typeof enrichmentSteps)[number];
export type RunStatus = 'NOT_STARTED' | 'RUNNING' | 'DONE' | 'FAILED';
export type StepStatus = 'PENDING' | 'RUNNING' | 'COMPLETED' | 'SKIPPED' | 'FAILED';

export interface StepState {
  name: EnrichmentStepName;
  status: StepStatus;
  startedAt: string | null;
  completedAt: string | null;
  /** Records handled so far, of `total`. */
  done: number;
  total: number;
  note: string | null;
}

export interface RunRow {
  account_id: number;
  id: number;
  audience_id: number;
  estimate_id: number;
  options: EnrichmentOptions;
  user_email: string | null;
  status: RunStatus;
  prospect_cap_id: number | null;
  prospects_to_enrich: number;
  companies_to_enrich: number;
  breakdown: EnrichmentEstimate['breakdown'];
  /** One state per step, in the spec's order; `step_index` is the position of the current one. */
  steps: StepState[];
  step_index: number;
  step_cursor: Record<string, unknown> | null;
  charged_credits: number;
  settled_credits: number;
  refunded_credits: number;
  export_id: number | null;
  failure_reason: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

export const runColumns = `account_id, id, audience_id, estimate_id, options, user_email, status, prospect_cap_id, prospects_to_enrich,
  companies_to_enrich, breakdown, steps, step_index, step_cursor, charged_credits, settled_credits, refunded_credits, export_id,
  failure_reason, created_at, started_at, completed_at`;

/** The states of a new run: every step PENDING. */
export function initialSteps(): StepState[] {
  return enrichmentSteps.map((name) => ({
    name,
    status: 'PENDING',
    startedAt: null,
    completedAt: null,
    done: 0,
    total: 0,
    note: null,
  }));
}

/** The state of the step called `name` in this run. */
export function stepNamed(run: Pick<RunRow, 'steps'>, name: EnrichmentStepName): StepState | undefined {
  return run.steps.find((step) => step.name === name);
}

/** The run, or null when it is gone (its audience was deleted): the run's job then stops. */
export async function findRun(
  db: Queryable,
  accountId: number,
  runId: number,
  forUpdate = false,
): Promise<RunRow | null> {
  return findAccountRow<RunRow>(db, 'enrichment_runs', runColumns, accountId, runId, forUpdate);
}

export interface EnrichmentStatusView {
  enrichmentId: string;
  status: RunStatus;
  currentStage: string;
  progressPercent: number;
  stepsCompleted: string[];
  currentStep: string | null;
  stepsRemaining: string[];
  steps: StepState[];
  estimatedCredits: number;
  refundedCredits: number;
  exportId: string | null;
  failureReason: string | null;
  createdAt: string;
  completedAt: string | null;
}

/** What getEnrichmentStatus answers for the run, and what the enrichment events carry. */
export function statusView(run: RunRow): EnrichmentStatusView {
  const finished = (s: StepState): boolean => s.status === 'COMPLETED' || s.status === 'SKIPPED';
  const current = run.status === 'RUNNING' ? run.steps[run.step_index] : undefined;
  const completedSteps = run.steps.filter(finished).length;
  const fraction =
    current && current.status === 'RUNNING' && current.total > 0 ? Math.min(1, current.done / current.total) : 0;
  const progressPercent =
    run.status === 'DONE' ? 100 : Math.min(99, Math.floor(((completedSteps + fraction) / run.steps.length) * 100));
  const stage =
    run.status === 'NOT_STARTED' || run.status === 'DONE' || run.status === 'FAILED'
      ? run.status
      : (current?.name ?? 'Completed').toUpperCase().replace(/[^A-Z]+/g, '_');
  return {
    enrichmentId: String(run.id),
    status: run.status,
    currentStage: stage,
    progressPercent,
    stepsCompleted: run.steps.filter(finished).map((s) => s.name),
    currentStep: current?.name ?? null,
    stepsRemaining: run.steps.filter((s) => !finished(s) && s !== current).map((s) => s.name),
    steps: run.steps,
    estimatedCredits: run.charged_credits,
    refundedCredits: run.refunded_credits,
    exportId: run.export_id === null ? null : String(run.export_id),
    failureReason: run.failure_reason,
    createdAt: run.created_at.toISOString(),
    completedAt: run.completed_at?.toISOString() ?? null,
  };
}
