import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, ok, readMail, testEnv, waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Saved searches that watch for new matches, over HTTP: runs by hand and by schedule (the schedule
 * job is made due by moving its run_after), 2 credits per new record and nothing for a run with
 * nothing new, records read back free, the mail, a balance too short, and other accounts.
 */
describe('saved searches', () => {
  let app: TestApp;
  let apiKey: string;
  let accountId: number;
  const mailbox = 'watcher@example.com';
  beforeAll(async () => {
    app = await startTestApp({ env: { ...testEnv, JOB_STEP_DELAY_MS: '150' } });
    const account = await app.createAccount({ credits: 100_000, recipients: [mailbox] });
    apiKey = account.apiKey;
    accountId = account.accountId;
  });
  afterAll(async () => app?.stop());

  const post = (p: string, body: Record<string, unknown>, key = apiKey) =>
    app.request('POST', p, { apiKey: key, ...body });
  const get = (p: string, key = apiKey) => app.request('GET', `${p}${p.includes('?') ? '&' : '?'}apiKey=${key}`);

  async function runToEnd(
    savedSearchId: string,
    body: Record<string, unknown> = {},
    key = apiKey,
  ): Promise<Record<string, any>> {
    const started = await post(`/v1/saved-searches/${savedSearchId}/runs`, body, key);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body.output.status).toBe('QUEUED');
    expect(started.body.chargeInfo.method).toBe('charging-later');
    return waitFor('the run', async () => {
      const run = ok(await get(`/v1/saved-searches/${savedSearchId}/runs/${started.body.output.runId}`, key)).body
        .output;
      return run.status === 'DONE' || run.status === 'FAILED' ? run : null;
    });
  }

  async function allRecords(
    savedSearchId: string,
    runId: string,
    onlyNew: boolean,
  ): Promise<Array<Record<string, any>>> {
    const records: Array<Record<string, any>> = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page++) {
      const response = ok(
        await get(
          `/v1/saved-searches/${savedSearchId}/runs/${runId}/records?onlyNew=${onlyNew}&pageSize=7${cursor ? `&cursor=${cursor}` : ''}`,
        ),
      );
      records.push(...response.body.output.data);
      cursor = response.body.output.nextCursor;
      if (!cursor) return records;
    }
    throw new Error('paging did not end');
  }

  it('delivers new records in catalog order, 2 credits each, then nothing new for nothing', async () => {
    const matching = (
      await app.db.pool.query<{ id: number }>(
        `SELECT id FROM companies WHERE country_code = 'DE' AND employee_count_min >= 51 ORDER BY id`,
      )
    ).rows.map((r) => String(r.id));
    expect(matching.length).toBeGreaterThan(12);
    const created = await post('/v1/saved-searches', {
      name: 'German mid-size',
      kind: 'companies',
      companySearchParams: { headquartersCountryCode: ['DE'], employeeCountV2: { min: 51 } },
      maxNewRecordsPerRun: 5,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.output).toMatchObject({
      kind: 'companies',
      schedule: 'manual',
      nextRunAt: null,
      maxNewRecordsPerRun: 5,
    });
    expect(created.body.chargeInfo.method).toBe('charging-later');
    const id = created.body.output.savedSearchId;

    const before = await balanceOf(app, apiKey);
    const first = await runToEnd(id, { maxNewRecords: 10 });
    expect(first).toMatchObject({
      status: 'DONE',
      trigger: 'manual',
      newRecords: 10,
      moreNew: true,
      creditsCharged: 20,
      matched: matching.length,
      matchedExact: true,
    });
    expect(await balanceOf(app, apiKey)).toBe(before - 20);
    const firstRecords = await allRecords(id, first.runId, true);
    expect(firstRecords.map((r) => r.company.last_sort_key)).toEqual(matching.slice(0, 10));
    expect(firstRecords.every((r) => r.isNew && r.person === null)).toBe(true);

    // The rest, then nothing: a run that finds nothing new costs nothing.
    const second = await runToEnd(id, { maxNewRecords: 1000 });
    expect(second).toMatchObject({
      status: 'DONE',
      newRecords: matching.length - 10,
      moreNew: false,
      creditsCharged: 2 * (matching.length - 10),
    });
    const whole = await allRecords(id, second.runId, false);
    expect(whole.map((r) => r.company.last_sort_key)).toEqual(matching);
    expect(whole.filter((r) => r.isNew).map((r) => r.company.last_sort_key)).toEqual(matching.slice(10));
    const afterTwo = await balanceOf(app, apiKey);
    const third = await runToEnd(id);
    expect(third).toMatchObject({ status: 'DONE', newRecords: 0, moreNew: false, creditsCharged: 0 });
    expect(await balanceOf(app, apiKey)).toBe(afterTwo);
    expect(await allRecords(id, third.runId, true)).toEqual([]);

    const ledger = await app.db.pool.query<{ amount: number; idempotency_key: string }>(
      `SELECT amount, idempotency_key FROM credit_ledger WHERE account_id = $1 AND unit = 'savedSearchNewRecord' ORDER BY id`,
      [accountId],
    );
    expect(ledger.rows).toEqual([
      { amount: -20, idempotency_key: `saved-search-run:${first.runId}` },
      { amount: -2 * (matching.length - 10), idempotency_key: `saved-search-run:${second.runId}` },
    ]);
    const runs = ok(await get(`/v1/saved-searches/${id}/runs`)).body.output.data.map((r: { runId: string }) => r.runId);
    expect(runs).toEqual([third.runId, second.runId, first.runId]);
    expect(ok(await get(`/v1/saved-searches/${id}`)).body.output.latestRun).toMatchObject({
      runId: third.runId,
      newRecords: 0,
    });
  });

  it('finds a record that starts to match later, and mails what is new to userEmail', async () => {
    const name = 'Watchtower Zeta Instruments';
    const created = ok(
      await post('/v1/saved-searches', {
        name: 'zeta',
        kind: 'companies',
        companySearchParams: { nameLike: 'Watchtower Zeta' },
        userEmail: mailbox,
      }),
    ).body.output;
    expect(await runToEnd(created.savedSearchId)).toMatchObject({ newRecords: 0, creditsCharged: 0 });
    const { rows } = await app.db.pool.query<{ id: number }>(
      `INSERT INTO companies (id, preferred_name, domains, country_code) SELECT max(id) + 1, $1, ARRAY['watchtower-zeta.example'], 'US' FROM companies RETURNING id`,
      [name],
    );
    const run = await runToEnd(created.savedSearchId);
    expect(run).toMatchObject({ newRecords: 1, creditsCharged: 2, matched: 1 });
    expect((await allRecords(created.savedSearchId, run.runId, true)).map((r) => r.company.preferred_name)).toEqual([
      name,
    ]);
    expect(String(rows[0]?.id)).toBe(
      (await allRecords(created.savedSearchId, run.runId, true))[0]?.company.last_sort_key,
    );

    const outbox = path.join(app.dataDir, 'outbox');
    const mail = await waitFor('the mail', async () => {
      for (const file of (await readdir(outbox).catch(() => [])).filter((f) => f.endsWith('.eml'))) {
        const message = readMail(await readFile(path.join(outbox, file), 'utf8'));
        if (message.text.includes(name)) return message;
      }
      return null;
    });
    expect(mail.headers.to).toContain(mailbox);
    expect(mail.headers.subject).toBe(`Your saved search ${created.savedSearchId} found 1 new companies`);
    expect(mail.text).toContain(`- ${name} (watchtower-zeta.example)`);
  });

  it('runs people searches with currentCompanies and lists, and starts scheduled runs from the job table', async () => {
    const company = (
      await app.db.pool.query<{ domain: string; id: number }>(
        `SELECT c.domains[1] AS domain, c.id FROM companies c WHERE cardinality(c.domains) > 0 AND (SELECT count(*) FROM people p WHERE p.company_id = c.id) BETWEEN 3 AND 30 ORDER BY c.id LIMIT 1`,
      )
    ).rows[0] as { domain: string; id: number };
    const people = (
      await app.db.pool.query<{ id: number; network_slug: string }>(
        'SELECT id, network_slug FROM people WHERE company_id = $1 ORDER BY id',
        [company.id],
      )
    ).rows;
    const skip = ok(
      await post('/v1/exclusion-lists', {
        name: 'skip first',
        kind: 'prospects',
        prospects: [people[0]?.network_slug],
      }),
    ).body.output.exclusionListId;
    const created = ok(
      await post('/v1/saved-searches', {
        name: 'people at a company',
        kind: 'people',
        peopleSearchParams: {},
        currentCompanies: [{ domain: company.domain }],
        prospectExclusionListIDs: [skip],
        schedule: 'daily',
      }),
    ).body.output;
    const dueAt = created.nextRunAt as string;
    expect(Date.parse(dueAt) - Date.now()).toBeGreaterThan(23 * 3600_000);
    const jobs = async () =>
      (
        await app.db.pool.query<{ id: number; status: string; payload: { dueAt: string } }>(
          `SELECT id, status, payload FROM jobs WHERE kind = 'saved-search.schedule' AND payload->>'savedSearchId' = $1 ORDER BY id`,
          [created.savedSearchId],
        )
      ).rows;
    expect((await jobs()).map((j) => [j.status, j.payload.dueAt])).toEqual([['queued', dueAt]]);

    // The day has come: the job is due now.
    await app.db.pool.query(
      `UPDATE jobs SET run_after = now() WHERE kind = 'saved-search.schedule' AND payload->>'savedSearchId' = $1`,
      [created.savedSearchId],
    );
    const run = await waitFor('the scheduled run', async () => {
      const runs = ok(await get(`/v1/saved-searches/${created.savedSearchId}/runs`)).body.output.data;
      return runs[0]?.status === 'DONE' ? runs[0] : null;
    });
    expect(run).toMatchObject({ trigger: 'schedule', newRecords: people.length - 1 });
    const records = await allRecords(created.savedSearchId, run.runId, true);
    expect(records.map((r) => r.person.network_slug)).toEqual(people.slice(1).map((p) => p.network_slug));
    const after = ok(await get(`/v1/saved-searches/${created.savedSearchId}`)).body.output;
    expect(Date.parse(after.nextRunAt)).toBe(Date.parse(dueAt) + 24 * 3600_000);
    expect((await jobs()).map((j) => [j.status, j.payload.dueAt])).toEqual([
      ['succeeded', dueAt],
      ['queued', after.nextRunAt],
    ]);

    // Back to manual: the job queued for the next day finds the schedule moved and starts nothing.
    const manual = ok(
      await app.request('PATCH', `/v1/saved-searches/${created.savedSearchId}`, { apiKey, schedule: 'manual' }),
    ).body.output;
    expect(manual.nextRunAt).toBeNull();
    await app.db.pool.query(
      `UPDATE jobs SET run_after = now() WHERE kind = 'saved-search.schedule' AND status = 'queued' AND payload->>'savedSearchId' = $1`,
      [created.savedSearchId],
    );
    await waitFor('the stale job', async () => (await jobs()).every((j) => j.status === 'succeeded'));
    expect(ok(await get(`/v1/saved-searches/${created.savedSearchId}/runs`)).body.output.data).toHaveLength(1);
  });

  it('fails a run the balance cannot pay, charging and delivering nothing; the next run finds the records again', async () => {
    const poor = await app.createAccount({ credits: 3 });
    const created = ok(
      await post(
        '/v1/saved-searches',
        { name: 'poor', kind: 'companies', companySearchParams: { headquartersCountryCode: ['FR'] } },
        poor.apiKey,
      ),
    ).body.output;
    const failed = await runToEnd(created.savedSearchId, { maxNewRecords: 2 }, poor.apiKey);
    expect(failed).toMatchObject({ status: 'FAILED', creditsCharged: 0, newRecords: null });
    expect(failed.failureReason).toMatch(/insufficient credits: .* 4 credits, and the balance was 3/);
    expect(await balanceOf(app, poor.apiKey)).toBe(3);
    const retried = await runToEnd(created.savedSearchId, { maxNewRecords: 1 }, poor.apiKey);
    expect(retried).toMatchObject({ status: 'DONE', newRecords: 1, creditsCharged: 2 });
    expect(await balanceOf(app, poor.apiKey)).toBe(1);
  });

  it('runs one at a time per saved search', async () => {
    const created = ok(
      await post('/v1/saved-searches', {
        name: 'one at a time',
        kind: 'companies',
        companySearchParams: { headquartersCountryCode: ['GB'] },
      }),
    ).body.output;
    const first = await post(`/v1/saved-searches/${created.savedSearchId}/runs`, { maxNewRecords: 1 });
    expect(first.status).toBe(202);
    const second = await post(`/v1/saved-searches/${created.savedSearchId}/runs`, { maxNewRecords: 1 });
    expect(second.status).toBe(400);
    expect(second.body.error).toMatchObject({ code: 'invalid_state', details: { runId: first.body.output.runId } });
  });

  it('updates only what is given and deletes with its runs, records and schedule', async () => {
    const created = ok(
      await post('/v1/saved-searches', {
        name: 'to change',
        kind: 'companies',
        companySearchParams: { headquartersCountryCode: ['ES'] },
        schedule: 'weekly',
      }),
    ).body.output;
    const updated = ok(
      await app.request('PATCH', `/v1/saved-searches/${created.savedSearchId}`, {
        apiKey,
        name: 'changed',
        maxNewRecordsPerRun: 7,
      }),
    ).body.output;
    expect(updated).toMatchObject({
      name: 'changed',
      maxNewRecordsPerRun: 7,
      schedule: 'weekly',
      searchParams: { headquartersCountryCode: ['ES'] },
      nextRunAt: created.nextRunAt,
    });
    const refiltered = ok(
      await app.request('PATCH', `/v1/saved-searches/${created.savedSearchId}`, {
        apiKey,
        companySearchParams: { headquartersCountryCode: ['PT'] },
      }),
    ).body.output;
    expect(refiltered.searchParams).toEqual({ headquartersCountryCode: ['PT'] });
    await runToEnd(created.savedSearchId, { maxNewRecords: 2 });
    const deleted = await app.request('DELETE', `/v1/saved-searches/${created.savedSearchId}?apiKey=${apiKey}`);
    expect(deleted.body.output).toEqual({ savedSearchId: created.savedSearchId, deleted: true });
    expect((await get(`/v1/saved-searches/${created.savedSearchId}`)).status).toBe(404);
    for (const table of ['saved_search_runs', 'saved_search_records']) {
      expect(
        (await app.db.pool.query(`SELECT 1 FROM ${table} WHERE saved_search_id = $1`, [Number(created.savedSearchId)]))
          .rowCount,
      ).toBe(0);
    }
    const schedule = await app.db.pool.query<{ status: string }>(
      `SELECT status FROM jobs WHERE kind = 'saved-search.schedule' AND payload->>'savedSearchId' = $1`,
      [created.savedSearchId],
    );
    expect(schedule.rows.map((r) => r.status)).toEqual(['failed']);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x', kind: 'companies', peopleSearchParams: {} }, 'peopleSearchParams'],
      [{ name: 'x', kind: 'companies' }, 'companySearchParams'],
      [{ name: 'x', kind: 'people', peopleSearchParams: {}, companySearchParams: {} }, 'companySearchParams'],
      [
        { name: 'x', kind: 'companies', companySearchParams: {}, currentCompanies: [{ domain: 'a.example' }] },
        'currentCompanies',
      ],
      [{ name: 'x', kind: 'companies', companySearchParams: {}, schedule: 'hourly' }, 'schedule'],
      [{ name: 'x', kind: 'companies', companySearchParams: {}, maxNewRecordsPerRun: 5000 }, 'maxNewRecordsPerRun'],
      [{ name: 'x', kind: 'companies', companySearchParams: {}, userEmail: 'stranger@elsewhere.example' }, 'userEmail'],
      [{ name: 'x', kind: 'animals', companySearchParams: {} }, 'kind'],
    ];
    for (const [body, field] of cases) {
      const response = await post('/v1/saved-searches', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(
        response.body.error.details.issues.map((i: { field: string }) => i.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const created = ok(await post('/v1/saved-searches', { name: 'ok', kind: 'companies', companySearchParams: {} }))
      .body.output;
    const tooMany = await post(`/v1/saved-searches/${created.savedSearchId}/runs`, { maxNewRecords: 0 });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.issues[0].field).toBe('maxNewRecords');
  });

  it("answers 404 for another account's saved search, runs and records", async () => {
    const other = await app.createAccount();
    const theirs = ok(
      await post(
        '/v1/saved-searches',
        { name: 'theirs', kind: 'companies', companySearchParams: { headquartersCountryCode: ['IT'] } },
        other.apiKey,
      ),
    ).body.output;
    const run = await runToEnd(theirs.savedSearchId, { maxNewRecords: 1 }, other.apiKey);
    const id = theirs.savedSearchId;
    expect((await get(`/v1/saved-searches/${id}`)).status).toBe(404);
    expect((await app.request('PATCH', `/v1/saved-searches/${id}`, { apiKey, name: 'mine now' })).status).toBe(404);
    expect((await post(`/v1/saved-searches/${id}/runs`, {})).status).toBe(404);
    expect((await get(`/v1/saved-searches/${id}/runs`)).status).toBe(404);
    expect((await get(`/v1/saved-searches/${id}/runs/${run.runId}`)).status).toBe(404);
    expect((await get(`/v1/saved-searches/${id}/runs/${run.runId}/records`)).status).toBe(404);
    expect((await app.request('DELETE', `/v1/saved-searches/${id}?apiKey=${apiKey}`)).status).toBe(404);
    expect(ok(await get(`/v1/saved-searches/${id}`, other.apiKey)).body.output.name).toBe('theirs');
    // A list of another account in the filters is a 404 too.
    const list = ok(
      await post('/v1/exclusion-lists', { name: 'theirs', kind: 'companies', companies: [] }, other.apiKey),
    ).body.output.exclusionListId;
    expect(
      (
        await post('/v1/saved-searches', {
          name: 'x',
          kind: 'companies',
          companySearchParams: {},
          companyExclusionListIDs: [list],
        })
      ).status,
    ).toBe(404);
  });
});
