import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driftHeadcount, promotedTitle, SimulatedNetworkSource } from '../../src/providers/network/simulated-source.js';
import { NetworkSourceError } from '../../src/core/ports/network-source.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase('seeded');
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
const day = (iso: string) => new Date(`${iso}T12:00:00Z`);

describe('SimulatedNetworkSource', () => {
  it('answers the same on the same day and drifts headcount within the network bands', async () => {
    const companies = (
      await database.db.pool.query<{
        id: number;
        network_primary_slug: string;
        employee_count_min: number;
        employee_count_max: number;
      }>('SELECT id, network_primary_slug, employee_count_min, employee_count_max FROM companies ORDER BY id LIMIT 200')
    ).rows;
    const monday = new SimulatedNetworkSource(database.db.pool, {
      failureRate: 0,
      latencyMs: 0,
      now: () => day('2026-03-02'),
    });
    let changed = 0;
    for (const company of companies) {
      const first = await monday.fetchCompany({ slug: company.network_primary_slug });
      const again = await monday.fetchCompany({ slug: company.network_primary_slug });
      expect(again).toEqual(first);
      expect(bands).toContainEqual([first?.employeeCountMin, first?.employeeCountMax]);
      if (first?.employeeCountMin !== company.employee_count_min) changed++;
    }
    // A drift of a few percent moves some companies across a band edge, not most.
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThan(companies.length / 2);
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

  it('promotes some people, closing the old position and opening the new one at the same company', async () => {
    const people = (
      await database.db.pool.query<{ network_slug: string; title: string }>(
        "SELECT network_slug, title FROM people WHERE title NOT ILIKE '%manager%' AND title NOT ILIKE '%director%' ORDER BY id LIMIT 200",
      )
    ).rows;
    const source = new SimulatedNetworkSource(database.db.pool, {
      failureRate: 0,
      latencyMs: 0,
      now: () => day('2026-03-02'),
    });
    let promoted = 0;
    for (const person of people) {
      const live = await source.fetchProfile({ slug: person.network_slug });
      if (live?.title === person.title) continue;
      promoted++;
      expect(live?.title).toBe(promotedTitle(person.title));
      const current = live?.workExperiences.filter((p) => p.is_current) ?? [];
      expect(current).toHaveLength(1);
      expect(current[0]).toMatchObject({ title: live?.title, start_date: '2026-03-02', end_date: null });
      const closed = live?.workExperiences.find((p) => p.title === person.title && p.end_date === '2026-03-02');
      if (closed) expect(closed.company_name).toBe(current[0]?.company_name);
    }
    expect(promoted).toBeGreaterThan(10);
    expect(promoted).toBeLessThan(people.length / 2);
  });

  it('has nothing new to say about a record already refreshed today', async () => {
    const company = (
      await database.db.pool.query<{ id: number; network_primary_slug: string }>(
        'SELECT id, network_primary_slug FROM companies ORDER BY id DESC LIMIT 1',
      )
    ).rows[0];
    const today = new Date();
    const source = new SimulatedNetworkSource(database.db.pool, { failureRate: 0, latencyMs: 0, now: () => today });
    await database.db.pool.query(
      'UPDATE companies SET employee_count_min = 23, employee_count_max = 34, live_fetched_at = now() WHERE id = $1',
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
  it('keeps band edges and scales ranges that are not bands', () => {
    for (let id = 1; id < 500; id++) {
      const drifted = driftHeadcount(id, 51, 200, 20_000);
      expect(bands).toContainEqual([drifted.min, drifted.max]);
    }
    const scaled = driftHeadcount(7, 100, 120, 20_000);
    expect(scaled.min).toBeGreaterThanOrEqual(97);
    expect(scaled.min).toBeLessThanOrEqual(108);
    expect(scaled.max).toBeGreaterThanOrEqual(scaled.min as number);
    expect(driftHeadcount(7, null, null, 20_000)).toEqual({ min: null, max: null });
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
