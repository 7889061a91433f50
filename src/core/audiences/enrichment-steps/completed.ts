import type pg from 'pg';
import { credit } from '../../credits.js';
import { requireAudience } from '../record.js';
import { enrichmentCreditUnit, stepNamed, type RunRow } from '../enrichment-row.js';
import { enqueueMail } from '../mail.js';
import { selectedProspects, type Step } from './step.js';

/** DONE: anything of the charge not yet accounted for is refunded, and the completion mail is queued. */
export function completed(): Step {
  return {
    enabled: () => true,
    total: () => 1,
    batch: async () => async (tx, run) => {
      const unsettled = run.charged_credits - run.settled_credits;
      if (unsettled > 0) {
        await credit(tx, run.account_id, unsettled, {
          unit: enrichmentCreditUnit,
          reason: `enrichment ${run.id}: refund of work not done`,
          reference: `enrichment:${run.id}`,
          idempotencyKey: `enrichment:${run.id}:refund:unsettled`,
        });
      }
      await tx.query(
        `UPDATE enrichment_runs SET status = 'DONE', completed_at = now(), refunded_credits = refunded_credits + $3, settled_credits = charged_credits
          WHERE account_id = $1 AND id = $2`,
        [run.account_id, run.id, Math.max(0, unsettled)],
      );
      if (run.user_email) {
        const audience = await requireAudience(tx, run.account_id, run.audience_id);
        const found = await foundCounts(tx, run);
        await enqueueMail(tx, run.account_id, {
          to: run.user_email,
          subject: `Your enrichment ${run.id} is complete`,
          template: {
            kind: 'enrichment-done',
            enrichmentId: run.id,
            audienceId: run.audience_id,
            audienceName: audience.name,
            prospects: run.prospects_to_enrich,
            found,
            chargedCredits: run.charged_credits,
            refundedCredits: run.refunded_credits + Math.max(0, unsettled),
            exportId: run.export_id,
            exportNote: stepNamed(run, 'Exporting CSV')?.note ?? null,
          },
        });
      }
      return { cursor: null, done: 1, settled: 0, refund: 0 };
    },
  };
}

async function foundCounts(
  tx: pg.PoolClient,
  run: RunRow,
): Promise<{ workEmails: number; personalEmails: number; phoneNumbers: number }> {
  const result = await tx.query<{ work: number; personal: number; phone: number }>(
    `SELECT count(*) FILTER (WHERE cardinality(work_emails) > 0)::int AS work,
            count(*) FILTER (WHERE cardinality(personal_emails) > 0)::int AS personal,
            count(*) FILTER (WHERE cardinality(phone_numbers) > 0)::int AS phone
       FROM audience_prospects ap WHERE ${selectedProspects}`,
    [run.account_id, run.audience_id, run.prospect_cap_id],
  );
  const row = result.rows[0] as { work: number; personal: number; phone: number };
  return { workEmails: row.work, personalEmails: row.personal, phoneNumbers: row.phone };
}
