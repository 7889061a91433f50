import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countPeople, exactCountBound, isCountTimeout } from '../../src/core/search/count.js';
import { searchPeople } from '../../src/core/search/people-search.js';
import { titlePhrases } from '../../src/core/titles/normalise.js';
import { waitFor } from '../audiences/helpers.js';
import { peopleSearchParams } from '../../operations/schemas/filters.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * companyCount and peopleCount over HTTP, checked against counts made here in SQL: exact up to
 * the bound, an estimate marked as one past it (the test catalog has 30,000 people), and one
 * credit per request whatever the count. The answer depends on the rows, never on how long
 * they took to read: a count held up (here by a lock, as a loaded machine holds it up) answers
 * as a quick one does; one that runs past the searches' statement timeout is 503 query_timeout.
 */
describe('counts', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.stop());

  const balance = async (apiKey = app.apiKey): Promise<number> =>
    (await app.request('GET', `/v1/credits?apiKey=${apiKey}`)).body.output.balance;
  const sqlCount = async (text: string, params: unknown[] = []): Promise<number> =>
    Number((await app.db.pool.query<{ n: string }>(text, params)).rows[0]?.n);

  it('counts companies exactly under the bound, for 1 credit, the same as paging through the search', async () => {
    const truth = await sqlCount(
      `SELECT count(*) AS n FROM companies WHERE country_code = 'US' AND employee_count_min >= 51`,
    );
    expect(truth).toBeGreaterThan(0);
    expect(truth).toBeLessThanOrEqual(exactCountBound);
    const before = await balance();
    const response = await app.request('POST', '/v1/company-count', {
      apiKey: app.apiKey,
      searchParams: { headquartersCountryCode: ['US'], employeeCountV2: { min: 51 } },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.output).toEqual({ count: truth, exact: true, exactUpTo: exactCountBound });
    expect(response.body.chargeInfo).toMatchObject({ method: 'charged-now', creditsCharged: 1 });
    expect(await balance()).toBe(before - 1);
  });

  it('charges its credit for a count that finds nothing', async () => {
    const before = await balance();
    const response = await app.request('POST', '/v1/company-count', {
      apiKey: app.apiKey,
      searchParams: { nameLike: 'no company is called this zzqx' },
    });
    expect(response.body.output).toMatchObject({ count: 0, exact: true });
    expect(response.body.chargeInfo.creditsCharged).toBe(1);
    expect(await balance()).toBe(before - 1);
    const people = await app.request('POST', '/v1/people-search/count', {
      apiKey: app.apiKey,
      searchParams: {},
      currentCompanies: [{ domain: 'nobody-has-this-domain.example' }],
    });
    expect(people.body.output).toMatchObject({ count: 0, exact: true });
    expect(people.body.chargeInfo.creditsCharged).toBe(1);
    expect(await balance()).toBe(before - 2);
  });

  it('past the bound, answers an estimate marked exact: false and never below the bound', async () => {
    const truth = await sqlCount('SELECT count(*) AS n FROM people');
    expect(truth).toBeGreaterThan(exactCountBound);
    const response = await app.request('POST', '/v1/people-search/count', { apiKey: app.apiKey, searchParams: {} });
    expect(response.status).toBe(200);
    expect(response.body.output.exact).toBe(false);
    expect(response.body.output.count).toBeGreaterThan(exactCountBound);
    // The planner's estimate of a whole table is its row count from ANALYZE.
    expect(Math.abs(response.body.output.count - truth) / truth).toBeLessThan(0.2);
    expect(response.body.chargeInfo.creditsCharged).toBe(1);
  });

  it('counts people with every input peopleSearch takes, exclusion lists included', async () => {
    const titled = await sqlCount(
      `SELECT count(*) AS n FROM people WHERE title_words LIKE '% engineer %' AND country3 = 'USA' AND years_experience >= 10`,
    );
    expect(titled).toBeLessThanOrEqual(exactCountBound);
    const searchParams = {
      jobTitleV2: { included: ['engineer'] },
      country3LetterCode: ['USA'],
      yearsOfExperience: { min: 10 },
    };
    const first = await app.request('POST', '/v1/people-search/count', { apiKey: app.apiKey, searchParams });
    expect(first.body.output).toMatchObject({ count: titled, exact: true });

    const someone = (
      await app.db.pool.query<{ network_slug: string; company_id: number }>(
        `SELECT network_slug, company_id FROM people WHERE title_words LIKE '% engineer %' AND country3 = 'USA' AND years_experience >= 10 AND company_id IS NOT NULL ORDER BY id LIMIT 1`,
      )
    ).rows[0] as { network_slug: string; company_id: number };
    const list = await app.request('POST', '/v1/exclusion-lists', {
      apiKey: app.apiKey,
      name: 'one person',
      kind: 'prospects',
      prospects: [someone.network_slug],
    });
    const without = await app.request('POST', '/v1/people-search/count', {
      apiKey: app.apiKey,
      searchParams,
      prospectExclusionListIDs: [list.body.output.exclusionListId],
    });
    expect(without.body.output).toMatchObject({ count: titled - 1, exact: true });

    // A title word shorter than a trigram ("II"), which the trigram index cannot narrow: still exact.
    const seconds = await sqlCount(
      `SELECT count(*) AS n FROM people WHERE title_words LIKE '% ii %' AND country3 = 'USA'`,
    );
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(exactCountBound);
    const short = await app.request('POST', '/v1/people-search/count', {
      apiKey: app.apiKey,
      searchParams: { jobTitleV2: { included: ['II'] }, country3LetterCode: ['USA'] },
    });
    expect(short.body.output).toMatchObject({ count: seconds, exact: true });

    const slug = (
      await app.db.pool.query<{ network_primary_slug: string }>(
        'SELECT network_primary_slug FROM companies WHERE id = $1',
        [someone.company_id],
      )
    ).rows[0]?.network_primary_slug;
    const atCompany = await sqlCount('SELECT count(*) AS n FROM people WHERE company_id = $1', [someone.company_id]);
    const byCompany = await app.request('POST', '/v1/people-search/count', {
      apiKey: app.apiKey,
      searchParams: {},
      currentCompanies: [{ networkSlugOrURL: slug }],
    });
    expect(byCompany.body.output).toMatchObject({ count: atCompany, exact: true });
  });

  it('refuses bad filters with a 400 naming the field, charging nothing', async () => {
    const before = await balance();
    const response = await app.request('POST', '/v1/company-count', {
      apiKey: app.apiKey,
      searchParams: { employeeCountV2: { min: 500, max: 10 } },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.details.issues[0].field).toBe('searchParams.employeeCountV2.min');
    const unknown = await app.request('POST', '/v1/people-search/count', {
      apiKey: app.apiKey,
      searchParams: {},
      pageSize: 5,
    });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body.error.details.issues)).toContain('pageSize');
    expect(await balance()).toBe(before);
  });

  it("answers 404 for another account's exclusion list, and charges nothing", async () => {
    const other = await app.createAccount({ credits: 100 });
    const theirs = await app.request('POST', '/v1/exclusion-lists', {
      apiKey: other.apiKey,
      name: 'theirs',
      kind: 'companies',
      companies: [{ domain: 'x.example' }],
    });
    const before = await balance();
    const response = await app.request('POST', '/v1/company-count', {
      apiKey: app.apiKey,
      searchParams: {},
      companyExclusionListIDs: [theirs.body.output.exclusionListId],
    });
    expect(response.status).toBe(404);
    expect(await balance()).toBe(before);
  });

  it('answers the same whatever the load: a count held up by the machine is as exact as a quick one', async () => {
    const usCompanies = await sqlCount(
      `SELECT count(*) AS n FROM companies WHERE country_code = 'US' AND employee_count_min >= 51`,
    );
    expect(usCompanies).toBeLessThanOrEqual(exactCountBound);
    const cases = [
      {
        path: '/v1/company-count',
        table: 'companies',
        searchParams: { headquartersCountryCode: ['US'], employeeCountV2: { min: 51 } },
        expected: usCompanies,
      },
      // Nothing matches: an exact 0, never the planner's floor of one row.
      {
        path: '/v1/people-search/count',
        table: 'people',
        searchParams: { jobTitleV2: { included: ['zzqx nobody holds this title'] } },
        expected: 0,
      },
    ];
    for (const { path, table, searchParams, expected } of cases) {
      const quick = await app.request('POST', path, { apiKey: app.apiKey, searchParams });
      expect(quick.body.output).toMatchObject({ count: expected, exact: true });
      // Held up for longer than any budget a count once had: the table is locked until the count is seen waiting.
      const lock = await app.db.pool.connect();
      let held: Promise<{ body: any; status: number }>;
      try {
        await lock.query('BEGIN');
        await lock.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
        held = app.request('POST', path, { apiKey: app.apiKey, searchParams });
        // Let go once the count has waited far longer than the 30 ms a count once had before it gave up on exactness.
        await waitFor('the count waiting on the lock for 300 ms', async () => {
          const waiting = await app.db.pool.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
                AND query LIKE '%count(*)%' AND clock_timestamp() - query_start > interval '300 milliseconds'`,
          );
          return waiting.rowCount ? true : null;
        });
      } finally {
        await lock.query('COMMIT');
        lock.release();
      }
      const slow = await held;
      expect(slow.status).toBe(200);
      expect(slow.body.output, path).toEqual(quick.body.output);
    }
  });

  it('finds a rare title through its words and a common one in id order, counted and paged the same either way', async () => {
    // The rarest title of three words or more in the catalog, and a common word.
    // A title's words are what it matches by: the rarest words, not the rarest way of writing them.
    const rare = await app.db.pool.query<{ words: string }>(
      `SELECT btrim(title_words) AS words FROM people
        WHERE title_words NOT LIKE '%|%' AND array_length(regexp_split_to_array(btrim(title_words), ' '), 1) >= 3
        GROUP BY title_words ORDER BY count(*), title_words LIMIT 1`,
    );
    const rareTitle = rare.rows[0]?.words as string;
    const cases = [
      { title: rareTitle, byWords: true },
      { title: 'engineer', byWords: false },
    ];
    for (const { title, byWords } of cases) {
      const searchParams = peopleSearchParams.parse({ jobTitleV2: { included: [title] } });
      const client = await app.db.pool.connect();
      const reads: string[] = [];
      // The real connection, its statements noted: which form of the conditions the count read with.
      const recording = new Proxy(client, {
        get: (target, property, receiver) =>
          property === 'query'
            ? (text: string, params?: unknown[]) => {
                reads.push(text);
                return target.query(text, params);
              }
            : Reflect.get(target, property, receiver),
      });
      let counted;
      try {
        counted = await countPeople(recording, 1, { searchParams }, { timeoutMs: 60_000, bound: 1_000_000 });
      } finally {
        client.release();
      }
      const countRead = reads.filter((text) => text.startsWith('SELECT count(*)'));
      expect(countRead, title).toHaveLength(1);
      expect(countRead[0]?.includes('to_tsvector'), title).toBe(byWords);

      // A search page reads the same way, and finds the first page of the same people.
      const pageReads: string[] = [];
      const pool = new Proxy(app.db.pool, {
        get: (target, property, receiver) =>
          property === 'query'
            ? (text: string, params?: unknown[]) => {
                pageReads.push(text);
                return target.query(text, params);
              }
            : Reflect.get(target, property, receiver),
      });
      const page = await searchPeople(pool, app.service.context.services.cursors, 1, { searchParams, pageSize: 25 });
      const pageRead = pageReads.filter((text) => text.startsWith('SELECT') && text.includes('JOIN people p'));
      expect(pageRead, title).toHaveLength(1);
      expect(pageRead[0]?.includes('to_tsvector'), title).toBe(byWords);
      const firstPage = await app.db.pool.query<{ network_slug: string | null }>(
        `SELECT network_slug FROM people WHERE title_words LIKE ANY($1::text[]) ORDER BY id LIMIT 25`,
        [titlePhrases(title).map((phrase) => `% ${phrase.join(' ')} %`)],
      );
      expect(
        page.data.map((record) => record.network_slug),
        title,
      ).toEqual(firstPage.rows.map((row) => row.network_slug));
      const search = await app.request('POST', '/v1/people-search/count', { apiKey: app.apiKey, searchParams });
      const truth = await sqlCount(`SELECT count(*) AS n FROM people WHERE title_words LIKE ANY($1::text[])`, [
        // Every phrase the filter is read as (an abbreviation and its words), as the service reads it.
        titlePhrases(title).map((phrase) => `% ${phrase.join(' ')} %`),
      ]);
      expect(counted, title).toEqual({ count: truth, exact: true });
      if (truth <= exactCountBound) expect(search.body.output, title).toMatchObject({ count: truth, exact: true });
      else expect(search.body.output, title).toMatchObject({ exact: false });
    }
  });

  it('stops a count that runs past the statement timeout, as a search is stopped: 503, nothing charged', async () => {
    const client = await app.db.pool.connect();
    try {
      const searchParams = peopleSearchParams.parse({
        jobTitleV2: { included: ['sales', 'manager', 'engineer'], excluded: ['zzz'] },
      });
      await expect(countPeople(client, 1, { searchParams }, { timeoutMs: 1, bound: 1_000_000 })).rejects.toSatisfy(
        isCountTimeout,
      );
      // The connection is usable afterwards: the transaction was closed and the timeout restored.
      const setting = await client.query<{ statement_timeout: string }>('SHOW statement_timeout');
      expect(setting.rows[0]?.statement_timeout).not.toBe('1ms');
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      client.release();
    }
    const strict = await startTestApp({ env: { SEARCH_STATEMENT_TIMEOUT_MS: '1' } });
    try {
      const before = (await strict.request('GET', `/v1/credits?apiKey=${strict.apiKey}`)).body.output.balance;
      const stopped = await strict.request('POST', '/v1/people-search/count', {
        apiKey: strict.apiKey,
        searchParams: { jobTitleV2: { included: ['sales', 'manager', 'engineer'], excluded: ['zzz'] } },
      });
      expect(stopped.status).toBe(503);
      expect(stopped.body.error.code).toBe('query_timeout');
      expect(Number(stopped.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await strict.request('GET', `/v1/credits?apiKey=${strict.apiKey}`)).body.output.balance).toBe(before);
    } finally {
      await strict.stop();
    }
  });
});
