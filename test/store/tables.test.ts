import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_TABLES } from '../../src/store/tables/catalog.js';
import { companiesTable, type CompanyRow } from '../../src/store/tables/companies.js';
import { BinaryCopyWriter, CopyWriter } from '../../src/store/tables/copy-writers.js';
import type { ColumnType, MaintainedColumnType, Table } from '../../src/store/tables/define-table.js';
import { peopleTable, type PersonRow } from '../../src/store/tables/people.js';
import { personContactsTable, type PersonContactRow } from '../../src/store/tables/person-contacts.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

// How information_schema.columns.udt_name spells each declared type.
const UDT_NAMES: Readonly<Record<ColumnType | MaintainedColumnType, string>> = {
  bigint: 'int8',
  integer: 'int4',
  text: 'text',
  char: 'bpchar',
  date: 'date',
  'text[]': '_text',
  jsonb: 'jsonb',
  tsvector: 'tsvector',
  timestamptz: 'timestamptz',
};

/** Every column of the table, loaded or maintained, with its type as the database names it. */
function declaredTypes<Row, Maintained>(table: Table<Row, Maintained>): Record<string, string> {
  const types: Record<string, string> = {};
  for (const column of table.columns) types[column] = UDT_NAMES[table.columnTypes[column]];
  for (const [column, type] of Object.entries<MaintainedColumnType>(table.maintainedColumns))
    types[column] = UDT_NAMES[type];
  return types;
}

// Values that COPY's text format must escape, array literals must quote, and JSON must escape;
// long and multi-byte enough to make the binary writer grow its buffer.
const awkward = 'Tab\there, new\nline, CR\r, back\\slash, "quotes", {braces}, comma, NULL, \\N, Ünïcödé 東京 🚀';
const long = `${awkward} `.repeat(2_000);

const company: CompanyRow = {
  id: 1,
  preferred_name: awkward,
  description: long,
  domains: ['acme.com', awkward, ''],
  tlds: ['.com'],
  network_primary_slug: null,
  network_org_id: 9_007_199_254_740_991,
  standard_industries: [],
  employee_count_min: 0,
  employee_count_max: null,
  city: 'São Paulo',
  state_name: null,
  country_code: 'BR',
  location_text: null,
  total_funding_usd: 12_345_678_901,
  last_funding_usd: null,
  last_funded_on: '2024-02-29',
  founded_on: null,
  stage: 'SEED',
  special_flags: ['B2B'],
};

const person: PersonRow = {
  id: 4_294_967_297,
  first_name: awkward,
  last_name: "O'Brien",
  title: '',
  headline: long,
  city: null,
  country_code: 'IE',
  country3: 'IRL',
  company_id: null,
  company_name: awkward,
  company_slug: null,
  company_domain: 'acme.ie',
  network_slug: 'obrien',
  network_user_id: null,
  years_experience: 0,
  tags: [awkward, 'founder'],
  languages: [{ name: 'Irish', proficiency_name: null }],
  degree_types: [],
  schools: [awkward],
  education: [{ school: awkward, degree_type: null, field_of_study: long, start_year: null, end_year: 2001 }],
  work_experiences: [
    {
      company_name: awkward,
      company_slug: null,
      company_domain: null,
      title: '',
      start_date: '2001-01-01',
      end_date: null,
      is_current: true,
    },
  ],
  title_words: ' chief executive officer ',
  title_mask: 2 ** 52 + 1,
  seniority: 'c_suite',
  job_function: null,
};

const contact: PersonContactRow = { person_id: person.id, kind: 'work_email', value: 'x\\y@acme.ie', source: 'import' };

describe('catalog tables', () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await createTestDatabase('empty');
  });

  afterAll(async () => {
    await test?.drop();
  });

  it('are declared with exactly the columns and types the migrations give them', async () => {
    const tables = [
      { name: companiesTable.name, declared: declaredTypes(companiesTable) },
      { name: peopleTable.name, declared: declaredTypes(peopleTable) },
      { name: personContactsTable.name, declared: declaredTypes(personContactsTable) },
    ];
    expect([...CATALOG_TABLES]).toEqual(tables.map((t) => t.name));
    for (const table of tables) {
      const stored = await test.db.pool.query<{ column_name: string; udt_name: string }>(
        `SELECT column_name, udt_name FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = $1 ORDER BY column_name`,
        [table.name],
      );
      expect(Object.fromEntries(stored.rows.map((r) => [r.column_name, r.udt_name])), table.name).toEqual(
        table.declared,
      );
    }
  });

  it('write rows through COPY, text and binary, that read back as they were', async () => {
    const client = await test.db.pool.connect();
    try {
      await client.query('BEGIN');
      const companies = CopyWriter.open(client, companiesTable.name, companiesTable.columns);
      await companies.write(companiesTable.copyLine(company));
      await companies.end();
      const contacts = CopyWriter.open(client, personContactsTable.name, personContactsTable.columns);
      await contacts.write(personContactsTable.copyLine(contact));
      await contacts.end();
      const people = BinaryCopyWriter.open(client, peopleTable);
      people.append(person);
      await people.end();
      // The same person again through the text format, under another id.
      const textPeople = CopyWriter.open(client, peopleTable.name, peopleTable.columns);
      await textPeople.write(peopleTable.copyLine({ ...person, id: 2 }));
      await textPeople.end();
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    const read = async (table: string, columns: readonly string[]) =>
      (await test.db.pool.query(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY 1`)).rows;
    expect(await read('companies', companiesTable.columns)).toEqual([company]);
    expect(await read('people', peopleTable.columns)).toEqual([{ ...person, id: 2 }, person]);
    expect(await read('person_contacts', personContactsTable.columns)).toEqual([contact]);
  });

  it('refuse to write dates in binary format rather than send them wrong', async () => {
    const client = await test.db.pool.connect();
    try {
      expect(() => BinaryCopyWriter.open(client, companiesTable)).toThrow(/companies\.last_funded_on: date columns/);
    } finally {
      client.release();
    }
  });
});
