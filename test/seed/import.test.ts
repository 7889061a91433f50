import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../../src/seed/import/import-file.js';
import { ImportFileError, formatRejection, type ImportResult } from '../../src/seed/import/results.js';
import { seedCatalog } from '../../src/seed/load.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

function messages(result: ImportResult): string[] {
  return result.rejected.map(formatRejection);
}

describe('importFile', () => {
  let test: TestDatabase;
  let dir: string;
  const file = async (name: string, content: string) => {
    const full = path.join(dir, name);
    await writeFile(full, content);
    return full;
  };

  beforeAll(async () => {
    test = await createTestDatabase('empty');
    dir = await mkdtemp(path.join(os.tmpdir(), 'pds-import-'));
    await seedCatalog(test.db, { companies: 20, people: 50, seed: 5 });
  });

  afterAll(async () => {
    await test?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('loads the valid rows of a JSON Lines file and reports the others by line', async () => {
    const lines = [
      JSON.stringify({
        preferred_name: 'Acme Robotics',
        domains: ['https://www.AcmeRobotics.com/about', 'acme-robotics.co.uk'],
        network_primary_slug: 'acme-robotics',
        network_org_id: '987654321',
        standard_industries: ['automation-machinery-manufacturing'],
        employee_count_consensus: { min: 51, max: 200 },
        location_consensus: { city: 'Austin', country_code: 'us', state_name: 'Texas' },
        total_funding_consensus: { usd: 12_000_000 },
        last_funding_usd: 8_000_000,
        last_funded_on: '2024-02-01',
        founded_on: '2015-03-01',
        stage: 'SERIES_A',
        special_flags: ['HIRING', 'VC_BACKED'],
        description: 'Warehouse robots\twith a tab and a back\\slash',
      }),
      JSON.stringify({ preferred_name: 'Bad Domains', domains: 'bad.com' }),
      '',
      JSON.stringify({
        preferred_name: '',
        employee_count_consensus: { min: 10, max: 5 },
        location_consensus: { country_code: 'XX' },
        standard_industries: ['nope'],
      }),
      '{not json',
      JSON.stringify({ preferred_name: 'Braces {and} "quotes", commas', domains: ['braces.io'], special_flags: [] }),
    ];
    const result = await importFile(test.db, {
      kind: 'companies',
      file: await file('companies.jsonl', `${lines.join('\n')}\n`),
    });

    expect(result).toMatchObject({ read: 5, inserted: 2, updated: 0 });
    expect(result.rejected.map((r) => r.line)).toEqual([2, 4, 5]);
    expect(messages(result)).toContain('line 2: domains: expected array of strings');
    const line4 = messages(result).find((m) => m.startsWith('line 4:')) ?? '';
    expect(line4).toContain('line 4: preferred_name: must not be empty');
    expect(line4).toContain('line 4: employee_count_consensus.min: min must not exceed max');
    expect(line4).toContain('line 4: location_consensus.country_code: not an ISO 3166 2-letter country code');
    expect(line4).toContain('line 4: standard_industries.0: not an industry slug');
    expect(messages(result).find((m) => m.startsWith('line 5:'))).toMatch(/invalid JSON/);

    const stored = await test.db.pool.query(`SELECT * FROM companies WHERE id > 20 ORDER BY id`);
    expect(stored.rows.map((r) => r.id)).toEqual([21, 22]);
    expect(stored.rows[0]).toMatchObject({
      preferred_name: 'Acme Robotics',
      domains: ['acmerobotics.com', 'acme-robotics.co.uk'],
      tlds: ['.com', '.co.uk'],
      network_primary_slug: 'acme-robotics',
      network_org_id: 987654321,
      employee_count_min: 51,
      employee_count_max: 200,
      city: 'Austin',
      state_name: 'Texas',
      country_code: 'US',
      location_text: 'Austin, Texas, United States',
      total_funding_usd: 12_000_000,
      last_funding_usd: 8_000_000,
      last_funded_on: '2024-02-01',
      founded_on: '2015-03-01',
      stage: 'SERIES_A',
      special_flags: ['HIRING', 'VC_BACKED'],
      description: 'Warehouse robots\twith a tab and a back\\slash',
    });
    expect(stored.rows[1]).toMatchObject({
      preferred_name: 'Braces {and} "quotes", commas',
      domains: ['braces.io'],
      description: '',
    });
    const search = await test.db.pool.query(
      `SELECT id FROM companies WHERE description_tsv @@ to_tsquery('simple', 'robots')`,
    );
    expect(search.rows).toEqual([{ id: 21 }]);
  });

  it('updates rows by id, changing only the fields given', async () => {
    const before = (await test.db.pool.query(`SELECT * FROM companies WHERE id = 3`)).rows[0];
    const result = await importFile(test.db, {
      kind: 'companies',
      file: await file(
        'update.jsonl',
        [
          JSON.stringify({ id: 3, preferred_name: 'Renamed Three', special_flags: ['PUBLIC'], founded_on: null }),
          JSON.stringify({ id: 3, preferred_name: 'Twice' }),
          JSON.stringify({ id: 500, preferred_name: 'Chosen Id' }),
          JSON.stringify({ preferred_name: 'Next After Max' }),
        ].join('\n'),
      ),
    });
    expect(result).toMatchObject({ read: 4, inserted: 2, updated: 1 });
    expect(messages(result)).toEqual(['line 2: id: 3 already appears on line 1']);
    const after = (await test.db.pool.query(`SELECT * FROM companies WHERE id = 3`)).rows[0];
    expect(after).toMatchObject({ preferred_name: 'Renamed Three', special_flags: ['PUBLIC'], founded_on: null });
    expect(after.domains).toEqual(before.domains);
    expect(after.description).toBe(before.description);
    expect(after.country_code).toBe(before.country_code);
    const added = await test.db.pool.query(`SELECT id, preferred_name FROM companies WHERE id >= 500 ORDER BY id`);
    expect(added.rows).toEqual([
      { id: 500, preferred_name: 'Chosen Id' },
      { id: 501, preferred_name: 'Next After Max' },
    ]);
  });

  it('reads CSV with dotted columns, ;-lists and quoted multi-line cells', async () => {
    const csv =
      'preferred_name,domains,employee_count_consensus.min,employee_count_consensus.max,location_consensus.country_code,location_consensus.city,description,special_flags\n' +
      '"Quote ""Co""",quote.io;quote.com,1,10,DE,Berlin,"Line one\nline two, with comma",HIRING;REMOTE_FIRST\n' +
      'Bad Count,,x,10,,,,\n' +
      'Short Row,short.io\n' +
      'Plain Co,plain.co.uk,,,GB,London,,\n';
    const result = await importFile(test.db, { kind: 'companies', file: await file('companies.csv', csv) });
    expect(result).toMatchObject({ read: 4, inserted: 2, updated: 0 });
    expect(messages(result)).toEqual([
      'line 4: employee_count_consensus.min: expected a whole number',
      'line 5: expected 8 fields, found 2',
    ]);
    const stored = await test.db.pool.query(
      `SELECT * FROM companies WHERE preferred_name IN ('Quote "Co"', 'Plain Co') ORDER BY id`,
    );
    expect(stored.rows[0]).toMatchObject({
      domains: ['quote.io', 'quote.com'],
      tlds: ['.io', '.com'],
      employee_count_min: 1,
      employee_count_max: 10,
      country_code: 'DE',
      location_text: 'Berlin, Germany',
      description: 'Line one\nline two, with comma',
      special_flags: ['HIRING', 'REMOTE_FIRST'],
    });
    expect(stored.rows[1]).toMatchObject({
      domains: ['plain.co.uk'],
      tlds: ['.co.uk'],
      employee_count_min: null,
      location_text: 'London, United Kingdom',
    });
  });

  it('refuses a CSV file with unknown columns, and files it cannot read', async () => {
    await expect(
      importFile(test.db, { kind: 'companies', file: await file('bad.csv', 'preferred_name,domain\nX,x.com\n') }),
    ).rejects.toThrow(/unknown column\(s\) "domain"/);
    await expect(importFile(test.db, { kind: 'people', file: path.join(dir, 'missing.jsonl') })).rejects.toBeInstanceOf(
      ImportFileError,
    );
    await expect(importFile(test.db, { kind: 'people', file: await file('people.txt', '{}') })).rejects.toThrow(
      /--format/,
    );
  });

  it('loads nothing when no row is valid', async () => {
    const before = (await test.db.pool.query(`SELECT count(*)::int AS n FROM people`)).rows[0].n;
    const result = await importFile(test.db, {
      kind: 'people',
      file: await file('none.jsonl', '{"first_name": "Only"}\n'),
    });
    expect(result).toMatchObject({ read: 1, inserted: 0, updated: 0 });
    expect(messages(result)).toEqual(['line 1: last_name: expected a string']);
    expect((await test.db.pool.query(`SELECT count(*)::int AS n FROM people`)).rows[0].n).toBe(before);
  });

  it('imports people, matching their current company by slug or domain, with contact points', async () => {
    const acme = (await test.db.pool.query(`SELECT id FROM companies WHERE network_primary_slug = 'acme-robotics'`))
      .rows[0].id;
    const people = [
      {
        first_name: 'Jane',
        last_name: 'Doe',
        title: 'VP of Sales',
        headline: 'VP of Sales at Acme Robotics',
        location: { city: 'Austin', country_code: 'US' },
        current_company: { domain: 'acmerobotics.com' },
        tags: ['decision-maker', 'budget-holder'],
        languages: [{ name: 'English', proficiency_name: 'Native or bilingual proficiency' }],
        years_experience: 14,
        education: [
          {
            school: 'University of Texas at Austin',
            degree_type: 'BACHELORS',
            field_of_study: 'Economics',
            start_year: 2005,
            end_year: 2009,
          },
        ],
        work_experiences: [
          { company_name: 'Acme Robotics', title: 'VP of Sales', start_date: '2021-04', end_date: null },
        ],
        network_slug: 'jane-doe-1a2b3c4d',
        network_user_id: '123456789',
        contacts: { work_emails: ['Jane@AcmeRobotics.com'], phones: ['+1 (512) 555-0100'] },
      },
      {
        first_name: 'Raj',
        last_name: 'Patel',
        location: { country_code: 'in' },
        current_company: { name: 'Somewhere Unknown', network_slug: 'https://www.linkedin.com/company/acme-robotics/' },
      },
      {
        first_name: 'Headline',
        last_name: 'Derived',
        title: 'Buyer',
        current_company: { network_slug: 'acme-robotics' },
      },
      { first_name: 'No', last_name: 'Where', current_company: { name: 'Nowhere Ltd', domain: 'nowhere.example' } },
      {
        first_name: 'Bad',
        last_name: 'Phone',
        location: { country_code: 'ZZ' },
        contacts: { phones: ['555'] },
        tags: ['vip'],
      },
    ];
    const result = await importFile(test.db, {
      kind: 'people',
      file: await file('people.jsonl', people.map((p) => JSON.stringify(p)).join('\n')),
    });
    expect(result).toMatchObject({ read: 5, inserted: 4, updated: 0, contacts: 2, companiesResolved: 3 });
    const line5 = messages(result)[0] ?? '';
    expect(line5).toContain('line 5: location.country_code: not an ISO 3166 2-letter country code');
    expect(line5).toContain('line 5: contacts.phones.0: not a phone number in E.164 form');
    expect(line5).toContain('line 5: tags.0: expected one of');

    const stored = await test.db.pool.query(`SELECT * FROM people WHERE id > 50 ORDER BY id`);
    expect(stored.rows.map((r) => r.id)).toEqual([51, 52, 53, 54]);
    expect(stored.rows[0]).toMatchObject({
      first_name: 'Jane',
      country_code: 'US',
      country3: 'USA',
      company_id: acme,
      company_name: 'Acme Robotics',
      company_slug: 'acme-robotics',
      company_domain: 'acmerobotics.com',
      network_user_id: 123456789,
      tags: ['decision-maker', 'budget-holder'],
      degree_types: ['BACHELORS'],
      schools: ['University of Texas at Austin'],
      work_experiences: [
        {
          company_name: 'Acme Robotics',
          company_slug: null,
          company_domain: null,
          title: 'VP of Sales',
          start_date: '2021-04-01',
          end_date: null,
          is_current: true,
        },
      ],
    });
    expect(stored.rows[1]).toMatchObject({
      country3: 'IND',
      company_id: acme,
      company_name: 'Somewhere Unknown',
      company_slug: 'acme-robotics',
      headline: '',
    });
    expect(stored.rows[2]).toMatchObject({ headline: 'Buyer at Acme Robotics', company_id: acme });
    expect(stored.rows[3]).toMatchObject({
      company_id: null,
      company_name: 'Nowhere Ltd',
      company_domain: 'nowhere.example',
      title: '',
    });
    const contacts = await test.db.pool.query(
      `SELECT kind, value, source FROM person_contacts WHERE person_id = 51 ORDER BY kind`,
    );
    expect(contacts.rows).toEqual([
      { kind: 'phone', value: '+15125550100', source: 'import' },
      { kind: 'work_email', value: 'jane@acmerobotics.com', source: 'import' },
    ]);
  });

  it('imports people from CSV with JSON cells for lists of objects', async () => {
    const csv =
      'id,first_name,last_name,title,location.country_code,languages,tags,contacts.personal_emails\n' +
      `51,Jane,Doe-Smith,CRO,US,"[{""name"":""Spanish"",""proficiency_name"":""Limited working proficiency""}]",decision-maker,jane@gmail.com\n` +
      ',Ana,Lima,,BR,not json,,\n';
    const result = await importFile(test.db, { kind: 'people', file: await file('people.csv', csv) });
    expect(result).toMatchObject({ read: 2, inserted: 0, updated: 1, contacts: 1 });
    expect(messages(result)).toEqual(['line 3: languages: invalid JSON (lists of objects are JSON in CSV cells)']);
    const jane = (await test.db.pool.query(`SELECT * FROM people WHERE id = 51`)).rows[0];
    expect(jane).toMatchObject({
      last_name: 'Doe-Smith',
      title: 'CRO',
      languages: [{ name: 'Spanish', proficiency_name: 'Limited working proficiency' }],
      tags: ['decision-maker'],
      company_slug: 'acme-robotics',
      headline: 'VP of Sales at Acme Robotics',
    });
  });
});
