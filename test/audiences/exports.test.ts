import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { localExportStorage, type ExportStorage } from '../../src/providers/export-storage.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { replaceable } from '../helpers/replaceable.js';
import { buildAudience, csvObjects, ok, testEnv, waitFor, waitForExport } from './helpers.js';

/**
 * Exports: the monthly quota, the per-export cap, the columns, and the signed links
 * (expired, tampered and cut-short links are refused). A 100-row quota and 2-second links
 * make the limits reachable in a test.
 */
describe('audience exports', () => {
  let app: TestApp;
  let apiKey: string;
  let accountId: number;
  let audienceId: string;

  const storage = replaceable<ExportStorage>(() => localStorage);
  let localStorage: ExportStorage;

  beforeAll(async () => {
    app = await startTestApp({
      env: { ...testEnv, EXPORT_QUOTA_ROWS_PER_MONTH: '100', EXPORT_LINK_TTL_SECONDS: '2', JOB_RETRY_BASE_MS: '50' },
      services: { exportStorage: storage.service },
    });
    localStorage = localExportStorage(app.service.context.config.exportDir);
    ({ apiKey, accountId } = await app.createAccount({ credits: 10_000 }));
    ({ audienceId } = await buildAudience(app, apiKey, {
      creationMethod: 'START_FROM_PROSPECTS',
      filters: { prospectSearchParams: { country3LetterCode: ['FRA'] }, maxProspects: 60 },
    }));
  });
  afterEach(() => {
    storage.use(null);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const usage = async (account = accountId): Promise<number> =>
    (
      await app.db.pool.query<{ rows: number }>(
        'SELECT coalesce(sum(rows), 0)::int AS rows FROM export_quota_usage WHERE account_id = $1',
        [account],
      )
    ).rows[0]?.rows ?? 0;

  it('refuses bad columns and caps, naming the field, and accepts nothing for them', async () => {
    const unknown = await app.request('POST', `/v1/audiences/${audienceId}/export/prospects`, {
      apiKey,
      excludeFields: ['title', 'shoe_size'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.issues).toEqual([
      { field: 'excludeFields.1', message: 'unknown column "shoe_size"' },
    ]);
    expect(unknown.body.error.details.columns).toContain('work_email');
    const everything = await app.request('POST', `/v1/audiences/${audienceId}/export/companies`, {
      apiKey,
      excludeFields: allCompanyColumns,
    });
    expect(everything.status).toBe(400);
    expect(everything.body.error.message).toMatch(/removes every column/);
    const tooMany = await app.request('POST', `/v1/audiences/${audienceId}/export/prospects`, {
      apiKey,
      maxRowsToExport: 10_001,
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.issues[0].field).toBe('maxRowsToExport');
    const badFormat = await app.request('POST', `/v1/audiences/${audienceId}/export/prospects`, {
      apiKey,
      format: 'XLSX',
    });
    expect(badFormat.status).toBe(400);
    expect(badFormat.body.error.details.issues[0].field).toBe('format');
    expect(await usage()).toBe(0);
  });

  it('counts rows against the monthly quota and refuses with 429 quota_exceeded beyond it', async () => {
    const first = ok(await app.request('POST', `/v1/audiences/${audienceId}/export/prospects`, { apiKey }));
    expect(first.body.output).toMatchObject({ estimatedRows: 60, maxRowsAllowed: 10_000 });
    expect(await usage()).toBe(60);
    const over = await app.request('POST', `/v1/audiences/${audienceId}/export/prospects`, { apiKey });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('quota_exceeded');
    expect(over.body.error.message).toMatch(/60 of 100 rows are used this month, 40 remain/);
    expect(over.body.error.details).toMatchObject({
      quotaRowsPerMonth: 100,
      usedRows: 60,
      remainingRows: 40,
      requestedRows: 60,
    });
    expect(new Date(over.body.error.details.resetsAt).getUTCDate()).toBe(1);
    expect(await usage()).toBe(60);

    const rest = ok(
      await app.request('POST', `/v1/audiences/${audienceId}/export/prospects`, { apiKey, maxRowsToExport: 40 }),
    );
    expect(rest.body.output.estimatedRows).toBe(40);
    expect(
      (await app.request('POST', `/v1/audiences/${audienceId}/export/prospects`, { apiKey, maxRowsToExport: 1 }))
        .status,
    ).toBe(429);
    // An empty export costs no quota.
    expect(
      ok(await app.request('POST', `/v1/audiences/${audienceId}/export/companies`, { apiKey })).body.output
        .estimatedRows,
    ).toBe(0);

    // Another account has its own quota.
    const other = await app.createAccount({ credits: 1000 });
    const theirs = await buildAudience(app, other.apiKey, {
      creationMethod: 'START_FROM_PROSPECTS',
      filters: { prospectSearchParams: { country3LetterCode: ['FRA'] }, maxProspects: 30 },
    });
    ok(await app.request('POST', `/v1/audiences/${theirs.audienceId}/export/prospects`, { apiKey: other.apiKey }));
    expect(await usage(other.accountId)).toBe(30);

    const done = await waitForExport(app, apiKey, audienceId, rest.body.output.exportId);
    expect(done).toMatchObject({ status: 'READY', rows: 40 });
    expect(await usage()).toBe(100);
  });

  it('serves the file only through a valid, unexpired link', async () => {
    const account = await app.createAccount({ credits: 1000 });
    const built = await buildAudience(app, account.apiKey, {
      creationMethod: 'START_FROM_PROSPECTS',
      filters: { prospectSearchParams: { country3LetterCode: ['FRA'] }, maxProspects: 5 },
    });
    const accepted = ok(
      await app.request('POST', `/v1/audiences/${built.audienceId}/export/prospects`, { apiKey: account.apiKey }),
    ).body.output;
    const ready = await waitForExport(app, account.apiKey, built.audienceId, accepted.exportId);
    const link = new URL(ready.downloadUrl as string);
    expect(link.origin).toBe(app.url);
    expect(link.pathname).toBe(`/downloads/exports/${accepted.exportId}`);
    const expiresAt = new Date(ready.expiresAt as string).getTime();
    expect(expiresAt - Date.now()).toBeGreaterThan(0);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(2000);

    const good = await fetch(link);
    expect(good.status).toBe(200);
    expect(good.headers.get('content-disposition')).toBe(
      `attachment; filename="audience-${built.audienceId}-prospects-${accepted.exportId}.csv"`,
    );
    expect(csvObjects(await good.text()).rows.length).toBe(5);

    const tamper = (name: string, value: string): string => {
      const copy = new URL(link);
      copy.searchParams.set(name, value);
      return copy.toString();
    };
    const refusals = [
      tamper('signature', withLastCharacterChanged(link.searchParams.get('signature') as string)),
      tamper('expires', String(Number(link.searchParams.get('expires')) + 3600)),
      tamper('account', String(accountId)),
      link.toString().replace(`/exports/${accepted.exportId}?`, `/exports/${Number(accepted.exportId) - 1}?`),
      `${link.origin}${link.pathname}`,
    ];
    for (const url of refusals) {
      const response = await fetch(url);
      expect(response.status, url).toBe(403);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('forbidden');
      expect(body.error.message).toMatch(/not valid/);
    }

    // The link ends once the server's clock has passed its expiry (whole seconds): ask until it says so.
    const expired = await waitFor(
      'the link to expire',
      async () => {
        const response = await fetch(link);
        if (response.status !== 200) return response;
        await response.arrayBuffer();
        return false;
      },
      10_000,
      100,
    );
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { error: { message: string } }).error.message).toMatch(
      /expired at .* getExportStatus/,
    );
    // A new status read issues a new link that works.
    const again = await waitForExport(app, account.apiKey, built.audienceId, accepted.exportId);
    expect(again.downloadUrl).not.toBe(ready.downloadUrl);
    expect((await fetch(again.downloadUrl as string)).status).toBe(200);
  });

  it('an export that cannot be written ends FAILED and gives its rows back to the quota', async () => {
    const account = await app.createAccount({ credits: 1000 });
    const built = await buildAudience(app, account.apiKey, {
      creationMethod: 'START_FROM_PROSPECTS',
      filters: { prospectSearchParams: { country3LetterCode: ['FRA'] }, maxProspects: 20 },
    });
    const broken: ExportStorage = {
      write: async () => {
        throw new Error('disk full');
      },
      open: async () => null,
      remove: async () => undefined,
    };
    storage.use(broken);
    const accepted = ok(
      await app.request('POST', `/v1/audiences/${built.audienceId}/export/prospects`, { apiKey: account.apiKey }),
    ).body.output;
    expect(await usage(account.accountId)).toBe(20);
    const failed = await waitForExport(app, account.apiKey, built.audienceId, accepted.exportId);
    expect(failed).toMatchObject({ status: 'FAILED', downloadUrl: null, expiresAt: null });
    expect(await usage(account.accountId)).toBe(0);
  });
});

const allCompanyColumns = [
  'company_id',
  'name',
  'domain',
  'domains',
  'network_slug',
  'network_url',
  'network_org_id',
  'industries',
  'employee_count_min',
  'employee_count_max',
  'city',
  'state',
  'country_code',
  'total_funding_usd',
  'last_funding_usd',
  'last_funded_on',
  'founded_on',
  'stage',
  'special_flags',
  'description',
];

/** The same string with its last character replaced by another one, whatever it was. */
function withLastCharacterChanged(value: string): string {
  return `${value.slice(0, -1)}${value.endsWith('A') ? 'B' : 'A'}`;
}
