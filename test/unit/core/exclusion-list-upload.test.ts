import { describe, expect, it } from 'vitest';
import { entriesFromCsv } from '../../../src/core/exclusion-list-upload.js';

describe('exclusion-list entries from a CSV file', () => {
  it('reads semicolon-separated files, and quoted cells that hold the other delimiter', () => {
    const parsed = entriesFromCsv('companies', 'domain;name\nacme.com;"Acme; Inc"\n"beta.io";Beta, Ltd\n');
    expect(parsed.companies).toEqual([{ domain: 'acme.com' }, { domain: 'beta.io' }]);
    expect(parsed.lines).toEqual([2, 3]);
  });

  it('gives the line a row starts on in the file, past quoted line breaks and blank lines', () => {
    const parsed = entriesFromCsv('companies', 'website,note\nacme.com,"two\nlines"\n\nnot a domain,x\n');
    expect(parsed.lines).toEqual([2]);
    expect(parsed.notUnderstood).toEqual([{ line: 5, value: 'not a domain', reason: expect.any(String) }]);
  });

  it('reports a quote never closed, and keeps the rows before it', () => {
    const parsed = entriesFromCsv('companies', 'domain\nacme.com\n"beta.io\ngamma.io\n');
    expect(parsed.companies).toEqual([{ domain: 'acme.com' }]);
    expect(parsed.notUnderstood).toEqual([{ line: 3, value: '', reason: 'unterminated quoted field' }]);
  });

  it('takes the named column of a header row, and reports each row it does not understand with its line', () => {
    const parsed = entriesFromCsv(
      'companies',
      '\uFEFFname,website\nAcme,https://www.acme.com/about\nBeta,beta.io\nGamma,not a domain\nDelta,https://network.example.com/company/delta\n,\n',
    );
    expect(parsed.companies).toEqual([
      { domain: 'acme.com' },
      { domain: 'beta.io' },
      { networkSlugOrURL: 'https://network.example.com/company/delta' },
    ]);
    expect(parsed.lines).toEqual([2, 3, 5]);
    expect(parsed.notUnderstood).toEqual([
      { line: 4, value: 'not a domain', reason: expect.stringContaining('not a domain') },
    ]);
  });

  it('reads the first column without a header, and profile URLs or slugs for a prospects list', () => {
    const companies = entriesFromCsv('companies', 'example.com\nexample.org\n');
    expect(companies.companies).toEqual([{ domain: 'example.com' }, { domain: 'example.org' }]);
    const prospects = entriesFromCsv(
      'prospects',
      'profile\nhttps://network.example.com/in/ada-lovelace\ngrace-hopper\nhttps://example.com/about\nhas spaces here\n',
    );
    expect(prospects.prospects).toEqual(['https://network.example.com/in/ada-lovelace', 'grace-hopper']);
    expect(prospects.notUnderstood.map((r) => r.line)).toEqual([4, 5]);
  });

  it('stops at 10,000 rows and says so', () => {
    const rows = Array.from({ length: 10_002 }, (_, i) => `d${i}.example.com`).join('\n');
    const parsed = entriesFromCsv('companies', rows);
    expect(parsed.companies).toHaveLength(10_000);
    expect(parsed.notUnderstood).toEqual([
      { line: 10_001, value: 'd10000.example.com', reason: expect.stringContaining('not read') },
    ]);
  });
});
