import fc from 'fast-check';
import { columnsOf } from '../../src/core/audiences/export-columns.js';
import { buildAudience, waitFor, waitForEnrichment, waitForExport } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import type { Hints } from './schema-arbitraries.js';

/**
 * The world the fuzzer calls into: the real service on a seeded database, accounts with
 * resources in each state (so that path parameters can name something real, of this account or
 * of another), and values that mean something to the service (real slugs, the account's own
 * mail addresses) for the arbitraries to draw from now and then.
 */

export interface FuzzAccount {
  accountId: number;
  apiKey: string;
  audiences: string[];
  /** Audiences in DRAFT with filters set: each can be built once. */
  buildable: string[];
  normalAudiences: string[];
  exports: Array<{ audienceId: string; exportId: string }>;
  tasks: string[];
  exclusionLists: string[];
  savedSearches: string[];
  savedSearchRuns: Array<{ savedSearchId: string; runId: string }>;
  /** Disabled once its test event's first attempt is logged, so that nothing of the account changes by itself later. */
  webhookEndpoints: string[];
  webhookDeliveries: Array<{ webhookEndpointId: string; deliveryId: string }>;
  /** Paused and empty: a list with items is checked, and charged, in the background. */
  watchLists: string[];
  emails: string[];
}

/** Per-minute limits out of the way: the fuzzer calls one after another, far faster than any agent should. */
export const fuzzEnv: Record<string, string> = {
  JOB_POLL_INTERVAL_MS: '20',
  RATE_LIMIT_SEARCH_PER_MINUTE: '1000000',
  RATE_LIMIT_STATUS_PER_MINUTE: '1000000',
  RATE_LIMIT_STANDARD_PER_MINUTE: '1000000',
  RATE_LIMIT_HEAVY_PER_MINUTE: '1000000',
  EXPORT_QUOTA_ROWS_PER_MONTH: '100000000',
};

export async function startFuzzApp(env: Record<string, string> = {}): Promise<TestApp> {
  return startTestApp({ env: { ...fuzzEnv, ...env } });
}

let accounts = 0;

/** An account with resources of every kind, in the states a caller meets them. */
export async function accountWithResources(
  app: TestApp,
  options: { credits?: number; buildable?: number; rich?: boolean } = {},
): Promise<FuzzAccount> {
  accounts += 1;
  const emails = [`owner${accounts}@fuzz-owner.example`, `team${accounts}@fuzz-owner.example`];
  const { accountId, apiKey } = await app.createAccount({
    credits: options.credits ?? 100_000,
    email: emails[0],
    recipients: [emails[1] as string],
  });
  const account: FuzzAccount = {
    accountId,
    apiKey,
    audiences: [],
    buildable: [],
    normalAudiences: [],
    exports: [],
    tasks: [],
    exclusionLists: [],
    savedSearches: [],
    savedSearchRuns: [],
    webhookEndpoints: [],
    webhookDeliveries: [],
    watchLists: [],
    emails,
  };
  const call = async (method: string, path: string, body: Record<string, unknown> = {}) => {
    const answer = await app.request(method, path, method === 'GET' ? undefined : { apiKey, ...body });
    if (answer.status < 200 || answer.status >= 300)
      throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.output as Record<string, unknown>;
  };

  const draft = await call('POST', '/v1/audiences/create', { name: 'Draft without filters' });
  account.audiences.push(draft.audienceId as string);
  for (let i = 0; i < (options.buildable ?? 1); i++) {
    const fromProspects = i % 2 === 1;
    const created = await call('POST', '/v1/audiences/create', {
      name: `Draft ${i}`,
      creationMethod: fromProspects ? 'START_FROM_PROSPECTS' : 'NORMAL',
    });
    const id = created.audienceId as string;
    await call('PATCH', `/v1/audiences/${id}/search-params`, {
      ...(fromProspects ? {} : { companySearchParams: { headquartersCountryCode: ['US'] } }),
      prospectSearchParams: { jobTitleV2: { included: ['Engineer'], excluded: [] } },
      maxCompanies: 3,
      maxProspects: 8,
    });
    account.audiences.push(id);
    account.buildable.push(id);
  }
  if (options.rich === false) return account;

  for (const name of ['Built one', 'Built two']) {
    const built = await buildAudience(app, apiKey, {
      name,
      filters: { companySearchParams: { headquartersCountryCode: ['US'] }, maxCompanies: 3, maxProspects: 8 },
    });
    account.audiences.push(built.audienceId);
    account.normalAudiences.push(built.audienceId);
  }
  const enriched = account.normalAudiences[0] as string;
  const options_ = {
    runProfileSalesNav: true,
    runContactEnrichment: true,
    enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false },
  };
  await call('POST', `/v1/audiences/${enriched}/enrichment/estimate`, options_);
  await call('POST', `/v1/audiences/${enriched}/enrich`, options_);
  await waitForEnrichment(app, apiKey, enriched);
  for (const kind of ['companies', 'prospects']) {
    const accepted = await call('POST', `/v1/audiences/${enriched}/export/${kind}`, {});
    await waitForExport(app, apiKey, enriched, accepted.exportId as string);
    account.exports.push({ audienceId: enriched, exportId: accepted.exportId as string });
  }
  const slugs = await realValues(app);
  const task = await call('POST', '/v1/contact-enrichment/batch', {
    profileUrls: slugs.profileSlugs.slice(0, 2),
    enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false },
  });
  account.tasks.push(task.taskId as string);
  await waitFor('the batch task', async () => {
    const status = await call('GET', `/v1/contact-enrichment/batch/${task.taskId as string}?apiKey=${apiKey}`);
    return status.status === 'DONE' || status.status === 'FAILED';
  });
  const list = await call('POST', '/v1/exclusion-lists', {
    name: 'Customers',
    kind: 'companies',
    companies: [{ domain: slugs.domains[0] }],
  });
  account.exclusionLists.push(list.exclusionListId as string);
  const watched = await call('POST', '/v1/watch-lists', { name: 'Champions', kind: 'people', checkEvery: 'month' });
  await call('PATCH', `/v1/watch-lists/${watched.watchListId as string}`, { paused: true });
  account.watchLists.push(watched.watchListId as string);
  const saved = await call('POST', '/v1/saved-searches', {
    name: 'Watch',
    kind: 'companies',
    companySearchParams: { headquartersCountryCode: ['US'] },
    maxNewRecordsPerRun: 3,
  });
  const savedSearchId = saved.savedSearchId as string;
  account.savedSearches.push(savedSearchId);
  const run = await call('POST', `/v1/saved-searches/${savedSearchId}/runs`, { maxNewRecords: 3 });
  await waitFor('the saved-search run', async () => {
    const status = await call(
      'GET',
      `/v1/saved-searches/${savedSearchId}/runs/${run.runId as string}?apiKey=${apiKey}`,
    );
    return status.status === 'DONE' || status.status === 'FAILED';
  });
  account.savedSearchRuns.push({ savedSearchId, runId: run.runId as string });
  const endpoint = await call('POST', '/v1/webhook-endpoints', { url: fuzzWebhookUrl, events: ['export.ready'] });
  const webhookEndpointId = endpoint.webhookEndpointId as string;
  const sent = await call('POST', `/v1/webhook-endpoints/${webhookEndpointId}/test`, {});
  await waitFor("the test event's first attempt", async () => {
    const attempts = await app.db.pool.query('SELECT 1 FROM webhook_attempts WHERE account_id = $1', [accountId]);
    return (attempts.rowCount ?? 0) > 0;
  });
  await call('PATCH', `/v1/webhook-endpoints/${webhookEndpointId}`, { disabled: true });
  account.webhookEndpoints.push(webhookEndpointId);
  account.webhookDeliveries.push({ webhookEndpointId, deliveryId: sent.deliveryId as string });
  return account;
}

/** Where the fuzzed accounts' webhooks point: a public name that resolves nowhere, so attempts fail without reaching anything. */
export const fuzzWebhookUrl = 'https://hooks.fuzz-owner.example/events';

export interface RealValues {
  profileSlugs: string[];
  profileUrls: string[];
  companySlugs: string[];
  companyUrls: string[];
  orgIds: string[];
  domains: string[];
  industries: string[];
  titles: string[];
}

let cachedValues: RealValues | null = null;

/** Identifiers the catalog really holds, so that valid calls find things and charge for them. */
export async function realValues(app: TestApp): Promise<RealValues> {
  if (cachedValues) return cachedValues;
  const people = await app.db.pool.query<{ network_slug: string; title: string }>(
    `SELECT network_slug, title FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT 30`,
  );
  const companies = await app.db.pool.query<{
    slug: string;
    org: string | null;
    domain: string | null;
    industry: string | null;
  }>(
    `SELECT network_primary_slug AS slug, network_org_id::text AS org, domains[1] AS domain, standard_industries[1] AS industry
       FROM companies WHERE network_primary_slug IS NOT NULL ORDER BY id LIMIT 30`,
  );
  const defined = <T>(values: Array<T | null>): T[] => values.filter((v): v is T => v !== null);
  cachedValues = {
    profileSlugs: people.rows.map((r) => r.network_slug),
    profileUrls: people.rows.map((r) => `https://network.example.com/in/${r.network_slug}`),
    companySlugs: companies.rows.map((r) => r.slug),
    companyUrls: companies.rows.map((r) => `https://network.example.com/company/${r.slug}`),
    orgIds: defined(companies.rows.map((r) => r.org)),
    domains: defined(companies.rows.map((r) => r.domain)),
    industries: [...new Set(defined(companies.rows.map((r) => r.industry)))],
    titles: [...new Set(people.rows.map((r) => r.title.split(' ')[0] as string))],
  };
  return cachedValues;
}

/** An id no account has: far above any sequence this database will reach. */
export const unknownId = fc.bigInt({ min: 10n ** 15n, max: 10n ** 18n - 1n }).map(String);

/**
 * What the arbitraries draw from beside the schema's own values: for path parameters, this
 * account's ids (and, when `foreign` is given, another account's, and ids that exist nowhere).
 */
export function hintsFor(account: FuzzAccount, values: RealValues, foreign?: FuzzAccount): Hints {
  const pool = (own: string[], theirs: string[]) =>
    fc.oneof(
      ...(own.length ? [{ arbitrary: fc.constantFrom(...own), weight: 6 }] : []),
      ...(theirs.length ? [{ arbitrary: fc.constantFrom(...theirs), weight: 1 }] : []),
      { arbitrary: unknownId, weight: 1 },
    );
  const profiles = fc.constantFrom(...values.profileSlugs, ...values.profileUrls);
  return {
    audienceId: pool(account.audiences, foreign?.audiences ?? []),
    exportId: pool(
      account.exports.map((e) => e.exportId),
      foreign?.exports.map((e) => e.exportId) ?? [],
    ),
    taskId: pool(account.tasks, foreign?.tasks ?? []),
    exclusionListId: pool(account.exclusionLists, foreign?.exclusionLists ?? []),
    savedSearchId: pool(account.savedSearches, foreign?.savedSearches ?? []),
    runId: pool(
      account.savedSearchRuns.map((r) => r.runId),
      foreign?.savedSearchRuns.map((r) => r.runId) ?? [],
    ),
    webhookEndpointId: pool(account.webhookEndpoints, foreign?.webhookEndpoints ?? []),
    watchListId: pool(account.watchLists, foreign?.watchLists ?? []),
    deliveryId: pool(
      account.webhookDeliveries.map((d) => d.deliveryId),
      foreign?.webhookDeliveries.map((d) => d.deliveryId) ?? [],
    ),
    url: fc.constantFrom(
      fuzzWebhookUrl,
      'https://hooks.fuzz-owner.example/other',
      'http://hooks.fuzz-owner.example/plain',
    ),
    profileUrl: profiles,
    identifier: profiles,
    'profileUrls[]': profiles,
    'prospects[]': profiles,
    value: fc.constantFrom(...values.companySlugs, ...values.companyUrls, ...values.orgIds),
    userEmail: fc.constantFrom(...account.emails),
    'excludeFields[]': fc.constantFrom(...columnsOf('companies'), ...columnsOf('prospects')),
    domain: fc.constantFrom(...values.domains),
    'domains[]': fc.constantFrom(...values.domains),
    networkSlugOrURL: fc.constantFrom(...values.companySlugs, ...values.companyUrls),
    networkOrgID: fc.constantFrom(...values.orgIds),
    'networkSlugs[]': fc.constantFrom(...values.companySlugs),
    'industriesV2[]': fc.constantFrom(...values.industries),
    'included[]': fc.constantFrom(...values.titles),
    'headquartersCountryCode[]': fc.constantFrom('US', 'GB', 'DE', 'fr'),
    'country3LetterCode[]': fc.constantFrom('USA', 'GBR', 'DEU', 'fra'),
    'companyExclusionListIDs[]': pool(account.exclusionLists, foreign?.exclusionLists ?? []),
    'prospectExclusionListIDs[]': pool(account.exclusionLists, foreign?.exclusionLists ?? []),
    cursor: fc.constant(null),
  };
}

/** Everything an account owns, counted: a call that must change nothing leaves this as it was. */
export interface Snapshot {
  balance: number;
  rows: Record<string, number>;
}

let accountTables: string[] | null = null;

/** Tables with an account_id, but for those a refused request may write by design (kept answers to idempotent retries, caches, counters, the request log). */
async function tablesOfAccounts(app: TestApp): Promise<string[]> {
  if (accountTables) return accountTables;
  const result = await app.db.pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.columns
      WHERE column_name = 'account_id' AND table_schema = 'public' AND data_type IN ('bigint', 'integer')
        AND table_name NOT IN ('idempotent_requests', 'mcp_poll_cache', 'rate_limit_buckets', 'mcp_used_confirmations', 'api_keys',
                               'request_log')
      ORDER BY table_name`,
  );
  accountTables = result.rows.map((r) => r.table_name);
  return accountTables;
}

export async function snapshot(app: TestApp, accountId: number): Promise<Snapshot> {
  const tables = await tablesOfAccounts(app);
  const counts = tables.map((t) => `(SELECT count(*) FROM ${t} WHERE account_id = $1)::int AS "${t}"`).join(', ');
  const result = await app.db.pool.query<Record<string, number>>(
    `SELECT coalesce((SELECT balance FROM credit_balances WHERE account_id = $1), 0)::bigint AS balance, ${counts}`,
    [accountId],
  );
  const { balance, ...rows } = result.rows[0] as Record<string, number>;
  return { balance: Number(balance), rows };
}

/** The balance and the ledger's length: cheap enough to read around every call. */
export async function ledgerState(app: TestApp, accountId: number): Promise<{ balance: number; entries: number }> {
  const result = await app.db.pool.query<{ balance: string; entries: number }>(
    `SELECT coalesce((SELECT balance FROM credit_balances WHERE account_id = $1), 0)::bigint AS balance,
            (SELECT count(*) FROM credit_ledger WHERE account_id = $1)::int AS entries`,
    [accountId],
  );
  const row = result.rows[0] as { balance: string; entries: number };
  return { balance: Number(row.balance), entries: row.entries };
}

/** Waits until no job of the account is queued or running. */
export async function settleJobs(app: TestApp, accountId: number, timeoutMs = 60_000): Promise<void> {
  try {
    await waitFor(
      "the account's jobs to finish",
      async () => {
        // A saved search's next scheduled run (a day or a week ahead) is not work in hand; a retry a few seconds ahead is.
        const left = await app.db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM jobs WHERE account_id = $1 AND (status = 'running' OR (status = 'queued' AND run_after < now() + interval '5 minutes'))`,
          [accountId],
        );
        return left.rows[0]?.n === 0;
      },
      timeoutMs,
      50,
    );
  } catch (error) {
    const left = await app.db.pool.query(
      `SELECT kind, status, attempts, run_after - now() AS due_in, lease_expires_at - now() AS lease_left, progress, last_error
         FROM jobs WHERE account_id = $1 AND (status = 'running' OR (status = 'queued' AND run_after < now() + interval '5 minutes')) ORDER BY id`,
      [accountId],
    );
    throw new Error(`${(error as Error).message}; ${left.rowCount} left: ${JSON.stringify(left.rows).slice(0, 3000)}`, {
      cause: error,
    });
  }
}
