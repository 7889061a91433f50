import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, buildAudience, ok, testEnv } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Watch lists over HTTP: creating, reading, changing, pausing and deleting them; adding items by
 * every form the interface takes, with unresolved items and duplicates reported and never fatal;
 * the bounds of the inputs; another account's list answered 404; the free estimate.
 */
describe('watch lists', () => {
  let app: TestApp;
  let apiKey: string;
  let other: string;
  const people: Array<{ id: number; network_slug: string; network_user_id: number }> = [];
  const companies: Array<{ id: number; network_primary_slug: string; domain: string; network_org_id: number }> = [];

  beforeAll(async () => {
    app = await startTestApp({ env: testEnv });
    apiKey = (await app.createAccount({ credits: 10_000 })).apiKey;
    other = (await app.createAccount({ credits: 10_000 })).apiKey;
    people.push(
      ...(
        await app.db.pool.query(
          `SELECT id, network_slug, network_user_id FROM people
            WHERE network_slug IS NOT NULL AND network_user_id IS NOT NULL ORDER BY id LIMIT 4`,
        )
      ).rows,
    );
    companies.push(
      ...(
        await app.db.pool.query(
          `SELECT id, network_primary_slug, domains[1] AS domain, network_org_id FROM companies
            WHERE network_primary_slug IS NOT NULL AND network_org_id IS NOT NULL AND cardinality(domains) > 0 ORDER BY id LIMIT 3`,
        )
      ).rows,
    );
  });
  afterAll(async () => app?.stop());

  const call = (method: string, path: string, body: Record<string, unknown> = {}, key = apiKey) =>
    method === 'GET' || method === 'DELETE'
      ? app.request(method, `${path}${path.includes('?') ? '&' : '?'}apiKey=${key}`)
      : app.request(method, path, { apiKey: key, ...body });

  async function createList(body: Record<string, unknown>, key = apiKey) {
    return ok(await call('POST', '/v1/watch-lists', body, key)).body.output;
  }

  it('creates, lists, reads, renames, pauses, resumes and deletes a list', async () => {
    const created = await createList({ name: 'Champions', kind: 'people', checkEvery: 'week' });
    expect(created).toMatchObject({
      name: 'Champions',
      kind: 'people',
      checkEvery: 'week',
      paused: false,
      items: 0,
      changes: 0,
      nextCheckAt: null,
    });
    const id = created.watchListId;
    const listed = ok(await call('GET', '/v1/watch-lists?kind=people')).body.output.data;
    expect(listed.map((l: { watchListId: string }) => l.watchListId)).toContain(id);
    expect(ok(await call('GET', `/v1/watch-lists/${id}`)).body.output.name).toBe('Champions');

    const paused = ok(await call('PATCH', `/v1/watch-lists/${id}`, { paused: true, name: 'Old champions' })).body
      .output;
    expect(paused).toMatchObject({ paused: true, name: 'Old champions', checkEvery: 'week' });
    const resumed = ok(await call('PATCH', `/v1/watch-lists/${id}`, { paused: false, checkEvery: 'day' })).body.output;
    expect(resumed).toMatchObject({ paused: false, checkEvery: 'day', name: 'Old champions' });

    expect(ok(await call('DELETE', `/v1/watch-lists/${id}`)).body.output).toEqual({ watchListId: id, deleted: true });
    expect((await call('GET', `/v1/watch-lists/${id}`)).status).toBe(404);
  });

  it('reads change filters in any UTC offset ISO 8601 allows, beyond those PostgreSQL takes (found by the fuzzer: a 500)', async () => {
    const { watchListId } = await createList({ name: 'Offsets', kind: 'people', checkEvery: 'month' });
    const query = `detectedAfter=${encodeURIComponent('2026-01-30T12:16:10-23:08')}&detectedBefore=${encodeURIComponent('2999-02-28T21:25:21+18:24')}`;
    for (const path of [
      `/v1/watch-lists/${watchListId}/changes?${query}`,
      `/v1/watch-lists/${watchListId}/changes/count?${query}`,
    ]) {
      const answer = await call('GET', path);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    }
    const yearZero = await call('GET', `/v1/watch-lists/${watchListId}/changes?detectedAfter=0000-01-01T00:00:00Z`);
    expect(yearZero.status).toBe(400);
    expect(JSON.stringify(yearZero.body)).toContain('detectedAfter');
  });

  it('adds people by profile URL, slug, numeric id and bare string, reporting duplicates and unresolved items', async () => {
    const list = await createList({ name: 'People', kind: 'people', checkEvery: 'month' });
    const [a, b, c, d] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0], (typeof people)[0]];
    const response = ok(
      await call('POST', `/v1/watch-lists/${list.watchListId}/items`, {
        items: [
          { profileUrl: `https://network.example.com/in/${a.network_slug}` },
          { slug: b.network_slug },
          { id: c.network_user_id },
          d.network_slug,
          a.network_slug,
          'no-such-person-anywhere-xyz',
          { domain: 'example.com' },
        ],
      }),
    ).body.output;
    expect(response).toMatchObject({ added: 4, items: 4, duplicates: [4] });
    expect(response.unresolved).toEqual([
      { index: 5, input: 'no-such-person-anywhere-xyz', reason: expect.stringMatching(/no person matches/) },
      { index: 6, input: 'example.com', reason: expect.stringMatching(/people list takes/) },
    ]);
    // Adding the same again adds nothing and reports them all as duplicates.
    const again = ok(
      await call('POST', `/v1/watch-lists/${list.watchListId}/items`, { items: [{ slug: a.network_slug }] }),
    ).body.output;
    expect(again).toMatchObject({ added: 0, items: 4, duplicates: [0], unresolved: [] });

    const items = ok(await call('GET', `/v1/watch-lists/${list.watchListId}/items?pageSize=2`)).body.output;
    expect(items.data).toHaveLength(2);
    expect(items.data[0]).toMatchObject({ catalogId: String(a.id), failedChecks: 0 });
    expect(items.nextCursor).toEqual(expect.any(String));
    const rest = ok(
      await call('GET', `/v1/watch-lists/${list.watchListId}/items?pageSize=2&cursor=${items.nextCursor}`),
    ).body.output;
    expect(rest.data.map((i: { catalogId: string }) => i.catalogId)).toEqual([String(c.id), String(d.id)]);

    const removed = ok(
      await call('POST', `/v1/watch-lists/${list.watchListId}/items/remove`, {
        items: [d.network_slug],
        itemIds: [items.data[1].itemId],
      }),
    ).body.output;
    expect(removed).toMatchObject({ removed: 2, notFound: 0 });
    expect(ok(await call('GET', `/v1/watch-lists/${list.watchListId}`)).body.output.items).toBe(2);
  });

  it('adds companies by domain, company URL, slug and organisation id', async () => {
    const list = await createList({
      name: 'Accounts',
      kind: 'companies',
      checkEvery: 'week',
      headcountChangeThreshold: 20,
    });
    expect(list.headcountChangeThreshold).toBe(20);
    const [a, b, c] = companies as [(typeof companies)[0], (typeof companies)[0], (typeof companies)[0]];
    const response = ok(
      await call('POST', `/v1/watch-lists/${list.watchListId}/items`, {
        items: [
          { domain: `https://www.${a.domain}/about` },
          `https://network.example.com/company/${b.network_primary_slug}`,
          { id: String(c.network_org_id) },
          { profileUrl: 'https://network.example.com/in/someone' },
        ],
      }),
    ).body.output;
    expect(response).toMatchObject({ added: 3, duplicates: [] });
    expect(response.unresolved).toEqual([
      { index: 3, input: 'https://network.example.com/in/someone', reason: expect.stringMatching(/companies list/) },
    ]);
  });

  it('estimates the cost of a period for free, and nothing while paused', async () => {
    const list = await createList({ name: 'Estimate', kind: 'people', checkEvery: 'week' });
    await call('PATCH', `/v1/watch-lists/${list.watchListId}`, { paused: true });
    ok(
      await call('POST', `/v1/watch-lists/${list.watchListId}/items`, {
        items: people.slice(0, 3).map((p) => p.network_slug),
      }),
    );
    const before = await balanceOf(app, apiKey);
    const paused = ok(await call('GET', `/v1/watch-lists/${list.watchListId}/cost-estimate?period=month`)).body;
    expect(paused.output).toMatchObject({ items: 3, paused: true, totalCredits: 0 });
    expect(paused.chargeInfo.method).toBe('free');
    // Paused: nothing is checked, so nothing moves the balance.
    expect(await balanceOf(app, apiKey)).toBe(before);
    await call('PATCH', `/v1/watch-lists/${list.watchListId}`, { paused: false });
    const month = ok(await call('GET', `/v1/watch-lists/${list.watchListId}/cost-estimate`)).body.output;
    expect(month).toMatchObject({ period: 'month', items: 3, checksPerItem: 5, creditsPerCheck: 1, totalCredits: 15 });
    const day = ok(await call('GET', `/v1/watch-lists/${list.watchListId}/cost-estimate?period=day`)).body.output;
    expect(day.totalCredits).toBe(3);
  });

  it("adds a built audience's prospects or companies by the list's kind, counting repeats and records not checkable", async () => {
    const { audienceId } = await buildAudience(app, apiKey, {
      filters: { companySearchParams: { headquartersCountryCode: ['US'] }, maxCompanies: 4, maxProspects: 10 },
    });
    const draft = ok(await call('POST', '/v1/audiences/create', { name: 'Not built', creationMethod: 'NORMAL' })).body
      .output.audienceId;
    const members = async (
      table: 'audience_prospects' | 'audience_companies',
      column: string,
      records: string,
      slug: string,
      networkId: string,
    ) =>
      (
        await app.db.pool.query<{ id: number; checkable: boolean }>(
          `SELECT r.id, (r.${slug} IS NOT NULL OR r.${networkId} IS NOT NULL) AS checkable
             FROM ${table} a JOIN ${records} r ON r.id = a.${column} WHERE a.audience_id = $1 ORDER BY r.id`,
          [audienceId],
        )
      ).rows;
    const prospects = await members('audience_prospects', 'person_id', 'people', 'network_slug', 'network_user_id');
    const firms = await members(
      'audience_companies',
      'company_id',
      'companies',
      'network_primary_slug',
      'network_org_id',
    );
    expect(prospects.length).toBeGreaterThan(1);
    expect(firms.length).toBeGreaterThan(1);

    const people = await createList({ name: 'Audience people', kind: 'people', checkEvery: 'week' });
    const checkable = prospects.filter((p) => p.checkable);
    // One of them is on the list already. Paused, so that no check is charged meanwhile: adding is free.
    ok(await call('PATCH', `/v1/watch-lists/${people.watchListId}`, { paused: true }));
    ok(await call('POST', `/v1/watch-lists/${people.watchListId}/items`, { items: [String(checkable[0]?.id)] }));
    const before = await balanceOf(app, apiKey);
    const answer = ok(
      await call('POST', `/v1/watch-lists/${people.watchListId}/items/from-audience`, { audienceId }),
    ).body;
    expect(await balanceOf(app, apiKey)).toBe(before);
    const added = answer.output;
    expect(added).toEqual({
      watchListId: people.watchListId,
      audienceId,
      records: prospects.length,
      added: checkable.length - 1,
      items: checkable.length,
      alreadyInList: 1,
      notCheckable: prospects.length - checkable.length,
    });
    const items = ok(await call('GET', `/v1/watch-lists/${people.watchListId}/items?pageSize=100`)).body.output.data;
    expect(items.map((i: { catalogId: string }) => Number(i.catalogId)).sort((a: number, b: number) => a - b)).toEqual(
      checkable.map((p) => p.id),
    );
    // Again: nothing new.
    const again = ok(await call('POST', `/v1/watch-lists/${people.watchListId}/items/from-audience`, { audienceId }))
      .body.output;
    expect(again).toMatchObject({ added: 0, alreadyInList: checkable.length, items: checkable.length });

    const companiesList = await createList({ name: 'Audience companies', kind: 'companies', checkEvery: 'month' });
    const addedCompanies = ok(
      await call('POST', `/v1/watch-lists/${companiesList.watchListId}/items/from-audience`, { audienceId }),
    ).body.output;
    expect(addedCompanies).toMatchObject({
      records: firms.length,
      added: firms.filter((c) => c.checkable).length,
      notCheckable: firms.filter((c) => !c.checkable).length,
    });

    const unbuilt = await call('POST', `/v1/watch-lists/${people.watchListId}/items/from-audience`, {
      audienceId: draft,
    });
    expect(unbuilt.status).toBe(400);
    expect(unbuilt.body.error.code).toBe('invalid_state');
    expect(unbuilt.body.error.message).toContain('DRAFT');
    const strangers = await call(
      'POST',
      `/v1/watch-lists/${people.watchListId}/items/from-audience`,
      { audienceId },
      other,
    );
    expect(strangers.status).toBe(404);
    const otherList = await createList({ name: 'Theirs', kind: 'people', checkEvery: 'day' }, other);
    const notTheirAudience = await call(
      'POST',
      `/v1/watch-lists/${otherList.watchListId}/items/from-audience`,
      { audienceId },
      other,
    );
    expect(notTheirAudience.status).toBe(404);
    expect(notTheirAudience.body.error.message).toContain('Audience');
    expect(ok(await call('GET', `/v1/watch-lists/${otherList.watchListId}`, {}, other)).body.output.items).toBe(0);
    ok(await call('DELETE', `/v1/watch-lists/${otherList.watchListId}`, {}, other));
    const missing = await call('POST', `/v1/watch-lists/${people.watchListId}/items/from-audience`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.issues.map((i: { field: string }) => i.field)).toContain('audienceId');
  });

  it("answers 404 for another account's list on every operation, and changes nothing", async () => {
    const list = await createList({ name: 'Mine', kind: 'people', checkEvery: 'day' });
    const id = list.watchListId;
    const attempts: Array<[string, string, Record<string, unknown>?]> = [
      ['GET', `/v1/watch-lists/${id}`],
      ['PATCH', `/v1/watch-lists/${id}`, { paused: true }],
      ['POST', `/v1/watch-lists/${id}/items`, { items: [people[0]?.network_slug] }],
      ['POST', `/v1/watch-lists/${id}/items/remove`, { items: [people[0]?.network_slug] }],
      ['POST', `/v1/watch-lists/${id}/items/from-audience`, { audienceId: '1' }],
      ['GET', `/v1/watch-lists/${id}/items`],
      ['GET', `/v1/watch-lists/${id}/cost-estimate`],
      ['GET', `/v1/watch-lists/${id}/changes`],
      ['GET', `/v1/watch-lists/${id}/changes/count`],
      ['DELETE', `/v1/watch-lists/${id}`],
    ];
    for (const [method, path, body] of attempts) {
      const response = await call(method, path, body ?? {}, other);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect(ok(await call('GET', `/v1/watch-lists/${id}`)).body.output).toMatchObject({ paused: false, items: 0 });
    expect(ok(await call('GET', '/v1/watch-lists', {}, other)).body.output.data).toEqual([]);
  });

  it('refuses bad input with a 400 naming the field, and creates nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x', kind: 'prospects', checkEvery: 'day' }, 'kind'],
      [{ name: 'x', kind: 'people', checkEvery: 'hourly' }, 'checkEvery'],
      [{ name: 'x'.repeat(201), kind: 'people', checkEvery: 'day' }, 'name'],
      [{ name: 'x', kind: 'people', checkEvery: 'day', headcountChangeThreshold: 10 }, 'headcountChangeThreshold'],
      [{ name: 'x', kind: 'companies', checkEvery: 'day', headcountChangeThreshold: 0 }, 'headcountChangeThreshold'],
    ];
    const before = ok(await call('GET', '/v1/watch-lists?pageSize=100')).body.output.data.length;
    for (const [body, field] of cases) {
      const response = await call('POST', '/v1/watch-lists', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(response.body.error), JSON.stringify(body)).toContain(field);
    }
    expect(ok(await call('GET', '/v1/watch-lists?pageSize=100')).body.output.data.length).toBe(before);

    const list = await createList({ name: 'Bounds', kind: 'people', checkEvery: 'day' });
    const tooMany = await call('POST', `/v1/watch-lists/${list.watchListId}/items`, {
      items: Array.from({ length: 1001 }, (_, i) => `person-${i}`),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.details.issues[0]).toMatchObject({ field: 'items' });
    expect(tooMany.body.error.details.issues[0].message).toMatch(/at most 1000 items/);
    const tooLong = await call('POST', `/v1/watch-lists/${list.watchListId}/items`, { items: ['x'.repeat(501)] });
    expect(tooLong.status).toBe(400);
    const badKind = await call('GET', `/v1/watch-lists/${list.watchListId}/changes?kind=promoted`);
    expect(badKind.status).toBe(400);
    expect(JSON.stringify(badKind.body.error)).toContain('kind');
    expect((await call('GET', '/v1/watch-lists/abc')).status).toBe(400);
    expect(ok(await call('GET', `/v1/watch-lists/${list.watchListId}`)).body.output.items).toBe(0);
  });
});
