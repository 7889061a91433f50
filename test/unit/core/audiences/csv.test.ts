import { describe, expect, it } from 'vitest';
import { csvField, csvRecord, listSeparator } from '../../../../src/core/audiences/csv.js';
import { readCsvText } from '../../../../src/core/csv-reader.js';

describe('writing a CSV cell', () => {
  it.each([
    ['=1+1', "'=1+1"],
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ['+SUM(A1:A9)', "'+SUM(A1:A9)"],
    ['-A1', "'-A1"],
    ['@cmd', "'@cmd"],
    ['\t=1', "'\t=1"],
    ['\r=1', '"\'\r=1"'],
    ['+1 (415) 555-0100', "'+1 (415) 555-0100"],
    ['1e5-1', '1e5-1'],
  ])('defuses %j for spreadsheets', (value, written) => {
    expect(csvField(value)).toBe(written);
  });

  it.each(['-42', '+7', '3.5', '-.5', '+14155550100', '-3.5e2', '1E10', 'plain text', 'a=b', 'x@y.z', ''])(
    'leaves %j as it is',
    (value) => {
      expect(csvField(value)).toBe(value);
    },
  );

  it.each([
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['"', '""""'],
  ])('quotes %j', (value, written) => {
    expect(csvField(value)).toBe(written);
  });
});

describe('writing a CSV record', () => {
  it('ends with CRLF and reads back as the values written, formulas defused', () => {
    const values = ['Zoë, Ltd.', 'q " u', 'multi\r\nline', '=1+1', ['a.com', 'b.com'].join(listSeparator)];
    const line = csvRecord(values);
    expect(line.endsWith('\r\n')).toBe(true);
    expect(readCsvText(line)).toEqual([{ line: 1, fields: [...values.slice(0, 3), "'=1+1", 'a.com; b.com'] }]);
  });

  it('writes an empty record as a bare line end', () => {
    expect(csvRecord([])).toBe('\r\n');
    expect(csvRecord(['', ''])).toBe(',\r\n');
  });
});
