import { requireMailRecipient } from '../mail-recipients.js';
import { AppError } from '../../errors.js';
import { enqueue } from '../../job-queue/index.js';
import type { Database, Queryable } from '../../store/db.js';
import { charge } from '../credits.js';
import { requireAudience, requireBuilt } from './record.js';
import { enrichmentJob } from './enrichment-run.js';
import {
  enrichmentCreditUnit,
  initialSteps,
  runColumns,
  statusView,
  type EnrichmentStatusView,
  type RunRow,
  type RunStatus,
} from './enrichment-row.js';
import {
  measureScope,
  normalizeOptions,
  optionsKey,
  priceScope,
  type EnrichmentEstimate,
  type EnrichmentOptionsInput,
} from './pricing.js';
import type { DbConfigDeps } from '../deps.js';

/**
 * Estimating and triggering enrichment runs, and reading their status. The run itself is in
 * enrichment-run.ts (the loop) and enrichment-steps/ (the nine steps); the stored run in
 * enrichment-row.ts. Pricing rules: pricing.ts.
 */

export { statusView, type EnrichmentStatusView };

export async function estimateEnrichment(
  db: Database,
  accountId: number,
  audienceId: string,
  input: EnrichmentOptionsInput,
): Promise<EnrichmentEstimate & { estimateId: string }> {
  const options = normalizeOptions(input);
  const audience = await requireAudience(db.pool, accountId, audienceId);
  requireBuilt(audience, 'estimate an enrichment of');
  const estimate = priceScope(options, await measureScope(db.pool, accountId, audience.id, options));
  const stored = await db.pool.query<{ id: number }>(
    `INSERT INTO enrichment_estimates (account_id, audience_id, options_key, options, total_credits, estimate)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      accountId,
      audience.id,
      optionsKey(options),
      JSON.stringify(options),
      estimate.totalCredits,
      JSON.stringify(estimate),
    ],
  );
  return { estimateId: String((stored.rows[0] as { id: number }).id), ...estimate };
}

export interface TriggeredRun {
  enrichmentId: string;
  status: RunStatus;
  estimatedCredits: number;
}

/**
 * Charges the estimate and queues the run, in one transaction. Refused (400) when no
 * estimate with these exact values exists for the audience, or when it no longer computes to
 * the same total (an earlier run changed what is chargeable): the user confirmed a number,
 * and only that number may be charged.
 */
export async function triggerEnrichment(
  context: DbConfigDeps,
  accountId: number,
  audienceId: string,
  input: EnrichmentOptionsInput & { userEmail?: string | undefined },
): Promise<TriggeredRun> {
  const options = normalizeOptions(input);
  const key = optionsKey(options);
  await requireMailRecipient(context.db.pool, accountId, input.userEmail, {
    anyRecipient: context.config.MAIL_ANY_RECIPIENT,
  });
  const triggered = await context.db.transaction(async (tx) => {
    const audience = await requireAudience(tx, accountId, audienceId, true);
    requireBuilt(audience, 'enrich');
    const active = await tx.query<{ id: number; status: RunStatus }>(
      `SELECT id, status FROM enrichment_runs WHERE account_id = $1 AND audience_id = $2 AND status IN ('NOT_STARTED', 'RUNNING')`,
      [accountId, audience.id],
    );
    const running = active.rows[0];
    if (running) {
      throw new AppError(
        'invalid_state',
        `Enrichment ${running.id} of audience ${audience.id} is still ${running.status}: poll getEnrichmentStatus about every 30 seconds until it is DONE, then trigger again.`,
        { details: { enrichmentId: String(running.id), status: running.status } },
      );
    }
    const estimate = await tx.query<{ id: number; total_credits: number }>(
      `SELECT id, total_credits FROM enrichment_estimates WHERE account_id = $1 AND audience_id = $2 AND options_key = $3 ORDER BY id DESC LIMIT 1`,
      [accountId, audience.id, key],
    );
    const stored = estimate.rows[0];
    if (!stored) {
      throw new AppError(
        'invalid_request',
        `No estimate with these values exists for audience ${audience.id}. Call estimateEnrichmentCost with exactly the values you will trigger with ` +
          '(maxProspectsToEnrich, enrichmentType, the run* switches), show its totalCredits and timeEstimate to the user, and trigger with the same values.',
        { details: { issues: [{ field: '(body)', message: 'does not match any estimate of this audience' }] } },
      );
    }
    const scope = await measureScope(tx, accountId, audience.id, options);
    const fresh = priceScope(options, scope);
    if (fresh.totalCredits !== stored.total_credits) {
      throw new AppError(
        'invalid_request',
        `Estimate ${stored.id} is out of date: it said ${stored.total_credits} credits and these values now cost ${fresh.totalCredits} ` +
          '(an earlier enrichment changed what is left to do). Estimate again and confirm the new amount.',
        {
          details: {
            estimateId: String(stored.id),
            estimatedCredits: stored.total_credits,
            currentCredits: fresh.totalCredits,
          },
        },
      );
    }
    const steps = initialSteps();
    const inserted = await tx.query<{ id: number }>(
      `INSERT INTO enrichment_runs (account_id, audience_id, estimate_id, options, user_email, prospect_cap_id, prospects_to_enrich,
              companies_to_enrich, breakdown, steps, charged_credits)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id`,
      [
        accountId,
        audience.id,
        stored.id,
        JSON.stringify(options),
        input.userEmail ?? null,
        scope.prospectCapId,
        scope.prospects,
        scope.companies,
        JSON.stringify(fresh.breakdown),
        JSON.stringify(steps),
        fresh.totalCredits,
      ],
    );
    const runId = (inserted.rows[0] as { id: number }).id;
    await charge(tx, accountId, fresh.totalCredits, {
      unit: enrichmentCreditUnit,
      reason: `enrichment ${runId} of audience ${audience.id} (estimate ${stored.id})`,
      reference: `enrichment:${runId}`,
      idempotencyKey: `enrichment:${runId}:charge`,
    });
    await enqueue(tx, enrichmentJob, { accountId, payload: { enrichmentId: runId } });
    return { enrichmentId: String(runId), status: 'NOT_STARTED' as const, estimatedCredits: fresh.totalCredits };
  });
  return triggered;
}

/** The latest run of the audience. */
export async function enrichmentStatus(
  db: Queryable,
  accountId: number,
  audienceId: string,
): Promise<EnrichmentStatusView> {
  const audience = await requireAudience(db, accountId, audienceId);
  const result = await db.query<RunRow>(
    `SELECT ${runColumns} FROM enrichment_runs WHERE account_id = $1 AND audience_id = $2 ORDER BY id DESC LIMIT 1`,
    [accountId, audience.id],
  );
  const run = result.rows[0];
  if (!run) {
    throw new AppError(
      'not_found',
      `Audience ${audience.id} has no enrichment yet: estimate one with estimateEnrichmentCost, confirm its cost, then triggerEnrichment.`,
    );
  }
  return statusView(run);
}
