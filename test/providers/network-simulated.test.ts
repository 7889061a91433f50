import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driftHeadcount, promotedTitle, SimulatedNetworkSource } from '../../src/providers/network/simulated-source.js';
import { NetworkSourceError } from '../../src/core/ports/network-source.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

let database: TestDatabase;

let stored: Date;
beforeAll(async () => {
  database = await createTestDatabase('seeded');
  stored = await storedAt('people');
});
afterAll(async () => database?.drop());

const bands = [
  [1, 10],
  [11, 50],
  [51, 200],
  [201, 500],
  [501, 1000],
  [1001, 5000],
  [5001, 10000],
  [10001, 1000000],
];
const dayMs = 86_400_000;
/** When the seeded rows were stored: the simulated network drifts from there. */
async function storedAt(table: 'companies' | 'people'): Promise<Date> {
  return (await database.db.pool.query<{ at: Date }>(`SELECT max(updated_at) AS at FROM ${table}`)).rows[0]!.at;
}
const later = (from: Date, days: number) => new Date(from.getTime() + days * dayMs);

describe('SimulatedNetworkSource', () => {
  it('answers the same at the same time and moves headcount across the network bands over months', async () => {
    const companies = (
      await database.db.pool.query<{
        id: number;
        network_primary_slug: string;
        employee_count_min: number;
        employee_count_max: number;
      }>(
        `SELECT id, network_primary_slug, employee_count_min, employee_count_max FROM companies
          WHERE network_primary_slug IS NOT NULL ORDER BY id LIMIT 200`,
      )
    ).rows;
    const halfYear = new SimulatedNetworkSource(database.db.pool, {
      failureRate: 0,
      latencyMs: 0,
      now: () => later(stored, 180),
    });
    const today = new SimulatedNetworkSource(database.db.pool, { failureRate: 0, latencyMs: 0, now: () => stored });
    let changed = 0;
    for (const company of companies) {
      const first = await halfYear.fetchCompany({ slug: company.network_primary_slug });
      const again = await halfYear.fetchCompany({ slug: company.network_primary_slug });
      expect(again).toEqual(first);
      expect(bands).toContainEqual([first?.employeeCountMin, first?.employeeCountMax]);
      if (first?.employeeCountMin !== company.employee_count_min) changed++;
      // On the day it was stored, the network says what is stored.
      const now = await today.fetchCompany({ slug: company.network_primary_slug });
      expect([now?.employeeCountMin, now?.employeeCountMax]).toEqual([
        company.employee_count_min,
        company.employee_count_max,
      ]);
    }
    // A few percent a month moves some companies across a band edge in half a year, not most.
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThan(companies.length / 2);
  });

  it('over a year moves a share of people to other companies and promotes some, closing the old position', async () => {
    const people = (
      await database.db.pool.query<{ network_slug: string; title: string; company_slug: string | null }>(
        'SELECT network_slug, title, company_slug FROM people WHERE network_slug IS NOT NULL ORDER BY id LIMIT 300',
      )
    ).rows;
    const year = later(stored, 365);
    const source = new SimulatedNetworkSource(database.db.pool, { failureRate: 0, latencyMs: 0, now: () => year });
    let moved = 0;
    let promoted = 0;
    for (const person of people) {
      const live = await source.fetchProfile({ slug: person.network_slug });
      expect(await source.fetchProfile({ slug: person.network_slug })).toEqual(live);
      const current = live?.workExperiences.filter((p) => p.is_current) ?? [];
      if (live?.currentCompany?.slug !== person.company_slug) {
        moved++;
        expect(current[0]).toMatchObject({ company_slug: live?.currentCompany?.slug, end_date: null });
        const start = current[0]?.start_date ?? '';
        expect(start > stored.toISOString().slice(0, 10) && start <= year.toISOString().slice(0, 10)).toBe(true);
        expect(live?.workExperiences.filter((p) => p.end_date === start).length).toBeGreaterThan(0);
      } else if (live?.title !== person.title) {
        promoted++;
        expect(live?.title).toMatch(/^(Senior|Lead) /);
        expect(current).toHaveLength(1);
        expect(current[0]?.title).toBe(live?.title);
      }
    }
    // About one in five change employer in a year; fewer are promoted where they are.
    expect(moved).toBeGreaterThan(people.length / 10);
    expect(moved).toBeLessThan(people.length / 2);
    expect(promoted).toBeGreaterThan(0);
    expect(promoted).toBeLessThan(moved);
  });

  it('raises rounds up the funding ladder and moves or renames a few companies over the years', async () => {
    const companies = (
      await database.db.pool.query<{ network_primary_slug: string; preferred_name: string; city: string | null }>(
        'SELECT network_primary_slug, preferred_name, city FROM companies WHERE network_primary_slug IS NOT NULL ORDER BY id LIMIT 300',
      )
    ).rows;
    const source = new SimulatedNetworkSource(database.db.pool, {
      failureRate: 0,
      latencyMs: 0,
      now: () => later(stored, 3 * 365),
    });
    let raised = 0;
    let movedOrRenamed = 0;
    for (const company of companies) {
      const live = await source.fetchCompany({ slug: company.network_primary_slug });
      const announced = live?.latestFunding?.announcedOn;
      if (announced && announced > stored.toISOString().slice(0, 10)) {
        raised++;
        expect(live?.latestFunding?.amountUsd).toBeGreaterThan(0);
      }
      if (live?.name !== company.preferred_name || live?.city !== company.city) movedOrRenamed++;
    }
    expect(raised).toBeGreaterThan(0);
    expect(raised).toBeLessThan(companies.length / 2);
    expect(movedOrRenamed).toBeGreaterThan(0);
    expect(movedOrRenamed).toBeLessThan(companies.length / 4);
  });

  it('finds a company by organisation id and a profile by user id, and answers null for unknown ones', async () => {
    const company = (
      await database.db.pool.query<{ network_org_id: number; preferred_name: string }>(
        'SELECT network_org_id, preferred_name FROM companies ORDER BY id LIMIT 1',
      )
    ).rows[0];
    const person = (
      await database.db.pool.query<{ network_user_id: number; first_name: string }>(
        'SELECT network_user_id, first_name FROM people ORDER BY id LIMIT 1',
      )
    ).rows[0];
    const source = new SimulatedNetworkSource(database.db.pool, { failureRate: 0, latencyMs: 0 });
    expect((await source.fetchCompany({ orgId: company?.network_org_id }))?.name).toBe(company?.preferred_name);
    expect((await source.fetchProfile({ userId: person?.network_user_id }))?.firstName).toBe(person?.first_name);
    expect(await source.fetchCompany({ slug: 'no-such-company-anywhere' })).toBeNull();
    expect(await source.fetchProfile({ slug: 'no-such-person-anywhere' })).toBeNull();
    expect(await source.fetchProfile({})).toBeNull();
  });

  it('has nothing new to say about a record stored today', async () => {
    const company = (
      await database.db.pool.query<{ id: number; network_primary_slug: string }>(
        'SELECT id, network_primary_slug FROM companies ORDER BY id DESC LIMIT 1',
      )
    ).rows[0];
    const today = new Date();
    const source = new SimulatedNetworkSource(database.db.pool, { failureRate: 0, latencyMs: 0, now: () => today });
    await database.db.pool.query(
      'UPDATE companies SET employee_count_min = 23, employee_count_max = 34, updated_at = now(), live_fetched_at = now() WHERE id = $1',
      [company?.id],
    );
    const live = await source.fetchCompany({ slug: company?.network_primary_slug });
    expect([live?.employeeCountMin, live?.employeeCountMax]).toEqual([23, 34]);
  });

  it('fails at the configured rate with a NetworkSourceError, and times out through the signal', async () => {
    const slug = (
      await database.db.pool.query<{ s: string }>('SELECT network_primary_slug AS s FROM companies LIMIT 1')
    ).rows[0]?.s;
    const always = new SimulatedNetworkSource(database.db.pool, { failureRate: 1, latencyMs: 0 });
    await expect(always.fetchCompany({ slug })).rejects.toBeInstanceOf(NetworkSourceError);
    const sequence = [0.05, 0.5];
    const tenth = new SimulatedNetworkSource(database.db.pool, {
      failureRate: 0.1,
      latencyMs: 0,
      random: () => sequence.shift() ?? 0.9,
    });
    await expect(tenth.fetchProfile({ slug: 'whoever' })).rejects.toThrow(/simulated network outage/);
    await expect(tenth.fetchCompany({ slug })).resolves.not.toBeNull();
    const slow = new SimulatedNetworkSource(database.db.pool, { failureRate: 0, latencyMs: 5_000 });
    const started = Date.now();
    await expect(slow.fetchCompany({ slug }, AbortSignal.timeout(100))).rejects.toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('drift rules', () => {
  it('keeps band edges, grows steadily with time, and scales ranges that are not bands', () => {
    let movedInAMonth = 0;
    let movedInFiveYears = 0;
    for (let id = 1; id < 500; id++) {
      expect(driftHeadcount(id, 51, 200, 0)).toEqual({ min: 51, max: 200 });
      const month = driftHeadcount(id, 51, 200, 30);
      expect(bands).toContainEqual([month.min, month.max]);
      if (month.min !== 51) movedInAMonth++;
      if (driftHeadcount(id, 51, 200, 5 * 365).min !== 51) movedInFiveYears++;
    }
    expect(movedInAMonth).toBeLessThan(movedInFiveYears);
    const scaled = driftHeadcount(7, 100, 120, 30);
    expect(scaled.min).toBeGreaterThanOrEqual(98);
    expect(scaled.min).toBeLessThanOrEqual(104);
    expect(scaled.max).toBeGreaterThanOrEqual(scaled.min as number);
    expect(driftHeadcount(7, null, null, 30)).toEqual({ min: null, max: null });
  });

  it('promotes one step, and not past the top of the ladder', () => {
    expect(promotedTitle('Software Engineer')).toBe('Senior Software Engineer');
    expect(promotedTitle('Senior Software Engineer')).toBe('Lead Software Engineer');
    expect(promotedTitle('Sr. Designer')).toBe('Lead Designer');
    expect(promotedTitle('Engineering Manager')).toBeNull();
    expect(promotedTitle('VP Sales')).toBeNull();
    expect(promotedTitle('CEO')).toBeNull();
    expect(promotedTitle('')).toBeNull();
  });
});
