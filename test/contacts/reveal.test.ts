import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guessWorkEmail } from '../../src/providers/contacts/pattern-provider.js';
import { normalisePhone } from '../../src/core/contacts/validation.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.stop());

interface Person {
  id: number;
  network_slug: string;
  first_name: string;
  last_name: string;
  company_domain: string;
}

const has = (kind: string) =>
  `EXISTS (SELECT 1 FROM person_contacts c WHERE c.person_id = p.id AND c.kind = '${kind}')`;
const lacks = (kind: string) => `NOT ${has(kind)}`;

async function personWhere(condition: string, offset = 0): Promise<Person> {
  const rows = await app.db.pool.query<Person>(
    `SELECT p.id, p.network_slug, p.first_name, p.last_name, p.company_domain FROM people p
      WHERE p.company_domain IS NOT NULL AND ${condition} ORDER BY p.id OFFSET $1 LIMIT 1`,
    [offset],
  );
  const person = rows.rows[0];
  if (!person) throw new Error(`no person where ${condition}`);
  return person;
}

async function contactsOf(personId: number, kind: string): Promise<string[]> {
  return (
    await app.db.pool.query<{ value: string }>(
      'SELECT value FROM person_contacts WHERE person_id = $1 AND kind = $2 ORDER BY value',
      [personId, kind],
    )
  ).rows.map((r) => r.value);
}

async function balanceOf(apiKey: string): Promise<number> {
  return (await app.request('GET', `/v1/credits?apiKey=${encodeURIComponent(apiKey)}`)).body.output.balance;
}

const url = (slug: string) => `https://network.example.com/in/${slug}`;
const sync = (
  apiKey: string,
  profileUrl: string,
  types: Partial<Record<'getWorkEmails' | 'getPersonalEmails' | 'getPhoneNumbers', boolean>>,
) => app.request('POST', '/v1/individual-reveal/sync', { apiKey, profileUrl, enrichmentType: types });

describe('revealContactSync: charged per type found', () => {
  it('charges 2 for a work email and 3 for a phone found, and nothing for a personal email not found', async () => {
    const person = await personWhere(`${has('work_email')} AND ${has('phone')} AND ${lacks('personal_email')}`);
    const account = await app.createAccount({ credits: 100 });
    const response = await sync(account.apiKey, url(person.network_slug), {
      getWorkEmails: true,
      getPersonalEmails: true,
      getPhoneNumbers: true,
    });
    expect(response.status).toBe(200);
    expect(response.body.output).toMatchObject({
      profileUrl: url(person.network_slug),
      found: true,
      workEmails: (await contactsOf(person.id, 'work_email')).map((v) => v.toLowerCase()),
      personalEmails: [],
      phoneNumbers: (await contactsOf(person.id, 'phone')).map((v) => normalisePhone(v)),
      creditsByType: { workEmails: 2, personalEmails: 0, phoneNumbers: 3 },
    });
    expect(response.body.chargeInfo).toMatchObject({ method: 'charged-now', creditsCharged: 5 });
    expect(await balanceOf(account.apiKey)).toBe(95);
    const ledger = await app.db.pool.query(
      'SELECT amount, unit FROM credit_ledger WHERE account_id = $1 AND amount < 0',
      [account.accountId],
    );
    expect(ledger.rows).toEqual([{ amount: -5, unit: 'revealContact' }]);
  });

  it('charges 2 for a personal email alone', async () => {
    const person = await personWhere(has('personal_email'));
    const account = await app.createAccount({ credits: 10 });
    const response = await sync(account.apiKey, person.network_slug, { getPersonalEmails: true });
    expect(response.body.output.personalEmails).toEqual(
      (await contactsOf(person.id, 'personal_email')).map((v) => v.toLowerCase()),
    );
    expect(response.body.output.workEmails).toEqual([]);
    expect(response.body.output.creditsByType).toEqual({ workEmails: 0, personalEmails: 2, phoneNumbers: 0 });
    expect(response.body.chargeInfo.creditsCharged).toBe(2);
    expect(await balanceOf(account.apiKey)).toBe(8);
  });

  it('charges nothing when the only type asked finds nothing', async () => {
    const person = await personWhere(lacks('phone'));
    const account = await app.createAccount({ credits: 10 });
    const response = await sync(account.apiKey, url(person.network_slug), { getPhoneNumbers: true });
    expect(response.status).toBe(200);
    expect(response.body.output).toMatchObject({
      found: true,
      phoneNumbers: [],
      creditsByType: { workEmails: 0, personalEmails: 0, phoneNumbers: 0 },
    });
    expect(response.body.chargeInfo.creditsCharged).toBe(0);
    expect(await balanceOf(account.apiKey)).toBe(10);
  });

  it('falls back to a guessed work email when the dataset has none, and charges it as found', async () => {
    const person = await personWhere(lacks('work_email'));
    const account = await app.createAccount({ credits: 10 });
    const response = await sync(account.apiKey, url(person.network_slug), { getWorkEmails: true });
    expect(response.body.output.workEmails).toEqual([
      guessWorkEmail({
        firstName: person.first_name,
        lastName: person.last_name,
        companyDomain: person.company_domain,
      }),
    ]);
    expect(response.body.chargeInfo.creditsCharged).toBe(2);
  });

  it('answers found=false for an unknown profile and charges nothing', async () => {
    const account = await app.createAccount({ credits: 10 });
    const response = await sync(account.apiKey, url('nobody-here-0000'), {
      getWorkEmails: true,
      getPhoneNumbers: true,
    });
    expect(response.status).toBe(200);
    expect(response.body.output).toMatchObject({ found: false, workEmails: [], personalEmails: [], phoneNumbers: [] });
    expect(response.body.chargeInfo.creditsCharged).toBe(0);
    expect(await balanceOf(account.apiKey)).toBe(10);
  });

  it('refuses with 402 and withholds the contacts when the balance cannot pay for what was found', async () => {
    const person = await personWhere(`${has('work_email')} AND ${has('phone')}`, 1);
    const account = await app.createAccount({ credits: 4 });
    const response = await sync(account.apiKey, url(person.network_slug), {
      getWorkEmails: true,
      getPhoneNumbers: true,
    });
    expect(response.status).toBe(402);
    expect(response.body.error.code).toBe('insufficient_credits');
    expect(JSON.stringify(response.body)).not.toContain('@');
    expect(await balanceOf(account.apiKey)).toBe(4);
    const broke = await app.createAccount({ credits: 1 });
    expect((await sync(broke.apiKey, url(person.network_slug), { getWorkEmails: true })).status).toBe(402);
    expect(await balanceOf(broke.apiKey)).toBe(1);
  });

  it('refuses bad requests with a 400 naming the field, charging nothing', async () => {
    const account = await app.createAccount({ credits: 10 });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ enrichmentType: { getWorkEmails: true } }, 'profileUrl'],
      [{ profileUrl: 'jane' }, 'enrichmentType'],
      [{ profileUrl: 'jane', enrichmentType: { getWorkEmails: false } }, 'enrichmentType'],
      [{ profileUrl: 'jane', enrichmentType: { getWorkEmails: 'yes' } }, 'enrichmentType.getWorkEmails'],
      [{ profileUrl: 'jane', enrichmentType: { getEmails: true } }, 'enrichmentType.getEmails'],
      [
        { profileUrl: 'https://network.example.com/company/acme', enrichmentType: { getWorkEmails: true } },
        'profileUrl',
      ],
    ];
    for (const [body, field] of cases) {
      const response = await app.request('POST', '/v1/individual-reveal/sync', { apiKey: account.apiKey, ...body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(
        response.body.error.details.issues.map((i: { field: string }) => i.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect(await balanceOf(account.apiKey)).toBe(10);
  });
});

describe('revealContactSingle: 1 credit per attempt', () => {
  const single = (apiKey: string, profileUrl: unknown) =>
    app.request('POST', '/v1/contact-details/single', { apiKey, profileUrl });

  it('returns a work email and a direct phone together for 1 credit', async () => {
    const person = await personWhere(`${has('work_email')} AND ${has('phone')}`, 2);
    const account = await app.createAccount({ credits: 3 });
    const response = await single(account.apiKey, url(person.network_slug));
    expect(response.status).toBe(200);
    expect(response.body.output).toEqual({
      profileUrl: url(person.network_slug),
      found: true,
      workEmail: (await contactsOf(person.id, 'work_email'))[0]?.toLowerCase(),
      directPhone: normalisePhone((await contactsOf(person.id, 'phone'))[0] as string),
    });
    expect(response.body.chargeInfo).toMatchObject({ method: 'charged-now', creditsCharged: 1 });
    expect(await balanceOf(account.apiKey)).toBe(2);
  });

  it('returns the work email alone when there is no phone, still 1 credit', async () => {
    const person = await personWhere(`${has('work_email')} AND ${lacks('phone')}`);
    const account = await app.createAccount({ credits: 3 });
    const response = await single(account.apiKey, person.network_slug);
    expect(response.body.output).toMatchObject({ found: true, directPhone: null });
    expect(response.body.output.workEmail).toContain('@');
    expect(response.body.chargeInfo.creditsCharged).toBe(1);
  });

  it('charges 1 for an attempt that finds nothing', async () => {
    const account = await app.createAccount({ credits: 3 });
    const response = await single(account.apiKey, url('nobody-here-0000'));
    expect(response.status).toBe(200);
    expect(response.body.output).toEqual({
      profileUrl: url('nobody-here-0000'),
      found: false,
      workEmail: null,
      directPhone: null,
    });
    expect(response.body.chargeInfo.creditsCharged).toBe(1);
    expect(await balanceOf(account.apiKey)).toBe(2);
    const ledger = await app.db.pool.query(
      'SELECT amount, unit FROM credit_ledger WHERE account_id = $1 AND amount < 0',
      [account.accountId],
    );
    expect(ledger.rows).toEqual([{ amount: -1, unit: 'revealContactSingle' }]);
  });

  it('refuses with 402 at a zero balance, and with 400 naming profileUrl when it is missing or not a profile', async () => {
    const account = await app.createAccount({ credits: 0 });
    const person = await personWhere('true');
    const refused = await single(account.apiKey, url(person.network_slug));
    expect(refused.status).toBe(402);
    expect(await balanceOf(account.apiKey)).toBe(0);
    for (const profileUrl of [undefined, '', 42, 'https://network.example.com/company/acme']) {
      const response = await single(app.apiKey, profileUrl);
      expect(response.status, String(profileUrl)).toBe(400);
      expect(response.body.error.details.issues[0].field).toBe('profileUrl');
    }
  });
});
