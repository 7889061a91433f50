import { describe, expect, it } from 'vitest';
import { COMPANY_CSV_COLUMNS, PERSON_CSV_COLUMNS, csvToObject, type CsvKind } from '../../../../src/seed/import/csv.js';

describe('csvToObject', () => {
  const header = ['id', 'domains', 'location_consensus.city', 'languages'];
  const kinds: CsvKind[] = ['number', 'list', 'string', 'json'];

  it('turns cells into the shape of the schema: numbers, ;-lists, dotted paths, JSON', () => {
    expect(csvToObject(header, kinds, ['7', 'a.com; b.com;', 'Austin', '[{"name":"en"}]'])).toEqual({
      value: {
        id: 7,
        domains: ['a.com', 'b.com'],
        location_consensus: { city: 'Austin' },
        languages: [{ name: 'en' }],
      },
      problems: [],
    });
  });

  it('leaves empty cells out and keeps a number that is not one as text for the schema to refuse', () => {
    expect(csvToObject(header, kinds, ['12a', '', '  ', '']).value).toEqual({ id: '12a' });
  });

  it('names the column whose JSON does not parse', () => {
    const { problems, value } = csvToObject(header, kinds, ['1', '', '', '[{']);
    expect(problems).toEqual([expect.stringContaining('languages: invalid JSON')]);
    expect(value).toEqual({ id: 1 });
  });

  it('nests two dotted columns under one object', () => {
    const { value } = csvToObject(['location.city', 'location.country_code'], ['string', 'string'], ['Paris', 'fr']);
    expect(value).toEqual({ location: { city: 'Paris', country_code: 'fr' } });
  });

  it('knows every column kind of both files', () => {
    const kindsOf = new Set([...Object.values(COMPANY_CSV_COLUMNS), ...Object.values(PERSON_CSV_COLUMNS)]);
    expect([...kindsOf].sort()).toEqual(['json', 'list', 'number', 'string']);
    expect(COMPANY_CSV_COLUMNS.domains).toBe('list');
    expect(PERSON_CSV_COLUMNS.education).toBe('json');
  });
});
