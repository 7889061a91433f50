import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAudience, ok, testEnv } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Exclusion lists, whole: entries kept as given (unmatched ones too), matched the way search
 * matches, read back paged, added and removed, deleted; lists made from an audience; and
 * audiences that leave out what the lists hold. Another account's list is a 404 everywhere.
 */
describe('exclusion lists', () => {
  let app: TestApp;
  let companies: Array<{ id: number; domain: string; slug: string; name: string }>;
  beforeAll(async () => {
    app = await startTestApp({ env: testEnv });
    companies = (
      await app.db.pool.query<{ id: number; domain: string; slug: string; name: string }>(
        `SELECT id, domains[1] AS domain, network_primary_slug AS slug, preferred_name AS name FROM companies
        WHERE cardinality(domains) > 0 AND network_primary_slug IS NOT NULL AND country_code = 'US' ORDER BY id LIMIT 6`,
      )
    ).rows;
  });
  afterAll(async () => app?.stop());

  const post = (path: string, body: Record<string, unknown>, apiKey = app.apiKey) =>
    app.request('POST', path, { apiKey, ...body });
  const get = (path: string, apiKey = app.apiKey) =>
    app.request('GET', `${path}${path.includes('?') ? '&' : '?'}apiKey=${apiKey}`);
  const searchIds = async (body: Record<string, unknown>): Promise<string[]> =>
    ok(await post('/v1/company-search', { pageSize: 1000, ...body })).body.output.data.map(
      (c: { last_sort_key: string }) => c.last_sort_key,
    );

  it('keeps every entry, matched the way search matches, and reports the ones that matched nothing', async () => {
    const [a, b] = companies as [(typeof companies)[0], (typeof companies)[0]];
    const created = await post('/v1/exclusion-lists', {
      name: 'CRM accounts',
      kind: 'companies',
      companies: [
        { domain: `https://www.${a.domain.toUpperCase()}/pricing` },
        { networkSlugOrURL: `https://network.example.com/company/${b.slug}/` },
        { domain: 'not-a-customer-anywhere.example' },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.output).toMatchObject({
      kind: 'companies',
      size: 2,
      entries: 3,
      unmatchedEntries: 1,
      unmatched: [2],
    });
    const id = created.body.output.exclusionListId;

    const entries = ok(await get(`/v1/exclusion-lists/${id}/entries`)).body.output;
    expect(entries.data.map((e: { company: unknown; matched: boolean }) => [e.company, e.matched])).toEqual([
      [{ domain: `https://www.${a.domain.toUpperCase()}/pricing` }, true],
      [{ networkSlugOrURL: `https://network.example.com/company/${b.slug}/` }, true],
      [{ domain: 'not-a-customer-anywhere.example' }, false],
    ]);
    const unmatched = ok(await get(`/v1/exclusion-lists/${id}/entries?onlyUnmatched=true`)).body.output.data;
    expect(unmatched.map((e: { company: { domain: string } }) => e.company.domain)).toEqual([
      'not-a-customer-anywhere.example',
    ]);

    const domains = companies.map((c) => c.domain);
    const everyone = await searchIds({ searchParams: { domains } });
    const filtered = await searchIds({ searchParams: { domains }, companyExclusionListIDs: [id] });
    expect(everyone).toContain(String(a.id));
    expect(filtered).not.toContain(String(a.id));
    expect(filtered).not.toContain(String(b.id));
    expect(filtered.length).toBe(everyone.length - 2);
  });

  it('adds entries (a duplicate written another way is kept once) and removes them by reference or entryId', async () => {
    const [, , c, d] = companies as Array<(typeof companies)[0]>;
    const id = ok(await post('/v1/exclusion-lists', { name: 'grows', kind: 'companies', companies: [] })).body.output
      .exclusionListId;
    const added = ok(
      await post(`/v1/exclusion-lists/${id}/entries`, {
        companies: [
          { domain: c!.domain },
          { domain: `www.${c!.domain}` },
          { name: d!.name.toUpperCase() },
          { networkSlugOrURL: d!.slug },
        ],
      }),
    ).body.output;
    expect(added).toMatchObject({ added: 3, duplicates: [1], unmatched: [], entries: 3 });
    expect(added.size).toBeGreaterThanOrEqual(2);
    expect(
      await searchIds({ searchParams: { domains: [c!.domain, d!.domain] }, companyExclusionListIDs: [id] }),
    ).toEqual([]);

    // d is matched by two entries: removing one keeps it excluded.
    const removedBySlug = ok(
      await post(`/v1/exclusion-lists/${id}/entries/remove`, {
        companies: [{ networkSlugOrURL: `https://network.example.com/company/${d!.slug}` }],
      }),
    ).body.output;
    expect(removedBySlug).toMatchObject({ removed: 1, notFound: 0, entries: 2 });
    expect(await searchIds({ searchParams: { domains: [d!.domain] }, companyExclusionListIDs: [id] })).toEqual([]);

    const entries = ok(await get(`/v1/exclusion-lists/${id}/entries`)).body.output.data as Array<{
      entryId: string;
      company: Record<string, string>;
    }>;
    const byName = entries.find((e) => e.company.name !== undefined) as { entryId: string };
    const removedById = ok(
      await post(`/v1/exclusion-lists/${id}/entries/remove`, { entryIds: [byName.entryId, '999999'] }),
    ).body.output;
    expect(removedById).toMatchObject({ removed: 1, notFound: 1, entries: 1 });
    expect(await searchIds({ searchParams: { domains: [d!.domain] }, companyExclusionListIDs: [id] })).toEqual([
      String(d!.id),
    ]);
  });

  it('pages entries with a cursor bound to the list', async () => {
    const prospects = (
      await app.db.pool.query<{ network_slug: string }>(
        'SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT 7',
      )
    ).rows.map((r) => r.network_slug);
    const id = ok(
      await post('/v1/exclusion-lists', {
        name: 'people',
        kind: 'prospects',
        prospects: [...prospects, 'nobody-has-this-slug'],
      }),
    ).body.output.exclusionListId;
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const response = ok(
        await get(`/v1/exclusion-lists/${id}/entries?pageSize=3${cursor ? `&cursor=${cursor}` : ''}`),
      );
      seen.push(...response.body.output.data.map((e: { prospect: string }) => e.prospect));
      cursor = response.body.output.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual([...prospects, 'nobody-has-this-slug']);
    const other = ok(
      await post('/v1/exclusion-lists', { name: 'other', kind: 'prospects', prospects: prospects.slice(0, 1) }),
    ).body.output.exclusionListId;
    const first = ok(await get(`/v1/exclusion-lists/${id}/entries?pageSize=3`)).body.output.nextCursor;
    const mismatch = await get(`/v1/exclusion-lists/${other}/entries?pageSize=3&cursor=${first}`);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe('cursor_mismatch');
  });

  it("lists the account's lists newest first, by kind, and deletes one (searches naming it then get 404)", async () => {
    const id = ok(
      await post('/v1/exclusion-lists', {
        name: 'to delete',
        kind: 'companies',
        companies: [{ domain: companies[5]!.domain }],
      }),
    ).body.output.exclusionListId;
    const listed = ok(await get('/v1/exclusion-lists?kind=companies')).body.output.data;
    expect(listed[0]).toMatchObject({ exclusionListId: id, name: 'to delete', kind: 'companies', size: 1, entries: 1 });
    expect(listed.every((l: { kind: string }) => l.kind === 'companies')).toBe(true);
    const deleted = await app.request('DELETE', `/v1/exclusion-lists/${id}?apiKey=${app.apiKey}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.output).toEqual({ exclusionListId: id, deleted: true });
    expect((await get(`/v1/exclusion-lists/${id}/entries`)).status).toBe(404);
    expect((await post('/v1/company-search', { searchParams: {}, companyExclusionListIDs: [id] })).status).toBe(404);
    const rows = await app.db.pool.query(
      'SELECT 1 FROM exclusion_list_items WHERE list_id = $1 UNION ALL SELECT 1 FROM exclusion_list_entries WHERE list_id = $1',
      [Number(id)],
    );
    expect(rows.rowCount).toBe(0);
  });

  it('refuses entries of the wrong kind and bad input with a 400 naming the field', async () => {
    const id = ok(await post('/v1/exclusion-lists', { name: 'companies only', kind: 'companies', companies: [] })).body
      .output.exclusionListId;
    const wrongKind = await post(`/v1/exclusion-lists/${id}/entries`, { prospects: ['someone'] });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error.details.issues[0].field).toBe('prospects');
    const empty = await post(`/v1/exclusion-lists/${id}/entries`, { companies: [{}] });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details.issues[0].field).toBe('companies.0');
    const badId = await get('/v1/exclusion-lists/abc/entries');
    expect(badId.status).toBe(400);
    expect(badId.body.error.details.issues[0].field).toBe('exclusionListId');
    const tooMany = await post(`/v1/exclusion-lists/${id}/entries`, {
      companies: Array.from({ length: 10_001 }, (_, i) => ({ domain: `d${i}.example` })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.issues[0].field).toBe('companies');
  });

  it("answers 404 for another account's list on every operation, and changes nothing", async () => {
    const other = await app.createAccount();
    const theirs = ok(
      await post(
        '/v1/exclusion-lists',
        { name: 'theirs', kind: 'companies', companies: [{ domain: companies[0]!.domain }] },
        other.apiKey,
      ),
    ).body.output.exclusionListId;
    expect((await get(`/v1/exclusion-lists/${theirs}/entries`)).status).toBe(404);
    expect((await post(`/v1/exclusion-lists/${theirs}/entries`, { companies: [{ domain: 'x.example' }] })).status).toBe(
      404,
    );
    expect(
      (await post(`/v1/exclusion-lists/${theirs}/entries/remove`, { companies: [{ domain: companies[0]!.domain }] }))
        .status,
    ).toBe(404);
    expect((await app.request('DELETE', `/v1/exclusion-lists/${theirs}?apiKey=${app.apiKey}`)).status).toBe(404);
    expect(
      ok(await get('/v1/exclusion-lists')).body.output.data.map((l: { exclusionListId: string }) => l.exclusionListId),
    ).not.toContain(theirs);
    const still = ok(await get(`/v1/exclusion-lists/${theirs}/entries`, other.apiKey)).body.output.data;
    expect(still).toHaveLength(1);
  });

  it('makes a list from an audience, and an audience built with lists leaves their records out', async () => {
    const first = await buildAudience(app, app.apiKey, {
      filters: {
        companySearchParams: { headquartersCountryCode: ['US'] },
        prospectSearchParams: {},
        maxCompanies: 5,
        maxProspects: 20,
      },
    });
    const companyList = ok(
      await post('/v1/exclusion-lists/from-audience', {
        audienceId: first.audienceId,
        kind: 'companies',
        name: 'first five',
      }),
    ).body.output;
    expect(companyList).toMatchObject({ kind: 'companies', size: 5, entries: 5, unmatchedEntries: 0 });
    const prospectList = ok(
      await post('/v1/exclusion-lists/from-audience', {
        audienceId: first.audienceId,
        kind: 'prospects',
        name: 'first prospects',
      }),
    ).body.output;
    expect(prospectList.size).toBe(first.status.numProspects);
    const firstCompanies = ok(
      await get(`/v1/audiences/${first.audienceId}/companies?pageSize=100`),
    ).body.output.data.map((c: { last_sort_key: string }) => c.last_sort_key);

    const created = ok(await post('/v1/audiences/create', { name: 'next five' })).body.output.audienceId;
    const params = ok(
      await app.request('PATCH', `/v1/audiences/${created}/search-params`, {
        apiKey: app.apiKey,
        companySearchParams: { headquartersCountryCode: ['US'] },
        maxCompanies: 5,
        maxProspects: 20,
        companyExclusionListIDs: [companyList.exclusionListId],
      }),
    ).body.output;
    expect(params.companyExclusionListIDs).toEqual([companyList.exclusionListId]);
    ok(await post(`/v1/audiences/${created}/build`, {}));
    const { waitFor } = await import('../audiences/helpers.js');
    await waitFor(
      'the second build',
      async () => ok(await get(`/v1/audiences/${created}`)).body.output.status === 'NORMAL',
    );
    const secondCompanies = ok(await get(`/v1/audiences/${created}/companies?pageSize=100`)).body.output.data.map(
      (c: { last_sort_key: string }) => c.last_sort_key,
    );
    expect(secondCompanies).toHaveLength(5);
    expect(secondCompanies.filter((id: string) => firstCompanies.includes(id))).toEqual([]);

    // A list of another account, or of the wrong kind, is refused when the filters are set.
    const other = await app.createAccount();
    const theirs = ok(
      await post('/v1/exclusion-lists', { name: 'theirs', kind: 'companies', companies: [] }, other.apiKey),
    ).body.output.exclusionListId;
    const draft = ok(await post('/v1/audiences/create', { name: 'refused lists' })).body.output.audienceId;
    const foreign = await app.request('PATCH', `/v1/audiences/${draft}/search-params`, {
      apiKey: app.apiKey,
      companySearchParams: {},
      companyExclusionListIDs: [theirs],
    });
    expect(foreign.status).toBe(404);
    const wrongKind = await app.request('PATCH', `/v1/audiences/${draft}/search-params`, {
      apiKey: app.apiKey,
      companySearchParams: {},
      prospectExclusionListIDs: [companyList.exclusionListId],
    });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.error.details.issues[0].field).toBe('prospectExclusionListIDs');
    // From an audience that is not built: invalid_state.
    const notBuilt = await post('/v1/exclusion-lists/from-audience', {
      audienceId: draft,
      kind: 'companies',
      name: 'x',
    });
    expect(notBuilt.status).toBe(400);
    expect(notBuilt.body.error.code).toBe('invalid_state');
  });
});
