import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ContactProviderError,
  DatasetContactProvider,
  guessWorkEmail,
  HttpContactProvider,
  PatternEmailProvider,
} from '../../src/providers/contacts/index.js';
import { ContactValidator, EmbeddedMailDomainChecker } from '../../src/core/contacts/validation.js';
import { ContactWaterfall } from '../../src/core/contacts/waterfall.js';
import { loadPeopleForLookup } from '../../src/core/contacts/lookup.js';
import type { PersonForLookup } from '../../src/core/ports/contact-providers.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startLocalServer, type LocalServer } from './local-server.js';

let database: TestDatabase;
let vendor: LocalServer;
const all = { getWorkEmails: true, getPersonalEmails: true, getPhoneNumbers: true };
const validator = new ContactValidator(new EmbeddedMailDomainChecker());

beforeAll(async () => {
  database = await createTestDatabase('seeded');
  vendor = await startLocalServer();
});
afterAll(async () => {
  await vendor?.close();
  await database?.drop();
});
beforeEach(() => {
  vendor.requests.length = 0;
  vendor.handler = () => ({ status: 200, json: { results: [] } });
});

/** People of the seeded catalog chosen by what the dataset knows about them. */
async function peopleWhere(condition: string, limit = 3): Promise<PersonForLookup[]> {
  const ids = await database.db.pool.query<{ id: number }>(
    `SELECT p.id FROM people p WHERE p.company_domain IS NOT NULL AND ${condition} ORDER BY p.id LIMIT ${limit}`,
  );
  return loadPeopleForLookup(
    database.db.pool,
    ids.rows.map((r) => r.id),
  );
}
const has = (kind: string) =>
  `EXISTS (SELECT 1 FROM person_contacts c WHERE c.person_id = p.id AND c.kind = '${kind}')`;
const lacks = (kind: string) => `NOT ${has(kind)}`;

async function datasetValues(personId: number, kind: string): Promise<string[]> {
  return (
    await database.db.pool.query<{ value: string }>(
      'SELECT value FROM person_contacts WHERE person_id = $1 AND kind = $2 ORDER BY value',
      [personId, kind],
    )
  ).rows.map((r) => r.value);
}

describe('HttpContactProvider', () => {
  it('posts the people and the types asked, with the key, and reads strings and objects', async () => {
    const people = await peopleWhere('true', 2);
    const [a, b] = people as [PersonForLookup, PersonForLookup];
    vendor.handler = () => ({
      status: 200,
      json: {
        results: [
          {
            ref: String(a.id),
            work_emails: ['a@vendor-match.com', { value: 'a2@vendor-match.com', confidence: 'high' }],
            phones: ['+1 415 555 0100'],
          },
          { ref: 999_999_999, work_emails: ['intruder@elsewhere.com'] },
        ],
      },
    });
    const provider = new HttpContactProvider({ baseUrl: `${vendor.url}/`, apiKey: 'vendor-key', timeoutMs: 1000 });
    const found = await provider.lookup(people, {
      getWorkEmails: true,
      getPersonalEmails: false,
      getPhoneNumbers: true,
    });
    expect(vendor.requests).toHaveLength(1);
    const request = vendor.requests[0];
    expect(request?.url).toBe('/lookup');
    expect(request?.headers.authorization).toBe('Bearer vendor-key');
    expect(request?.body).toMatchObject({
      types: ['work_email', 'phone'],
      people: [
        {
          ref: String(a.id),
          first_name: a.firstName,
          last_name: a.lastName,
          company_domain: a.companyDomain,
          profile_url: a.profileUrl,
        },
        { ref: String(b.id) },
      ],
    });
    expect(found.get(a.id)?.workEmails).toEqual([
      { value: 'a@vendor-match.com', confidence: 'medium', provider: 'http' },
      { value: 'a2@vendor-match.com', confidence: 'high', provider: 'http' },
    ]);
    expect(found.get(a.id)?.phoneNumbers.map((p) => p.value)).toEqual(['+1 415 555 0100']);
    expect(found.has(b.id)).toBe(false);
    expect(found.has(999_999_999)).toBe(false);
    await provider.close();
  });

  it('sends people in chunks', async () => {
    const people = await peopleWhere('true', 5);
    const provider = new HttpContactProvider({ baseUrl: vendor.url, timeoutMs: 1000, chunkSize: 2 });
    await provider.lookup(people, { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false });
    expect(vendor.requests.map((r) => (r.body as { people: unknown[] }).people.length)).toEqual([2, 2, 1]);
    await provider.close();
  });

  it('throws ContactProviderError on an error status, an unreadable reply and a timeout', async () => {
    const people = await peopleWhere('true', 1);
    const provider = new HttpContactProvider({ baseUrl: vendor.url, timeoutMs: 300 });
    vendor.handler = () => ({ status: 500, json: { error: 'boom' } });
    await expect(provider.lookup(people, all)).rejects.toBeInstanceOf(ContactProviderError);
    vendor.handler = () => ({ status: 200, json: { data: [] } });
    await expect(provider.lookup(people, all)).rejects.toThrow(/does not parse/);
    vendor.handler = () => ({ status: 200, json: { results: [] }, delayMs: 1000 });
    await expect(provider.lookup(people, all)).rejects.toThrow(/within 300 ms/);
    await provider.close();
  });
});

describe('ContactWaterfall', () => {
  it('takes what the dataset has and does not ask later providers for it', async () => {
    const [person] = (await peopleWhere(
      `${has('work_email')} AND ${has('phone')} AND ${has('personal_email')}`,
      1,
    )) as [PersonForLookup];
    const vendorProvider = new HttpContactProvider({ baseUrl: vendor.url, timeoutMs: 1000 });
    const waterfall = new ContactWaterfall(
      [new DatasetContactProvider(database.db.pool), vendorProvider, new PatternEmailProvider()],
      validator,
    );
    const result = (await waterfall.reveal([person], all)).get(person.id);
    expect(result?.workEmails.map((c) => c.value)).toEqual(
      (await datasetValues(person.id, 'work_email')).map((v) => v.toLowerCase()),
    );
    expect(result?.workEmails.every((c) => c.provider === 'dataset' && c.confidence === 'high')).toBe(true);
    expect(result?.personalEmails.length).toBeGreaterThan(0);
    expect(result?.phoneNumbers.length).toBeGreaterThan(0);
    expect(vendor.requests).toHaveLength(0);
    expect(result?.unavailable).toBe(false);
    await vendorProvider.close();
  });

  it('asks the vendor only for the types still missing, then guesses a work email as a last resort', async () => {
    const people = await peopleWhere(`${lacks('work_email')} AND ${lacks('phone')} AND ${has('personal_email')}`, 2);
    const [a, b] = people as [PersonForLookup, PersonForLookup];
    vendor.handler = () => ({
      status: 200,
      json: {
        results: [
          { ref: String(a.id), work_emails: ['a.vendor@vendor-match.com'], phones: ['+44 20 7946 0000'] },
          // An invalid address and a reserved domain: neither counts, so b falls through to the guesser.
          { ref: String(b.id), work_emails: ['not an email', 'b@example.com'] },
        ],
      },
    });
    const vendorProvider = new HttpContactProvider({ baseUrl: vendor.url, timeoutMs: 1000 });
    const waterfall = new ContactWaterfall(
      [new DatasetContactProvider(database.db.pool), vendorProvider, new PatternEmailProvider()],
      validator,
    );
    const results = await waterfall.reveal(people, all);
    expect((vendor.requests[0]?.body as { types: string[] }).types).toEqual(['work_email', 'phone']);
    expect(results.get(a.id)?.workEmails).toEqual([
      { value: 'a.vendor@vendor-match.com', confidence: 'medium', provider: 'http' },
    ]);
    expect(results.get(a.id)?.phoneNumbers.map((c) => c.value)).toEqual(['+442079460000']);
    expect(results.get(a.id)?.personalEmails[0]?.provider).toBe('dataset');
    expect(results.get(b.id)?.workEmails).toEqual([
      { value: guessWorkEmail(b), confidence: 'low', provider: 'pattern' },
    ]);
    expect(results.get(b.id)?.phoneNumbers).toEqual([]);
    await vendorProvider.close();
  });

  it('skips a failing provider, reports it, and still answers from the others', async () => {
    const [person] = (await peopleWhere(lacks('work_email'), 1)) as [PersonForLookup];
    vendor.handler = () => ({ status: 503 });
    const vendorProvider = new HttpContactProvider({ baseUrl: vendor.url, timeoutMs: 1000 });
    const waterfall = new ContactWaterfall(
      [new DatasetContactProvider(database.db.pool), vendorProvider, new PatternEmailProvider()],
      validator,
    );
    const result = (
      await waterfall.reveal([person], { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false })
    ).get(person.id);
    expect(result?.failedProviders).toEqual(['http']);
    expect(result?.unavailable).toBe(false);
    expect(result?.workEmails[0]?.provider).toBe('pattern');
    await vendorProvider.close();
  });

  it('marks a person unavailable when every provider asked failed', async () => {
    const [person] = (await peopleWhere('true', 1)) as [PersonForLookup];
    vendor.handler = () => ({ status: 500 });
    const vendorProvider = new HttpContactProvider({ baseUrl: vendor.url, timeoutMs: 1000 });
    const waterfall = new ContactWaterfall([vendorProvider], validator);
    const result = (await waterfall.reveal([person], all)).get(person.id);
    expect(result).toMatchObject({
      workEmails: [],
      personalEmails: [],
      phoneNumbers: [],
      failedProviders: ['http'],
      unavailable: true,
    });
    await vendorProvider.close();
  });

  it('asks nothing when no type is asked for', async () => {
    const people = await peopleWhere('true', 2);
    const vendorProvider = new HttpContactProvider({ baseUrl: vendor.url, timeoutMs: 1000 });
    const waterfall = new ContactWaterfall([vendorProvider], validator);
    const results = await waterfall.reveal(people, {
      getWorkEmails: false,
      getPersonalEmails: false,
      getPhoneNumbers: false,
    });
    expect(vendor.requests).toHaveLength(0);
    expect([...results.values()].every((r) => r.workEmails.length === 0 && !r.unavailable)).toBe(true);
    await vendorProvider.close();
  });
});

describe('PatternEmailProvider', () => {
  it('writes first.last@domain, folding accents and punctuation', () => {
    expect(guessWorkEmail({ firstName: 'José María', lastName: "O'Neil-Smith", companyDomain: 'Acme.io' })).toBe(
      'josemaria.oneilsmith@acme.io',
    );
    expect(guessWorkEmail({ firstName: 'Jürgen', lastName: 'Groß', companyDomain: 'firma.de' })).toBe(
      'jurgen.gross@firma.de',
    );
    expect(guessWorkEmail({ firstName: '李', lastName: 'Wang', companyDomain: 'acme.cn' })).toBeNull();
    expect(guessWorkEmail({ firstName: 'Jane', lastName: 'Doe', companyDomain: null })).toBeNull();
  });
});
