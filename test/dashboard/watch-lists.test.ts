import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksPerPeriod } from '../../operations/schemas/watch-lists.js';
import type { NetworkClock } from '../../src/core/network-clock.js';
import type { NetworkSource } from '../../src/core/ports/network-source.js';
import { SimulatedNetworkSource } from '../../src/providers/network/simulated-source.js';
import type { HeadlessBrowser } from '../auth/browser.js';
import { waitFor } from '../audiences/helpers.js';
import type { TestApp } from '../helpers/app.js';
import { replaceable } from '../helpers/replaceable.js';
import { csrfOf, post, signUp, startDashboardApp, textOf } from './helpers.js';

/**
 * Watch lists in the dashboard, on the simulated network whose clock the test moves: a list is
 * created from the page (a bad kind changes nothing); people are added from pasted CSV rows, each
 * row judged as the API judges it (added, already there, unresolved with its line); the page's
 * weekly table of changes holds the numbers the checks recorded; checks pause and resume from the
 * page; another account finds no such list.
 */
const dayMs = 86_400_000;

describe('dashboard watch lists', () => {
  let app: TestApp;
  let owner: { browser: HeadlessBrowser; email: string };
  let stranger: { browser: HeadlessBrowser; email: string };
  let accountId: number;
  let at = Date.now();
  const clock: NetworkClock = {
    now: () => new Date(at),
    realMsUntil: (time) => (time.getTime() <= at ? 0 : 50),
  };
  let simulated: SimulatedNetworkSource;
  const network = replaceable<NetworkSource>(() => simulated);

  beforeAll(async () => {
    app = await startDashboardApp({ services: { networkClock: clock, networkSource: network.service } });
    simulated = new SimulatedNetworkSource(app.db.pool, { failureRate: 0, latencyMs: 0, now: () => clock.now() });
    owner = await signUp(app, undefined, 'Watching Ltd');
    stranger = await signUp(app, undefined, 'Elsewhere Ltd');
    accountId = Number((await app.db.pool.query(`SELECT id FROM accounts WHERE email = $1`, [owner.email])).rows[0].id);
  });
  afterAll(async () => {
    await app?.stop();
  });

  const stored = async (sql: string, values: unknown[] = [accountId]) => (await app.db.pool.query(sql, values)).rows;
  const listsOf = () => stored('SELECT id, paused FROM watch_lists WHERE account_id = $1 ORDER BY id');
  const checkedAt = async (listId: number, count: number, time: Date) =>
    waitFor('every item checked', async () => {
      const rows = await stored(
        'SELECT last_checked_at FROM watch_list_items WHERE account_id = $1 AND watch_list_id = $2',
        [accountId, listId],
      );
      return rows.length === count && rows.every((r) => r.last_checked_at?.getTime() === time.getTime());
    });

  it('creates a list, adds people from CSV rows with a report, shows changes by week, pauses and resumes', async () => {
    const index = await owner.browser.open(`${app.url}/dashboard/watch-lists`);
    expect(index.status).toBe(200);
    expect(textOf(index)).toContain('No watch lists yet.');
    expect(index.text).toMatch(/href="\/dashboard\/watch-lists"\s+aria-current="page"/);

    const refused = await post(owner.browser, `${app.url}/dashboard/watch-lists`, {
      csrf: csrfOf(index),
      name: 'Champions',
      kind: 'sometimes',
      checkEvery: 'day',
    });
    expect(refused.status).toBe(400);
    expect(textOf(refused)).toContain('kind');
    expect(await listsOf()).toEqual([]);

    const created = await post(owner.browser, `${app.url}/dashboard/watch-lists`, {
      csrf: csrfOf(index),
      name: 'Champions',
      kind: 'people',
      checkEvery: 'day',
    });
    const [list] = await listsOf();
    expect(created.url.pathname).toBe(`/dashboard/watch-lists/${list.id}`);
    expect(textOf(created)).toContain('A people list of 0 items, checked every day');

    const slugs = (
      await stored('SELECT network_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT 40', [])
    ).map((r) => r.network_slug as string);
    // Line 1 is the header; the people are on lines 2 to 41, then a repeat, one nobody is, and one no slug can be.
    const csv = [
      'name,profile',
      ...slugs.map((slug, i) => `Person ${i},https://www.linkedin.com/in/${slug}`),
      `Again,${slugs[0]}`,
      'Ghost,nobody-by-this-slug-zz9',
      'Broken,"not a profile, at all"',
    ].join('\n');
    const uploaded = await post(owner.browser, `${app.url}/dashboard/watch-lists/${list.id}/upload`, {
      csrf: csrfOf(created),
      csv,
    });
    expect(uploaded.status).toBe(200);
    const report = textOf(uploaded);
    expect(uploaded.text).toContain(`data-testid="added">${slugs.length}<`);
    expect(report).toContain('1 row already in the list');
    expect(uploaded.text).toContain('data-testid="unresolved">2<');
    expect(report).toMatch(/line 43: nobody-by-this-slug-zz9 — no person matches it/);
    expect(report).toContain('line 44:');
    const items = await stored('SELECT catalog_id FROM watch_list_items WHERE account_id = $1', [accountId]);
    expect(items).toHaveLength(slugs.length);
    expect(uploaded.text).toContain(
      `data-testid="monthly-cost">${(slugs.length * checksPerPeriod.day.month).toLocaleString('en')} credits<`,
    );

    // The first check records what the network says; four months on, the next finds what drifted.
    await checkedAt(list.id, slugs.length, clock.now());
    at += 120 * dayMs;
    await checkedAt(list.id, slugs.length, clock.now());
    const changes = await stored(
      'SELECT kind, count(*)::int AS n FROM watch_list_changes WHERE account_id = $1 GROUP BY kind',
      [accountId],
    );
    const total = changes.reduce((sum, r) => sum + r.n, 0);
    expect(total).toBeGreaterThan(0);

    const page = await owner.browser.open(`${app.url}/dashboard/watch-lists/${list.id}`);
    const weekTable = /<table id="changes-table">([\s\S]*?)<\/table>/.exec(page.text)?.[1] ?? '';
    const weeks = [...weekTable.matchAll(/<tr>\s*<th scope="row">(\d{4}-\d{2}-\d{2})<\/th>([\s\S]*?)<\/tr>/g)];
    expect(weeks).toHaveLength(12);
    const cells = (row: string) => [...row.matchAll(/<td class="num">(\d+)<\/td>/g)].map((m) => Number(m[1]));
    // Every change was found at the clock's time now: all in the last week, none in the eleven before.
    expect(weeks.slice(0, 11).every(([, , row]) => cells(row as string).every((n) => n === 0))).toBe(true);
    const lastWeek = cells(weeks[11]?.[2] as string);
    expect(lastWeek.at(-1)).toBe(total);
    expect(lastWeek.slice(0, -1).sort()).toEqual(changes.map((r) => r.n).sort());
    const headers = [...weekTable.matchAll(/<th scope="col">([^<]+)<\/th>/g)].map((m) => m[1]);
    expect(headers.slice(1, -1).sort()).toEqual(changes.map((r) => String(r.kind).replace(/_/g, ' ')).sort());
    expect(page.text).toContain('data-table="changes-table"');
    expect(textOf(page)).toContain(`${total} change${total === 1 ? '' : 's'} in the last 12 weeks`);
    // A job change reads as the title at the company, before and after.
    const [job] = await stored(
      `SELECT before, after FROM watch_list_changes WHERE account_id = $1 AND kind = 'job_changed' ORDER BY id DESC LIMIT 1`,
    );
    if (job)
      expect(textOf(page)).toContain(
        `${job.before.title} at ${job.before.company?.name ?? 'no company'} → ${job.after.title} at ${job.after.company?.name ?? 'no company'}`,
      );
    const newest = /<table id="watch-list-changes-table">([\s\S]*?)<\/table>/.exec(page.text)?.[1] ?? '';
    expect([...newest.matchAll(/<tr>\s*<td>/g)]).toHaveLength(Math.min(50, total));

    const paused = await post(owner.browser, `${app.url}/dashboard/watch-lists/${list.id}/pause`, {
      csrf: csrfOf(page),
    });
    expect(textOf(paused)).toContain('Checks are paused');
    expect((await listsOf())[0]?.paused).toBe(true);
    expect(textOf(paused)).toContain('Resume checks');
    const resumed = await post(owner.browser, `${app.url}/dashboard/watch-lists/${list.id}/resume`, {
      csrf: csrfOf(paused),
    });
    expect(textOf(resumed)).toContain('Checks resumed.');
    expect((await listsOf())[0]?.paused).toBe(false);

    const index2 = await owner.browser.open(`${app.url}/dashboard/watch-lists`);
    expect(index2.text).toContain(`href="/dashboard/watch-lists/${list.id}">Champions</a>`);
  });

  it('another account finds no such list, and its upload adds nothing', async () => {
    const [list] = await listsOf();
    const before = await stored('SELECT count(*)::int AS n FROM watch_list_items WHERE account_id = $1');
    const seen = await stranger.browser.open(`${app.url}/dashboard/watch-lists/${list.id}`);
    expect(seen.status).toBe(404);
    const home = await stranger.browser.open(`${app.url}/dashboard/watch-lists`);
    const upload = await post(stranger.browser, `${app.url}/dashboard/watch-lists/${list.id}/upload`, {
      csrf: csrfOf(home),
      csv: 'profile\nsomeone-new',
    });
    expect(upload.status).toBe(404);
    const paused = await post(stranger.browser, `${app.url}/dashboard/watch-lists/${list.id}/pause`, {
      csrf: csrfOf(home),
    });
    expect(paused.status).toBe(404);
    expect(await stored('SELECT count(*)::int AS n FROM watch_list_items WHERE account_id = $1')).toEqual(before);
    expect((await listsOf())[0]?.paused).toBe(false);
  });
});
