import { describe, expect, it } from 'vitest';
import { maxWatchListUploadRows, watchListItemsFromCsv } from '../../../../src/core/watch-lists/upload.js';

describe('watch-list items from a CSV upload', () => {
  it('reads the column a header names, skipping blank cells, with each value on its line', () => {
    const read = watchListItemsFromCsv('people', 'Name,Profile URL\nAda,https://x.example/in/ada\nBob,\nCy,cy-smith\n');
    expect(read.values).toEqual([
      { line: 2, value: 'https://x.example/in/ada' },
      { line: 4, value: 'cy-smith' },
    ]);
    expect(read.notRead).toEqual([]);
  });

  it('reads the first column without a header, and semicolons as spreadsheets of some locales write them', () => {
    expect(watchListItemsFromCsv('companies', 'acme.example;Acme\nglobex.example;Globex').values).toEqual([
      { line: 1, value: 'acme.example' },
      { line: 2, value: 'globex.example' },
    ]);
    // A first row of values is no header, even when its cells are words a person could take for one.
    expect(watchListItemsFromCsv('people', 'jane-doe\njohn-roe').values.map((v) => v.value)).toEqual([
      'jane-doe',
      'john-roe',
    ]);
  });

  it('takes a companies list header such as website, and reports a record that is not CSV', () => {
    const read = watchListItemsFromCsv('companies', 'company,website\nAcme,acme.example\nBroken,"never closed\n');
    expect(read.values).toEqual([{ line: 2, value: 'acme.example' }]);
    expect(read.notRead).toHaveLength(1);
    expect(read.notRead[0]?.line).toBe(3);
  });

  it('reads at most the row limit and reports the first row past it', () => {
    const rows = Array.from({ length: maxWatchListUploadRows + 5 }, (_, i) => `person-${i}`);
    const read = watchListItemsFromCsv('people', ['profile', ...rows].join('\n'));
    expect(read.values).toHaveLength(maxWatchListUploadRows);
    expect(read.notRead).toEqual([
      {
        line: maxWatchListUploadRows + 2,
        value: `person-${maxWatchListUploadRows}`,
        reason: expect.stringContaining('not read'),
      },
    ]);
  });
});
