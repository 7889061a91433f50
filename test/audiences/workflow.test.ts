import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrichmentSteps } from '../../operations/schemas/audiences.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { balanceOf, csvObjects, ok, readMail, testEnv, waitFor, waitForEnrichment, waitForExport } from './helpers.js';

/**
 * The whole audience workflow through HTTP, for both creation methods, checked against SQL
 * written here by hand (not through the service's filter compiler) on the seeded catalog.
 */
describe('audience workflow over HTTP', () => {
  let app: TestApp;
  let apiKey: string;
  let accountId: number;

  beforeAll(async () => {
    app = await startTestApp({ env: testEnv });
    ({ apiKey, accountId } = await app.createAccount({ credits: 50_000, email: 'owner@example.com' }));
  });
  afterAll(async () => {
    await app?.stop();
  });

  const sql = async <T>(text: string, params: unknown[] = []): Promise<T[]> =>
    (await app.db.pool.query(text, params)).rows as T[];
  const ids = (rows: Array<{ id: number }>): number[] => rows.map((r) => Number(r.id));

  async function pageAll(pathBase: string): Promise<Array<Record<string, unknown>>> {
    const all: Array<Record<string, unknown>> = [];
    let cursor: string | null = null;
    do {
      const response = ok(
        await app.request(
          'GET',
          `${pathBase}?apiKey=${apiKey}&pageSize=37${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        ),
      );
      all.push(...(response.body.output.data as Array<Record<string, unknown>>));
      cursor = response.body.output.nextCursor as string | null;
    } while (cursor);
    return all;
  }

  async function downloadCsv(link: string): Promise<string> {
    expect(link.startsWith(app.url)).toBe(true);
    const response = await fetch(link);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    return response.text();
  }

  it('NORMAL: build, pay once, enrich through the nine steps, export and read the CSVs back', async () => {
    // --- create and set filters
    const created = ok(await app.request('POST', '/v1/audiences/create', { apiKey, name: 'US software managers' }));
    expect(created.body.chargeInfo).toEqual({ method: 'free', message: expect.any(String) });
    const audience = created.body.output;
    expect(audience).toMatchObject({ status: 'DRAFT', creationMethod: 'NORMAL', name: 'US software managers' });
    expect(audience.audienceSearchLogicId).toMatch(/^\d+$/);
    expect(new Date(audience.createdAt).toISOString()).toBe(audience.createdAt);
    const id = audience.audienceId as string;

    const filters = {
      companySearchParams: { headquartersCountryCode: ['US'], industriesV2: ['software-development'] },
      prospectSearchParams: { jobTitleV2: { included: ['manager', 'sales'], excluded: ['assistant'] } },
      maxCompanies: 40,
      maxProspects: 5000,
    };
    const patched = ok(await app.request('PATCH', `/v1/audiences/${id}/search-params`, { apiKey, ...filters }));
    expect(patched.body.output).toMatchObject({
      audienceId: id,
      audienceSearchLogicId: audience.audienceSearchLogicId,
      maxCompanies: 40,
      maxProspects: 5000,
    });
    expect(patched.body.output.companySearchParams).toEqual(filters.companySearchParams);

    const allMatching = ids(
      await sql(
        `SELECT id FROM companies WHERE country_code = 'US' AND standard_industries && ARRAY['software-development'] ORDER BY id`,
      ),
    );
    expect(allMatching.length).toBeGreaterThan(40); // so the cap is exercised
    const expectedCompanies = allMatching.slice(0, 40);
    const expectedProspects = ids(
      await sql(
        `SELECT id FROM people WHERE company_id = ANY($1::bigint[]) AND (title_words LIKE '% manager %' OR title_words LIKE '% sales %')
            AND title_words NOT LIKE '% assistant %' ORDER BY id`,
        [expectedCompanies],
      ),
    );
    expect(expectedProspects.length).toBeGreaterThan(20);

    // --- what a build would charge, counted free before it runs, and charged after
    const draft = ok(await app.request('GET', `/v1/audiences/${id}?apiKey=${apiKey}`));
    expect(draft.body.chargeInfo.method).toBe('free');
    expect(draft.body.output).toMatchObject({
      status: 'DRAFT',
      buildWorstCaseCredits: 40 + 5000,
      buildExpectedCredits: 40 + expectedProspects.length,
    });

    // --- build
    const before = await balanceOf(app, apiKey);
    const build = ok(await app.request('POST', `/v1/audiences/${id}/build`, { apiKey }));
    expect(build.body.output).toMatchObject({ audienceId: id, status: 'BUILDING' });
    expect(build.body.chargeInfo.method).toBe('charging-later');
    const built = await waitFor('NORMAL', async () => {
      const status = ok(await app.request('GET', `/v1/audiences/${id}?apiKey=${apiKey}`)).body.output;
      return status.status === 'BUILDING' ? null : status;
    });
    expect(built).toMatchObject({
      status: 'NORMAL',
      numCompanies: 40,
      numProspects: expectedProspects.length,
      failureReason: null,
    });
    const cost = 40 + expectedProspects.length;
    expect(await balanceOf(app, apiKey)).toBe(before - cost);
    expect(built.buildExpectedCredits).toBeNull();
    const buildCharges = await sql<{ amount: number }>(
      `SELECT amount FROM credit_ledger WHERE account_id = $1 AND idempotency_key = $2`,
      [accountId, `audience-build:${id}`],
    );
    expect(buildCharges).toEqual([{ amount: -cost }]);

    // --- the records, paged
    const companies = await pageAll(`/v1/audiences/${id}/companies`);
    expect(companies.map((c) => Number(c.last_sort_key))).toEqual(expectedCompanies);
    const prospects = await pageAll(`/v1/audiences/${id}/prospects`);
    expect(prospects.map((p) => Number(p.last_sort_key))).toEqual(expectedProspects);
    expect(prospects[0]?.contacts).toEqual({ workEmails: [], personalEmails: [], phoneNumbers: [] });

    // --- estimate
    const options = {
      maxProspectsToEnrich: 20,
      enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: true },
      runContactEnrichment: true,
      runProfileSalesNav: true,
      runCompanyLiveEnrichment: true,
      runProfileLiveEnrichment: true,
    };
    const enriched = expectedProspects.slice(0, 20);
    const companiesOfEnriched = (
      await sql<{ n: number }>(`SELECT count(DISTINCT company_id)::int AS n FROM people WHERE id = ANY($1::bigint[])`, [
        enriched,
      ])
    )[0]?.n as number;
    const estimate = ok(await app.request('POST', `/v1/audiences/${id}/enrichment/estimate`, { apiKey, ...options }));
    expect(estimate.body.chargeInfo.method).toBe('free');
    const e = estimate.body.output;
    expect(e.prospectsToEnrich).toBe(20);
    expect(e.companiesToEnrich).toBe(companiesOfEnriched);
    expect(e.breakdown).toEqual({
      salesNav: { credits: 0, isFree: true },
      liveCompany: { credits: 2 * companiesOfEnriched, discounted: false },
      liveProspect: { credits: 40, discounted: false },
      waterfall: {
        credits: 20 * 5,
        originalCredits: 20 * 5,
        discount: 0,
        operations: { workEmail: 40, personalEmail: 0, phone: 60 },
      },
      validation: { credits: 0, isFree: true },
    });
    const total = 2 * companiesOfEnriched + 40 + 100;
    expect(e.totalCredits).toBe(total);
    expect(e.timeEstimate.totalSeconds).toBeGreaterThan(0);
    expect(e.timeEstimate.formatted).toMatch(/^about \d+ (second|minute)/);

    // --- the trigger must repeat the estimate
    const mismatch = await app.request('POST', `/v1/audiences/${id}/enrich`, {
      apiKey,
      ...options,
      maxProspectsToEnrich: 21,
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.message).toMatch(/No estimate with these values/);
    expect(await balanceOf(app, apiKey)).toBe(before - cost);

    const beforeEnrichment = await balanceOf(app, apiKey);
    const trigger = ok(
      await app.request('POST', `/v1/audiences/${id}/enrich`, { apiKey, ...options, userEmail: 'owner@example.com' }),
    );
    expect(trigger.body.output).toMatchObject({ status: 'NOT_STARTED', estimatedCredits: total });
    expect(trigger.body.chargeInfo).toMatchObject({ method: 'charged-now', creditsCharged: total });

    const seen: Array<Record<string, unknown>> = [];
    const done = await waitForEnrichment(app, apiKey, id, seen);
    expect(done).toMatchObject({
      status: 'DONE',
      currentStage: 'DONE',
      progressPercent: 100,
      currentStep: null,
      stepsRemaining: [],
    });
    expect(done.stepsCompleted).toEqual([...enrichmentSteps]);
    expect(new Date(done.completedAt as string).getTime()).toBeGreaterThanOrEqual(
      new Date(done.createdAt as string).getTime(),
    );
    const steps = done.steps as Array<{ name: string; status: string }>;
    expect(steps.map((s) => [s.name, s.status])).toEqual([
      ['Initialization', 'COMPLETED'],
      ['Sales Tool Enrichment', 'COMPLETED'],
      ['Live Enrichment', 'COMPLETED'],
      ['Resubmitting Audience', 'COMPLETED'],
      ['Cleaning Names', 'COMPLETED'],
      ['Fetching Contact Details', 'COMPLETED'],
      ['Validating Contact Details', 'COMPLETED'],
      ['Exporting CSV', 'COMPLETED'],
      ['Completed', 'COMPLETED'],
    ]);
    for (const status of seen) {
      const completed = status.stepsCompleted as string[];
      // Steps complete in the spec's order: what is completed is always a prefix of it.
      expect(completed).toEqual(enrichmentSteps.slice(0, completed.length));
    }

    // What the run found, and what it was paid: a contact type that found nothing is refunded;
    // every live fetch answered live (the simulated network source does not fail by default).
    const found = await sql<{
      person_id: number;
      work_emails: string[];
      personal_emails: string[];
      phone_numbers: string[];
      live_enriched_at: Date | null;
    }>(
      `SELECT person_id, work_emails, personal_emails, phone_numbers, live_enriched_at FROM audience_prospects
        WHERE account_id = $1 AND audience_id = $2 ORDER BY person_id`,
      [accountId, id],
    );
    const foundById = new Map(found.map((f) => [Number(f.person_id), f]));
    const withWork = new Set(enriched.filter((p) => (foundById.get(p)?.work_emails.length ?? 0) > 0));
    const withPhone = new Set(enriched.filter((p) => (foundById.get(p)?.phone_numbers.length ?? 0) > 0));
    const dataset = await sql<{ person_id: number; kind: string; value: string }>(
      `SELECT person_id, kind, value FROM person_contacts WHERE person_id = ANY($1::bigint[]) ORDER BY value`,
      [enriched],
    );
    // The waterfall asks the dataset first: whoever has a stored work email or phone got one.
    for (const c of dataset.filter((d) => d.kind === 'work_email'))
      expect(withWork.has(Number(c.person_id))).toBe(true);
    for (const c of dataset.filter((d) => d.kind === 'phone')) expect(withPhone.has(Number(c.person_id))).toBe(true);
    expect(withPhone.size).toBeLessThan(20);
    for (const person of enriched) {
      expect(foundById.get(person)?.personal_emails).toEqual([]);
      expect(foundById.get(person)?.live_enriched_at).not.toBeNull();
    }
    expect(foundById.get(expectedProspects[25] as number)).toMatchObject({ work_emails: [], live_enriched_at: null }); // beyond maxProspectsToEnrich
    const liveFetched = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM people WHERE id = ANY($1::bigint[]) AND live_fetched_at IS NOT NULL`,
      [enriched],
    );
    expect(liveFetched[0]?.n).toBe(20);
    const expectedRefund = (20 - withWork.size) * 2 + (20 - withPhone.size) * 3;
    expect(done.refundedCredits).toBe(expectedRefund);
    expect(await balanceOf(app, apiKey)).toBe(beforeEnrichment - total + expectedRefund);
    const enrichmentLedger = await sql<{ idempotency_key: string }>(
      `SELECT idempotency_key FROM credit_ledger WHERE account_id = $1 AND reference = $2`,
      [accountId, `enrichment:${trigger.body.output.enrichmentId}`],
    );
    expect(new Set(enrichmentLedger.map((r) => r.idempotency_key)).size).toBe(enrichmentLedger.length);

    // The prospects listing carries what was found.
    const after = await pageAll(`/v1/audiences/${id}/prospects`);
    for (const p of after) {
      const row = foundById.get(Number(p.last_sort_key));
      expect(p.contacts).toEqual({
        workEmails: row?.work_emails,
        personalEmails: row?.personal_emails,
        phoneNumbers: row?.phone_numbers,
      });
    }

    // The completion mail, in the outbox (no SMTP_URL), links the run's CSV.
    const outbox = path.join(app.dataDir, 'outbox');
    const mails = await waitFor('the completion mail', async () => {
      const files = await readdir(outbox).catch(() => []);
      return files.filter((f) => f.endsWith('.eml')).length ? files.filter((f) => f.endsWith('.eml')) : null;
    });
    const mail = readMail(await readFile(path.join(outbox, mails[0] as string), 'utf8'));
    expect(mail.headers.to).toBe('owner@example.com');
    expect(mail.headers.subject).toMatch(/^Your enrichment \d+ is complete$/);
    expect(mail.text).toContain(
      `Work emails found: ${withWork.size}; personal emails: 0; phone numbers: ${withPhone.size}`,
    );
    expect(mail.text).toContain(`refunded for work that found nothing: ${expectedRefund}`);
    const mailedLink = mail.text.match(/https?:\/\/\S+\/downloads\/exports\/\S+/)?.[0];
    expect(mailedLink).toBeDefined();
    const runCsv = csvObjects(await downloadCsv(mailedLink as string));
    expect(runCsv.rows.map((r) => Number(r.prospect_id))).toEqual(enriched);

    // --- exports, read back
    const companyExport = ok(
      await app.request('POST', `/v1/audiences/${id}/export/companies`, { apiKey, excludeFields: ['description'] }),
    );
    expect(companyExport.body.output).toMatchObject({ estimatedRows: 40, maxRowsAllowed: 10_000 });
    expect(companyExport.body.chargeInfo.method).toBe('free');
    const companyStatus = await waitForExport(app, apiKey, id, companyExport.body.output.exportId);
    expect(companyStatus).toMatchObject({ status: 'READY', rows: 40, kind: 'companies' });
    const companyCsv = csvObjects(await downloadCsv(companyStatus.downloadUrl as string));
    expect(companyCsv.header).not.toContain('description');
    expect(companyCsv.header.slice(0, 3)).toEqual(['company_id', 'name', 'domain']);
    expect(companyCsv.rows.map((r) => Number(r.company_id))).toEqual(expectedCompanies);
    const firstCompany = (
      await sql<{ preferred_name: string; domains: string[] }>(
        `SELECT preferred_name, domains FROM companies WHERE id = $1`,
        [expectedCompanies[0]],
      )
    )[0];
    expect(companyCsv.rows[0]).toMatchObject({
      name: firstCompany?.preferred_name,
      domains: firstCompany?.domains.join('; '),
      country_code: 'US',
    });

    const prospectExport = ok(
      await app.request('POST', `/v1/audiences/${id}/export/prospects`, { apiKey, onlyWithContacts: true }),
    );
    const withAny = enriched.filter((p) => withWork.has(p) || withPhone.has(p));
    expect(prospectExport.body.output.estimatedRows).toBe(withAny.length);
    const prospectStatus = await waitForExport(app, apiKey, id, prospectExport.body.output.exportId);
    const prospectCsv = csvObjects(await downloadCsv(prospectStatus.downloadUrl as string));
    expect(prospectCsv.rows.map((r) => Number(r.prospect_id))).toEqual(withAny);
    for (const row of prospectCsv.rows) {
      const stored = foundById.get(Number(row.prospect_id));
      expect(row.all_work_emails).toBe(stored?.work_emails.join('; '));
      expect(row.work_email).toBe(stored?.work_emails[0] ?? '');
      expect(row.all_phone_numbers).toBe(stored?.phone_numbers.join('; '));
      expect(row.sales_tool_urn).toMatch(/^urn:network:salesProfile:\(\d+,NAME_SEARCH\)$/);
      expect(row.live_enriched_at).not.toBe('');
    }
    const cappedExport = ok(
      await app.request('POST', `/v1/audiences/${id}/export/prospects`, {
        apiKey,
        maxRowsToExport: 7,
        excludeFields: ['headline', 'tags'],
      }),
    );
    const cappedStatus = await waitForExport(app, apiKey, id, cappedExport.body.output.exportId);
    const capped = csvObjects(await downloadCsv(cappedStatus.downloadUrl as string));
    expect(capped.rows.map((r) => Number(r.prospect_id))).toEqual(expectedProspects.slice(0, 7));
    expect(capped.header).not.toContain('headline');
    const person = (
      await sql<{ first_name: string; last_name: string; title: string }>(
        `SELECT first_name, last_name, title FROM people WHERE id = $1`,
        [expectedProspects[0]],
      )
    )[0];
    expect(capped.rows[0]).toMatchObject({
      first_name: person?.first_name,
      last_name: person?.last_name,
      title: person?.title,
    });

    // --- listing, newest first
    const listed = ok(await app.request('GET', `/v1/audiences?apiKey=${apiKey}`));
    expect(listed.body.output.data[0]).toMatchObject({
      audienceId: id,
      status: 'NORMAL',
      numCompanies: 40,
      numProspects: expectedProspects.length,
    });
  });

  it('START_FROM_PROSPECTS: prospects only, capped, charged once', async () => {
    const created = ok(
      await app.request('POST', '/v1/audiences/create', {
        apiKey,
        name: 'UK managers',
        creationMethod: 'START_FROM_PROSPECTS',
      }),
    );
    const id = created.body.output.audienceId as string;
    expect(created.body.output.creationMethod).toBe('START_FROM_PROSPECTS');
    const prospectSearchParams = { country3LetterCode: ['GBR'], jobTitleV2: { included: ['manager'], excluded: [] } };
    ok(
      await app.request('PATCH', `/v1/audiences/${id}/search-params`, {
        apiKey,
        prospectSearchParams,
        maxProspects: 150,
      }),
    );
    const all = ids(
      await sql(`SELECT id FROM people WHERE country3 = 'GBR' AND title_words LIKE '% manager %' ORDER BY id`),
    );
    expect(all.length).toBeGreaterThan(150);
    const draft = ok(await app.request('GET', `/v1/audiences/${id}?apiKey=${apiKey}`)).body.output;
    expect(draft).toMatchObject({ buildWorstCaseCredits: 150, buildExpectedCredits: 150 });
    const before = await balanceOf(app, apiKey);
    ok(await app.request('POST', `/v1/audiences/${id}/build`, { apiKey }));
    const built = await waitFor('NORMAL', async () => {
      const status = ok(await app.request('GET', `/v1/audiences/${id}?apiKey=${apiKey}`)).body.output;
      return status.status === 'BUILDING' ? null : status;
    });
    expect(built).toMatchObject({ status: 'NORMAL', numCompanies: 0, numProspects: 150 });
    expect(await balanceOf(app, apiKey)).toBe(before - 150);
    const prospects = await pageAll(`/v1/audiences/${id}/prospects`);
    expect(prospects.map((p) => Number(p.last_sort_key))).toEqual(all.slice(0, 150));

    // Enrichment with everything off still walks the nine steps; only free work is done.
    const estimate = ok(await app.request('POST', `/v1/audiences/${id}/enrichment/estimate`, { apiKey }));
    expect(estimate.body.output.totalCredits).toBe(0);
    const trigger = ok(await app.request('POST', `/v1/audiences/${id}/enrich`, { apiKey }));
    expect(trigger.body.output.estimatedCredits).toBe(0);
    const done = await waitForEnrichment(app, apiKey, id);
    expect(done).toMatchObject({ status: 'DONE', progressPercent: 100 });
    expect((done.steps as Array<{ status: string }>).map((s) => s.status)).toEqual([
      'COMPLETED',
      'SKIPPED',
      'SKIPPED',
      'SKIPPED',
      'COMPLETED',
      'SKIPPED',
      'SKIPPED',
      'SKIPPED',
      'COMPLETED',
    ]);
    expect(await balanceOf(app, apiKey)).toBe(before - 150);

    const companyExport = ok(await app.request('POST', `/v1/audiences/${id}/export/companies`, { apiKey }));
    expect(companyExport.body.output.estimatedRows).toBe(0);
    const prospectExport = ok(await app.request('POST', `/v1/audiences/${id}/export/prospects`, { apiKey }));
    const status = await waitForExport(app, apiKey, id, prospectExport.body.output.exportId);
    const csv = csvObjects(await downloadCsv(status.downloadUrl as string));
    expect(csv.rows.map((r) => Number(r.prospect_id))).toEqual(all.slice(0, 150));
  });
});
