import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyAuthenticator } from '../../src/auth/api-key-authenticator.js';
import { loadConfig } from '../../src/config.js';
import type { AppContext, ServiceBase } from '../../src/context.js';
import { networkAudienceLiveSource, waterfallAudienceContactSource } from '../../src/core/contacts/audience-sources.js';
import { ContactValidator, EmbeddedMailDomainChecker } from '../../src/core/contacts/validation.js';
import { ContactWaterfall } from '../../src/core/contacts/waterfall.js';
import { HttpContactProvider } from '../../src/providers/contacts/index.js';
import { loadPeopleForLookup, revealContacts } from '../../src/core/contacts/lookup.js';
import { createLogger } from '../../src/log.js';
import { buildServices } from '../../src/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startLocalServer, type LocalServer } from '../providers/local-server.js';

/** The sources audience enrichment can use, and revealContacts, on a catalog database of their own. */
let database: TestDatabase;
let vendor: LocalServer;

/** The context a service would build on this database and configuration, without its HTTP server. */
async function contextWith(env: Record<string, string> = {}): Promise<AppContext> {
  const config = loadConfig({ DATABASE_URL: database.connectionString, LOG_LEVEL: 'silent', ...env });
  const base: ServiceBase = {
    config,
    db: database.db,
    log: createLogger('silent'),
    authenticator: new ApiKeyAuthenticator(database.db.pool),
    publicUrl: 'http://127.0.0.1',
    internalUrl: 'http://127.0.0.1',
  };
  return { ...base, services: await buildServices(base, {}) };
}

beforeAll(async () => {
  database = await createTestDatabase('seeded');
  vendor = await startLocalServer(() => ({ status: 500 }));
});
afterAll(async () => {
  await vendor?.close();
  await database?.drop();
});

const has = (kind: string) =>
  `EXISTS (SELECT 1 FROM person_contacts c WHERE c.person_id = p.id AND c.kind = '${kind}')`;

async function ids(condition: string, limit: number): Promise<number[]> {
  return (
    await database.db.pool.query<{ id: number }>(
      `SELECT p.id FROM people p WHERE ${condition} ORDER BY p.id LIMIT ${limit}`,
    )
  ).rows.map((r) => r.id);
}

describe('revealContacts', () => {
  it('returns validated contacts per catalog person, only of the types asked, and skips unknown ids', async () => {
    const context = await contextWith();
    const withPhone = await ids(has('phone'), 3);
    const result = await revealContacts(context, [...withPhone, withPhone[0] as number, 999_999_999], {
      getWorkEmails: false,
      getPersonalEmails: false,
      getPhoneNumbers: true,
    });
    expect([...result.keys()].sort()).toEqual([...withPhone].sort());
    for (const id of withPhone) {
      const stored = (
        await database.db.pool.query<{ value: string }>(
          "SELECT value FROM person_contacts WHERE person_id = $1 AND kind = 'phone'",
          [id],
        )
      ).rows;
      expect(result.get(id)?.phoneNumbers).toEqual(stored.map((r) => `+${r.value.replace(/\D/g, '')}`));
      expect(result.get(id)?.workEmails).toEqual([]);
      expect(result.get(id)?.personalEmails).toEqual([]);
    }
    const ledger = await database.db.pool.query('SELECT count(*)::int AS n FROM credit_ledger');
    expect(ledger.rows[0]?.n).toBe(0);
  });
});

describe('waterfallAudienceContactSource', () => {
  it('answers found contacts only, keyed by person id', async () => {
    const context = await contextWith();
    const people = await loadPeopleForLookup(database.db.pool, await ids(has('work_email'), 4));
    const found = await waterfallAudienceContactSource(context.services.contactWaterfall).lookup(people, {
      getWorkEmails: true,
      getPersonalEmails: false,
      getPhoneNumbers: false,
    });
    expect(found.size).toBe(4);
    for (const person of people) expect(found.get(person.id)?.workEmails.length).toBeGreaterThan(0);
  });

  it('throws when no provider could be asked for anyone, so the caller retries', async () => {
    const failing = new HttpContactProvider({ baseUrl: vendor.url, timeoutMs: 500 });
    const waterfall = new ContactWaterfall([failing], new ContactValidator(new EmbeddedMailDomainChecker()));
    const people = await loadPeopleForLookup(database.db.pool, await ids('true', 2));
    await expect(
      waterfallAudienceContactSource(waterfall).lookup(people, {
        getWorkEmails: true,
        getPersonalEmails: false,
        getPhoneNumbers: false,
      }),
    ).rejects.toThrow(/every contact provider failed/);
    await failing.close();
  });
});

describe('networkAudienceLiveSource', () => {
  it('refreshes a company and a person from the network without charging', async () => {
    const context = await contextWith();
    const source = networkAudienceLiveSource(context);
    const companyId = (await database.db.pool.query<{ id: number }>('SELECT id FROM companies ORDER BY id LIMIT 1'))
      .rows[0]?.id as number;
    const personId = (await ids('true', 1))[0] as number;
    expect(await source.refreshCompany(companyId)).toBe(true);
    expect(await source.refreshPerson(personId)).toBe(true);
    const company = await database.db.pool.query('SELECT live_fetched_at FROM companies WHERE id = $1', [companyId]);
    const person = await database.db.pool.query('SELECT live_fetched_at FROM people WHERE id = $1', [personId]);
    expect(company.rows[0]?.live_fetched_at).not.toBeNull();
    expect(person.rows[0]?.live_fetched_at).not.toBeNull();
    expect(await source.refreshCompany(987_654_321)).toBe(false);
    const ledger = await database.db.pool.query('SELECT count(*)::int AS n FROM credit_ledger');
    expect(ledger.rows[0]?.n).toBe(0);
  });

  it('reports false when the live fetch fails, and throws when the caller gave up', async () => {
    const failingContext = await contextWith({ NETWORK_SOURCE_FAILURE_RATE: '1' });
    const companyId = (
      await database.db.pool.query<{ id: number }>('SELECT id FROM companies ORDER BY id OFFSET 5 LIMIT 1')
    ).rows[0]?.id as number;
    expect(await networkAudienceLiveSource(failingContext).refreshCompany(companyId)).toBe(false);
    const stored = await database.db.pool.query('SELECT live_fetched_at FROM companies WHERE id = $1', [companyId]);
    expect(stored.rows[0]?.live_fetched_at).toBeNull();
    const slowContext = await contextWith({ NETWORK_SOURCE_LATENCY_MS: '5000' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('job stopping')), 50);
    await expect(networkAudienceLiveSource(slowContext).refreshCompany(companyId, controller.signal)).rejects.toThrow(
      /job stopping/,
    );
  });
});
