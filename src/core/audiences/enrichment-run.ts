import type pg from 'pg';
import type { AppContext } from '../../context.js';
import type { JobRow } from '../../jobs/queue.js';
import { JobInterrupted, type JobRun } from '../../jobs/worker.js';
import { profileUrlOf } from '../network-urls.js';
import { canonicalJson } from '../search/cursor.js';
import { credit } from '../credits.js';
import { requireAudience } from './audiences.js';
import { enrichmentCreditUnit, requireRun, type RunRow, type StepState } from './enrichment.js';
import { createRunExport, failExportIn, markExportReady, requireExport, writeExportFile } from './exports.js';
import { enqueueMail } from './mail.js';
import { cleanName } from './names.js';
import { enrichmentPrices, liveFreshHours } from './pricing.js';
import { exportStorageOf, wakeWorker } from './services.js';
import { normaliseEmail, normalisePhone } from '../../providers/contacts/validation.js';
import { networkAudienceLiveSource, waterfallAudienceContactSource } from '../contacts/audience-sources.js';
import type { AudienceContactSource, AudienceLiveSource, ContactPerson, FoundContacts } from './sources.js';

/**
 * The enrichment run: the spec's nine steps in order (Initialization, Sales Tool Enrichment,
 * Live Enrichment, Resubmitting Audience, Cleaning Names, Fetching Contact Details,
 * Validating Contact Details, Exporting CSV, Completed). A step the request switched off is
 * marked SKIPPED at once. A step works in batches; each batch commits its results, the credits
 * it settles (delivered, or refunded with an idempotency key naming the run, step and batch)
 * and the position reached, in one transaction. A run interrupted anywhere (process killed,
 * lease lost) resumes from the last committed batch and can neither redo paid work nor refund
 * twice. Outside calls (live fetches, contact providers) happen between transactions.
 */

interface BatchOutcome {
  /** Where the next batch starts; null when the step is finished. */
  cursor: Record<string, unknown> | null;
  done: number;
  /** Credits of the charge this batch accounts for (delivered or refunded). */
  settled: number;
  refund: number;
  note?: string | null;
}

interface Step {
  enabled(run: RunRow): boolean;
  total(run: RunRow): number;
  /** Reads and does the outside work of one batch; the returned function commits it. */
  batch(run: RunRow, cursor: Record<string, unknown> | null): Promise<(tx: pg.PoolClient, run: RunRow) => Promise<BatchOutcome>>;
}

interface RunDeps {
  context: AppContext;
  steps: Step[];
  contacts: AudienceContactSource;
  live: AudienceLiveSource;
  job: JobRun;
}

const liveBatch = 25;
const liveConcurrency = 5;
const contactBatch = 200;
const sqlBatch = 2000;

/** The prospects a run enriches: the audience's first ones by id, up to the run's cap. */
const selectedProspects = `ap.account_id = $1 AND ap.audience_id = $2 AND ap.person_id <= $3`;

export async function runEnrichment(context: AppContext, job: JobRun): Promise<void> {
  const { accountId, runId } = runPayload(job.job);
  const deps: RunDeps = {
    context,
    steps: [],
    // The contact-provider waterfall (dataset, HTTP vendor, pattern guess; validated) and the
    // configured network source, unless a test or an operator registered others.
    contacts: context.services.audienceContactSource ?? waterfallAudienceContactSource(context),
    live: context.services.audienceLiveSource ?? networkAudienceLiveSource(context),
    job,
  };
  const steps = stepPlan(deps);
  deps.steps = steps;
  let run = await requireRun(context.db.pool, accountId, runId);
  if (run.status === 'DONE' || run.status === 'FAILED') return;
  if (run.status === 'NOT_STARTED') {
    await context.db.transaction(async (tx) => {
      const locked = await requireRun(tx, accountId, runId, true);
      if (locked.status !== 'NOT_STARTED') return;
      await tx.query(`UPDATE enrichment_runs SET status = 'RUNNING', started_at = now() WHERE account_id = $1 AND id = $2`, [accountId, runId]);
    });
  }
  for (;;) {
    job.checkpoint();
    run = await requireRun(context.db.pool, accountId, runId);
    if (run.status !== 'RUNNING') {
      // The last step queued the completion mail: have it sent now rather than at the next poll.
      wakeWorker(context);
      return;
    }
    const index = run.step_index;
    const step = steps[index] as Step;
    if (!step.enabled(run)) {
      await commit(deps, run, index, async () => ({ cursor: null, done: 0, settled: 0, refund: 0, note: 'switched off by the request' }), 'SKIPPED', () => 0);
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
      run = await requireRun(context.db.pool, accountId, runId);
    }
  }
}

/** PENDING → RUNNING with its start time and size, committed before the step's work so a poller sees what is running. */
async function markRunning(deps: RunDeps, seen: RunRow, index: number, total: number): Promise<void> {
  await deps.context.db.transaction(async (tx) => {
    const run = await requireRun(tx, seen.account_id, seen.id, true);
    const step = run.steps[index];
    if (run.status !== 'RUNNING' || run.step_index !== index || !step || step.status !== 'PENDING') return;
    step.status = 'RUNNING';
    step.startedAt = new Date().toISOString();
    step.total = total;
    await tx.query('UPDATE enrichment_runs SET steps = $3 WHERE account_id = $1 AND id = $2', [run.account_id, run.id, JSON.stringify(run.steps)]);
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
    const run = await requireRun(tx, seen.account_id, seen.id, true);
    if (run.status !== 'RUNNING' || run.step_index !== index || canonicalJson(run.step_cursor) !== canonicalJson(seen.step_cursor)) {
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
      while (next < deps.steps.length && !(deps.steps[next] as Step).enabled(run)) {
        const skipped = run.steps[next] as StepState;
        Object.assign(skipped, { status: 'SKIPPED', startedAt: now, completedAt: now, note: 'switched off by the request' });
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
    return outcome;
  });
}

function stepPlan(deps: RunDeps): Step[] {
  return [
    initialization(),
    salesTool(),
    liveEnrichment(deps),
    resubmitting(),
    cleaningNames(),
    fetchingContacts(deps),
    validatingContacts(),
    exportingCsv(deps),
    completed(),
  ];
}

const single = (work: (tx: pg.PoolClient, run: RunRow) => Promise<Partial<BatchOutcome>>) => async () => async (tx: pg.PoolClient, run: RunRow) => ({
  cursor: null,
  done: 0,
  settled: 0,
  refund: 0,
  ...(await work(tx, run)),
});

function initialization(): Step {
  return {
    enabled: () => true,
    total: () => 1,
    batch: single(async (tx, run) => {
      // The audience is still the one estimated (an audience never leaves NORMAL, but say so if it did).
      const audience = await requireAudience(tx, run.account_id, run.audience_id);
      return { done: 1, note: `${run.prospects_to_enrich} prospects and ${run.companies_to_enrich} companies to enrich in "${audience.name}"` };
    }),
  };
}

/** Sales-tool data: the sales-tool URN of each prospect, derived from its network member id (free). */
function salesTool(): Step {
  return {
    enabled: (run) => run.options.runProfileSalesNav && run.prospects_to_enrich > 0,
    total: (run) => run.prospects_to_enrich,
    batch: async (run, cursor) => {
      const after = Number(cursor?.after ?? 0);
      return async (tx) => {
        const ids = await nextProspectIds(tx, run, after, sqlBatch);
        await tx.query(
          `UPDATE audience_prospects ap SET sales_tool_urn = CASE WHEN p.network_user_id IS NULL THEN NULL
                  ELSE 'urn:network:salesProfile:(' || p.network_user_id || ',NAME_SEARCH)' END
             FROM people p WHERE p.id = ap.person_id AND ap.account_id = $1 AND ap.audience_id = $2 AND ap.person_id = ANY($3::bigint[])`,
          [run.account_id, run.audience_id, ids],
        );
        return { cursor: ids.length < sqlBatch ? null : { after: ids.at(-1) }, done: ids.length, settled: 0, refund: 0 };
      };
    },
  };
}

/**
 * Live fetches, companies then profiles. Records fetched live by an earlier run of this
 * audience in the 24 hours before this run was triggered were not charged and are skipped;
 * for the others, a live answer settles their 2 credits, a fallback to stored data refunds them.
 */
function liveEnrichment(deps: RunDeps): Step {
  const fresh = `make_interval(hours => ${liveFreshHours})`;
  return {
    enabled: (run) => (run.options.runCompanyLiveEnrichment && run.companies_to_enrich > 0) || (run.options.runProfileLiveEnrichment && run.prospects_to_enrich > 0),
    total: (run) => (run.options.runCompanyLiveEnrichment ? run.companies_to_enrich : 0) + (run.options.runProfileLiveEnrichment ? run.prospects_to_enrich : 0),
    batch: async (run, cursor) => {
      const phase = (cursor?.phase as string | undefined) ?? (run.options.runCompanyLiveEnrichment ? 'companies' : 'prospects');
      const after = Number(cursor?.after ?? 0);
      const pool = deps.context.db.pool;
      const params = [run.account_id, run.audience_id, run.prospect_cap_id, after, liveBatch, run.created_at];
      const items =
        phase === 'companies'
          ? await pool.query<{ id: number; charged: boolean }>(
              `SELECT ci.id, (e.live_enriched_at IS NULL OR e.live_enriched_at < $6::timestamptz - ${fresh}) AS charged
                 FROM (SELECT DISTINCT ap.company_id AS id FROM audience_prospects ap JOIN companies c ON c.id = ap.company_id
                        WHERE ${selectedProspects} AND ap.company_id > $4) ci
                 LEFT JOIN audience_enriched_companies e ON e.account_id = $1 AND e.audience_id = $2 AND e.company_id = ci.id
                ORDER BY ci.id LIMIT $5`,
              params,
            )
          : await pool.query<{ id: number; charged: boolean }>(
              `SELECT ap.person_id AS id, (ap.live_enriched_at IS NULL OR ap.live_enriched_at < $6::timestamptz - ${fresh}) AS charged
                 FROM audience_prospects ap WHERE ${selectedProspects} AND ap.person_id > $4 ORDER BY ap.person_id LIMIT $5`,
              params,
            );
      const charged = items.rows.filter((item) => item.charged).map((item) => item.id);
      const live = new Set<number>();
      await forEachLimited(charged, liveConcurrency, async (id) => {
        deps.job.checkpoint();
        try {
          const refreshed = phase === 'companies' ? await deps.live.refreshCompany(id, deps.job.signal) : await deps.live.refreshPerson(id, deps.job.signal);
          if (refreshed) live.add(id);
        } catch (error) {
          // A failed live fetch is the stored-data fallback the spec describes, not a failed run.
          deps.job.log.warn({ err: error, phase, id }, 'live fetch failed; stored data stands');
        }
      });
      deps.job.checkpoint();
      const price = phase === 'companies' ? enrichmentPrices.liveCompany : enrichmentPrices.liveProspect;
      const lastPage = items.rows.length < liveBatch;
      const next =
        !lastPage ? { phase, after: items.rows.at(-1)?.id } : phase === 'companies' && run.options.runProfileLiveEnrichment ? { phase: 'prospects', after: 0 } : null;
      return async (tx) => {
        const ids = [...live];
        if (ids.length && phase === 'companies') {
          await tx.query(
            `INSERT INTO audience_enriched_companies (account_id, audience_id, company_id, live_enriched_at)
             SELECT $1, $2, unnest($3::bigint[]), now()
             ON CONFLICT (account_id, audience_id, company_id) DO UPDATE SET live_enriched_at = EXCLUDED.live_enriched_at`,
            [run.account_id, run.audience_id, ids],
          );
        } else if (ids.length) {
          await tx.query(
            `UPDATE audience_prospects SET live_enriched_at = now() WHERE account_id = $1 AND audience_id = $2 AND person_id = ANY($3::bigint[])`,
            [run.account_id, run.audience_id, ids],
          );
        }
        return {
          cursor: next,
          done: items.rows.length,
          settled: charged.length * price,
          refund: (charged.length - live.size) * price,
        };
      };
    },
  };
}

/** After live profile fetches, a prospect's current company may have changed: the audience follows the catalog. */
function resubmitting(): Step {
  return {
    enabled: (run) => run.options.runProfileLiveEnrichment && run.prospects_to_enrich > 0,
    total: (run) => run.prospects_to_enrich,
    batch: single(async (tx, run) => {
      const moved = await tx.query(
        `UPDATE audience_prospects ap SET company_id = p.company_id FROM people p
          WHERE p.id = ap.person_id AND ${selectedProspects} AND ap.company_id IS DISTINCT FROM p.company_id`,
        [run.account_id, run.audience_id, run.prospect_cap_id],
      );
      return { done: run.prospects_to_enrich, note: `${moved.rowCount ?? 0} prospects changed company` };
    }),
  };
}

function cleaningNames(): Step {
  return {
    enabled: (run) => run.prospects_to_enrich > 0,
    total: (run) => run.prospects_to_enrich,
    batch: async (run, cursor) => {
      const after = Number(cursor?.after ?? 0);
      return async (tx) => {
        const rows = await tx.query<{ id: number; first_name: string; last_name: string }>(
          `SELECT ap.person_id AS id, p.first_name, p.last_name FROM audience_prospects ap JOIN people p ON p.id = ap.person_id
            WHERE ${selectedProspects} AND ap.person_id > $4 ORDER BY ap.person_id LIMIT $5`,
          [run.account_id, run.audience_id, run.prospect_cap_id, after, sqlBatch],
        );
        await tx.query(
          `UPDATE audience_prospects ap SET clean_first_name = n.first, clean_last_name = n.last
             FROM unnest($3::bigint[], $4::text[], $5::text[]) AS n(id, first, last)
            WHERE ap.account_id = $1 AND ap.audience_id = $2 AND ap.person_id = n.id`,
          [run.account_id, run.audience_id, rows.rows.map((r) => r.id), rows.rows.map((r) => cleanName(r.first_name)), rows.rows.map((r) => cleanName(r.last_name))],
        );
        return { cursor: rows.rows.length < sqlBatch ? null : { after: rows.rows.at(-1)?.id }, done: rows.rows.length, settled: 0, refund: 0 };
      };
    },
  };
}

const kinds = [
  { kind: 'workEmails', flag: 'getWorkEmails', column: 'work_emails', price: enrichmentPrices.workEmail },
  { kind: 'personalEmails', flag: 'getPersonalEmails', column: 'personal_emails', price: enrichmentPrices.personalEmail },
  { kind: 'phoneNumbers', flag: 'getPhoneNumbers', column: 'phone_numbers', price: enrichmentPrices.phone },
] as const;

/**
 * Contact lookups through the source (by default the contact-provider waterfall). For each
 * prospect and requested type it does not already hold (those it holds were not charged), the
 * source is asked; a valid value found settles the type's price, nothing found refunds it.
 */
function fetchingContacts(deps: RunDeps): Step {
  return {
    enabled: (run) => run.options.runContactEnrichment && run.prospects_to_enrich > 0,
    total: (run) => run.prospects_to_enrich,
    batch: async (run, cursor) => {
      const after = Number(cursor?.after ?? 0);
      const rows = await deps.context.db.pool.query<{
        id: number; first_name: string; last_name: string; company_name: string | null; company_domain: string | null;
        network_slug: string | null; work_emails: string[]; personal_emails: string[]; phone_numbers: string[];
      }>(
        `SELECT ap.person_id AS id, p.first_name, p.last_name, p.company_name, p.company_domain, p.network_slug,
                ap.work_emails, ap.personal_emails, ap.phone_numbers
           FROM audience_prospects ap JOIN people p ON p.id = ap.person_id
          WHERE ${selectedProspects} AND ap.person_id > $4 ORDER BY ap.person_id LIMIT $5`,
        [run.account_id, run.audience_id, run.prospect_cap_id, after, contactBatch],
      );
      const requested = kinds.filter((k) => run.options.enrichmentType[k.flag]);
      const wanted = rows.rows
        .map((row) => ({ row, types: requested.filter((k) => row[k.column].length === 0) }))
        .filter((entry) => entry.types.length > 0);
      const people: ContactPerson[] = wanted.map(({ row }) => ({
        id: row.id,
        firstName: row.first_name,
        lastName: row.last_name,
        companyName: row.company_name,
        companyDomain: row.company_domain,
        networkSlug: row.network_slug,
        profileUrl: profileUrlOf(row.network_slug),
      }));
      const found = people.length ? await deps.contacts.lookup(people, run.options.enrichmentType, deps.job.signal) : new Map<number, FoundContacts>();
      deps.job.checkpoint();
      let settled = 0;
      let refund = 0;
      const updates: Array<{ id: number; work: string[] | null; personal: string[] | null; phone: string[] | null }> = [];
      for (const { row, types } of wanted) {
        const update = { id: row.id, work: null as string[] | null, personal: null as string[] | null, phone: null as string[] | null };
        for (const type of types) {
          settled += type.price;
          const values = normalise(type.kind, found.get(row.id)?.[type.kind] ?? []);
          if (values.length === 0) {
            refund += type.price;
            continue;
          }
          if (type.kind === 'workEmails') update.work = values;
          else if (type.kind === 'personalEmails') update.personal = values;
          else update.phone = values;
        }
        if (update.work || update.personal || update.phone) updates.push(update);
      }
      return async (tx) => {
        if (updates.length) {
          await tx.query(
            `UPDATE audience_prospects ap SET
                work_emails = coalesce((SELECT array_agg(v) FROM jsonb_array_elements_text(u.work) v), ap.work_emails),
                personal_emails = coalesce((SELECT array_agg(v) FROM jsonb_array_elements_text(u.personal) v), ap.personal_emails),
                phone_numbers = coalesce((SELECT array_agg(v) FROM jsonb_array_elements_text(u.phone) v), ap.phone_numbers)
               FROM jsonb_to_recordset($3::jsonb) AS u(id bigint, work jsonb, personal jsonb, phone jsonb)
              WHERE ap.account_id = $1 AND ap.audience_id = $2 AND ap.person_id = u.id`,
            [run.account_id, run.audience_id, JSON.stringify(updates)],
          );
        }
        return { cursor: rows.rows.length < contactBatch ? null : { after: rows.rows.at(-1)?.id }, done: rows.rows.length, settled, refund };
      };
    },
  };
}

/**
 * Free: re-validates what the audience holds (values revealed by earlier runs included) with the
 * contact-enrichment rules, normalising them and dropping duplicates and invalid values.
 */
function validatingContacts(): Step {
  return {
    enabled: (run) => run.options.runContactEnrichment && run.prospects_to_enrich > 0,
    total: (run) => run.prospects_to_enrich,
    batch: async (run, cursor) => {
      const after = Number(cursor?.after ?? 0);
      return async (tx) => {
        const rows = await tx.query<{ id: number; work_emails: string[]; personal_emails: string[]; phone_numbers: string[] }>(
          `SELECT ap.person_id AS id, ap.work_emails, ap.personal_emails, ap.phone_numbers FROM audience_prospects ap
            WHERE ${selectedProspects} AND ap.person_id > $4 ORDER BY ap.person_id LIMIT $5`,
          [run.account_id, run.audience_id, run.prospect_cap_id, after, sqlBatch],
        );
        const changed = [];
        for (const row of rows.rows) {
          const work = normalise('workEmails', row.work_emails);
          const personal = normalise('personalEmails', row.personal_emails);
          const phone = normalise('phoneNumbers', row.phone_numbers);
          if (canonicalJson([work, personal, phone]) !== canonicalJson([row.work_emails, row.personal_emails, row.phone_numbers])) {
            changed.push({ id: row.id, work, personal, phone });
          }
        }
        if (changed.length) {
          await tx.query(
            `UPDATE audience_prospects ap SET
                work_emails = ARRAY(SELECT jsonb_array_elements_text(u.work)),
                personal_emails = ARRAY(SELECT jsonb_array_elements_text(u.personal)),
                phone_numbers = ARRAY(SELECT jsonb_array_elements_text(u.phone))
               FROM jsonb_to_recordset($3::jsonb) AS u(id bigint, work jsonb, personal jsonb, phone jsonb)
              WHERE ap.account_id = $1 AND ap.audience_id = $2 AND ap.person_id = u.id`,
            [run.account_id, run.audience_id, JSON.stringify(changed)],
          );
        }
        return { cursor: rows.rows.length < sqlBatch ? null : { after: rows.rows.at(-1)?.id }, done: rows.rows.length, settled: 0, refund: 0 };
      };
    },
  };
}

/** Values in their normal form (lowercase emails, phone numbers as +digits), duplicates and invalid values removed. */
function normalise(kind: keyof FoundContacts, values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of values) {
    const value = kind === 'phoneNumbers' ? normalisePhone(raw) : normaliseEmail(raw);
    if (value) out.add(value);
  }
  return [...out];
}

/**
 * With userEmail: a CSV of the enriched prospects for the completion mail, counted against the
 * export quota. Two batches: create the export record, then write the file and mark it READY.
 */
function exportingCsv(deps: RunDeps): Step {
  return {
    enabled: (run) => run.user_email !== null && run.prospects_to_enrich > 0,
    total: () => 1,
    batch: async (run, cursor) => {
      const exportId = cursor?.exportId === undefined ? null : Number(cursor.exportId);
      if (exportId === null) {
        return async (tx) => {
          const audience = await requireAudience(tx, run.account_id, run.audience_id);
          const created = await createRunExport(deps.context, tx, audience, run.id, run.prospect_cap_id);
          if (!created.row) return { cursor: null, done: 1, settled: 0, refund: 0, note: created.note };
          await tx.query('UPDATE enrichment_runs SET export_id = $3 WHERE account_id = $1 AND id = $2', [run.account_id, run.id, created.row.id]);
          return { cursor: { exportId: created.row.id }, done: 0, settled: 0, refund: 0, note: created.note };
        };
      }
      const row = await requireExport(deps.context.db.pool, run.account_id, exportId);
      const written = await writeExportFile(deps.context.db, exportStorageOf(deps.context), row, run.prospect_cap_id, deps.job.checkpoint);
      return async (tx) => {
        await markExportReady(tx, row, written);
        return { cursor: null, done: 1, settled: 0, refund: 0 };
      };
    },
  };
}

/** DONE: anything of the charge not yet accounted for is refunded, and the completion mail is queued. */
function completed(): Step {
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
          subject: `Enrichment of "${audience.name}" is complete`,
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
            exportNote: run.steps[7]?.note ?? null,
          },
        });
      }
      return { cursor: null, done: 1, settled: 0, refund: 0 };
    },
  };
}

async function foundCounts(tx: pg.PoolClient, run: RunRow): Promise<{ workEmails: number; personalEmails: number; phoneNumbers: number }> {
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

async function nextProspectIds(tx: pg.PoolClient, run: RunRow, after: number, limit: number): Promise<number[]> {
  const rows = await tx.query<{ id: number }>(
    `SELECT ap.person_id AS id FROM audience_prospects ap WHERE ${selectedProspects} AND ap.person_id > $4 ORDER BY ap.person_id LIMIT $5`,
    [run.account_id, run.audience_id, run.prospect_cap_id, after, limit],
  );
  return rows.rows.map((r) => r.id);
}

/**
 * The run failed for good: everything of the charge not yet delivered or refunded is refunded
 * (idempotency key `enrichment:<id>:refund:failed`), the run ends FAILED, and with userEmail a
 * mail says so.
 */
export async function failRun(context: AppContext, accountId: number, runId: number, reason: string): Promise<void> {
  await context.db.transaction(async (tx) => {
    const run = await requireRun(tx, accountId, runId, true);
    if (run.status === 'DONE' || run.status === 'FAILED') return;
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
    if (run.export_id !== null) await failExportIn(tx, accountId, run.export_id, 'the enrichment failed before its CSV was written');
    if (run.user_email) {
      const audience = await requireAudience(tx, accountId, run.audience_id);
      await enqueueMail(tx, accountId, {
        to: run.user_email,
        subject: `Enrichment of "${audience.name}" failed`,
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
  wakeWorker(context);
}

export function enrichmentJobExhausted(context: AppContext) {
  return async (job: JobRow, error: string): Promise<void> => {
    const { accountId, runId } = runPayload(job);
    await failRun(context, accountId, runId, `the enrichment stopped after repeated errors (${error.slice(0, 200)}); credits for the work not done were refunded`);
  };
}

function runPayload(job: JobRow): { accountId: number; runId: number } {
  const runId = Number(job.payload.enrichmentId);
  if (job.account_id === null || !Number.isSafeInteger(runId)) throw new Error(`malformed enrichment job ${job.id}`);
  return { accountId: job.account_id, runId };
}

async function forEachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await work(item);
    }
  });
  await Promise.all(workers);
}

