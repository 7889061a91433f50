import { access } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.js';
import { startJobWorker, type JobWorker } from '../../src/worker/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { balanceOf, buildAudience, ok, testEnv, waitFor, waitForExport } from './helpers.js';

/**
 * Deleting an audience: a running build or enrichment is cancelled through the job queue (its job
 * ends, nothing more is charged, an enrichment refunds what it had not delivered), export files
 * are deleted and their links answer 410, and the ledger keeps every entry. JOB_STEP_DELAY_MS
 * slows builds and enrichments enough to delete them mid-way. The job worker is the test's own, so
 * that it can wait for a cancelled job's attempt to end (`settled`) before looking for writes.
 */
describe('deleting an audience', () => {
  let app: TestApp;
  let worker: JobWorker<AppContext>;
  let accountId: number;
  let apiKey: string;
  beforeAll(async () => {
    app = await startTestApp({
      env: { ...testEnv, JOB_STEP_DELAY_MS: '400', JOB_LEASE_SECONDS: '2', JOB_WORKER: 'false' },
    });
    worker = startJobWorker(app.service.context);
    const account = await app.createAccount({ credits: 100_000 });
    accountId = account.accountId;
    apiKey = account.apiKey;
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.stop();
  });

  const ledger = async () =>
    (
      await app.db.pool.query<{ id: number; amount: number; reference: string | null }>(
        'SELECT id, amount, reference FROM credit_ledger WHERE account_id = $1 ORDER BY id',
        [accountId],
      )
    ).rows;
  const remove = (audienceId: string, key = apiKey) =>
    app.request('DELETE', `/v1/audiences/${audienceId}?apiKey=${key}`);
  const jobsOf = async (kind: string, field: string, value: string) =>
    (
      await app.db.pool.query<{ status: string; last_error: string | null }>(
        `SELECT status, last_error FROM jobs WHERE kind = $1 AND payload->>$2 = $3`,
        [kind, field, value],
      )
    ).rows;
  /** Once the worker runs no attempt of these jobs: a cancelled attempt goes on to its next checkpoint. */
  const attemptsEnded = async (kind: string, field: string, value: string) => {
    const ids = await app.db.pool.query<{ id: number }>(`SELECT id FROM jobs WHERE kind = $1 AND payload->>$2 = $3`, [
      kind,
      field,
      value,
    ]);
    expect(ids.rowCount).toBeGreaterThan(0);
    await Promise.all(ids.rows.map((row) => worker.settled(Number(row.id))));
  };

  it('deletes a DRAFT audience: gone from every read, 404 after', async () => {
    const id = ok(await app.request('POST', '/v1/audiences/create', { apiKey, name: 'draft to delete' })).body.output
      .audienceId;
    const deleted = await remove(id);
    expect(deleted.status).toBe(200);
    expect(deleted.body.output).toEqual({
      audienceId: id,
      deleted: true,
      cancelled: { build: false, enrichmentId: null },
      refundedCredits: 0,
      exportsDeleted: 0,
    });
    expect(deleted.body.chargeInfo).toEqual({ method: 'free' });
    expect((await app.request('GET', `/v1/audiences/${id}?apiKey=${apiKey}`)).status).toBe(404);
    expect((await remove(id)).status).toBe(404);
    const listed = ok(await app.request('GET', `/v1/audiences?apiKey=${apiKey}`)).body.output.data.map(
      (a: { audienceId: string }) => a.audienceId,
    );
    expect(listed).not.toContain(id);
  });

  it('cancels a running build: its job ends, nothing is charged, no members are left', async () => {
    const id = ok(await app.request('POST', '/v1/audiences/create', { apiKey, name: 'building' })).body.output
      .audienceId;
    ok(
      await app.request('PATCH', `/v1/audiences/${id}/search-params`, {
        apiKey,
        companySearchParams: { headquartersCountryCode: ['US'] },
        maxCompanies: 50,
        maxProspects: 200,
      }),
    );
    const before = await balanceOf(app, apiKey);
    const entries = (await ledger()).length;
    ok(await app.request('POST', `/v1/audiences/${id}/build`, { apiKey }));
    await waitFor(
      'the companies step',
      async () =>
        (
          await app.db.pool.query(
            `SELECT 1 FROM jobs WHERE kind = 'audience.build' AND payload->>'audienceId' = $1 AND progress->>'step' = 'companies'`,
            [id],
          )
        ).rowCount,
    );
    const deleted = ok(await remove(id)).body.output;
    expect(deleted.cancelled).toEqual({ build: true, enrichmentId: null });
    expect(await jobsOf('audience.build', 'audienceId', id)).toEqual([
      { status: 'failed', last_error: `cancelled: audience ${id} was deleted` },
    ]);
    // Its attempt ends at its next checkpoint; it must not have charged or written on the way.
    await attemptsEnded('audience.build', 'audienceId', id);
    expect(await balanceOf(app, apiKey)).toBe(before);
    expect((await ledger()).length).toBe(entries);
    const members = await app.db.pool.query(
      'SELECT 1 FROM audience_companies WHERE account_id = $1 AND audience_id = $2 UNION ALL SELECT 1 FROM audience_prospects WHERE account_id = $1 AND audience_id = $2',
      [accountId, Number(id)],
    );
    expect(members.rowCount).toBe(0);
    expect(await jobsOf('audience.build', 'audienceId', id)).toEqual([
      { status: 'failed', last_error: `cancelled: audience ${id} was deleted` },
    ]);
  });

  it('cancels a running enrichment: what it delivered stays charged, the rest is refunded, the ledger keeps every entry', async () => {
    const { audienceId } = await buildAudience(app, apiKey, {
      filters: {
        companySearchParams: { headquartersCountryCode: ['US'] },
        prospectSearchParams: {},
        maxCompanies: 20,
        maxProspects: 40,
      },
    });
    const options = {
      runContactEnrichment: true,
      runProfileLiveEnrichment: true,
      enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: true },
    };
    ok(await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey, ...options }));
    const trigger = ok(await app.request('POST', `/v1/audiences/${audienceId}/enrich`, { apiKey, ...options })).body
      .output;
    const runId = Number(trigger.enrichmentId);
    await waitFor('the enrichment to be under way', async () => {
      const run = (
        await app.db.pool.query<{ step_index: number }>(
          'SELECT step_index FROM enrichment_runs WHERE account_id = $1 AND id = $2',
          [accountId, runId],
        )
      ).rows[0];
      return run && run.step_index >= 2;
    });
    const settled = (
      await app.db.pool.query<{ settled_credits: number }>(
        'SELECT settled_credits FROM enrichment_runs WHERE account_id = $1 AND id = $2',
        [accountId, runId],
      )
    ).rows[0]?.settled_credits as number;
    const entriesBefore = await ledger();
    const deleted = ok(await remove(audienceId)).body.output;
    expect(deleted.cancelled).toEqual({ build: false, enrichmentId: String(runId) });
    expect(deleted.refundedCredits).toBeGreaterThan(0);
    expect(deleted.refundedCredits).toBeLessThanOrEqual(trigger.estimatedCredits - settled);
    const entriesAfter = await ledger();
    // Every earlier entry is still there; the one new entry is the refund.
    expect(entriesAfter.slice(0, entriesBefore.length)).toEqual(entriesBefore);
    expect(entriesAfter.slice(entriesBefore.length)).toEqual([
      { id: expect.any(Number), amount: deleted.refundedCredits, reference: `enrichment:${runId}` },
    ]);
    const charged = entriesAfter
      .filter((e) => e.reference === `enrichment:${runId}`)
      .reduce((sum, e) => sum + e.amount, 0);
    expect(charged).toBeLessThanOrEqual(0);
    await attemptsEnded('audience.enrichment', 'enrichmentId', String(runId));
    expect(await ledger()).toEqual(entriesAfter);
    expect(await jobsOf('audience.enrichment', 'enrichmentId', String(runId))).toEqual([
      { status: 'failed', last_error: `cancelled: audience ${audienceId} was deleted` },
    ]);
    expect(
      (await app.db.pool.query('SELECT 1 FROM enrichment_runs WHERE account_id = $1 AND id = $2', [accountId, runId]))
        .rowCount,
    ).toBe(0);
  });

  it('deletes export files: their links answer 410, the file is gone', async () => {
    const { audienceId } = await buildAudience(app, apiKey, {
      filters: { companySearchParams: { headquartersCountryCode: ['DE'] }, maxCompanies: 10, maxProspects: 10 },
    });
    const exportId = ok(await app.request('POST', `/v1/audiences/${audienceId}/export/companies`, { apiKey })).body
      .output.exportId;
    const ready = await waitForExport(app, apiKey, audienceId, exportId);
    expect(ready.status).toBe('READY');
    expect((await fetch(ready.downloadUrl as string)).status).toBe(200);
    const file = path.join(app.dataDir, 'exports', String(accountId), `${exportId}.csv`);
    await access(file);
    const deleted = ok(await remove(audienceId)).body.output;
    expect(deleted.exportsDeleted).toBe(1);
    const gone = await fetch(ready.downloadUrl as string);
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'gone',
      message: expect.stringContaining('audience was deleted'),
    });
    await waitFor('the file to be removed', async () =>
      access(file).then(
        () => false,
        () => true,
      ),
    );
    expect((await app.request('GET', `/v1/audiences/${audienceId}/exports/${exportId}?apiKey=${apiKey}`)).status).toBe(
      404,
    );
  });

  it("answers 404 for another account's audience and deletes nothing", async () => {
    const other = await app.createAccount();
    const theirs = ok(await app.request('POST', '/v1/audiences/create', { apiKey: other.apiKey, name: 'not yours' }))
      .body.output.audienceId;
    expect((await remove(theirs)).status).toBe(404);
    expect(ok(await app.request('GET', `/v1/audiences/${theirs}?apiKey=${other.apiKey}`)).body.output.name).toBe(
      'not yours',
    );
    const bad = await remove('not-a-number');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.issues[0].field).toBe('audienceId');
  });
});
