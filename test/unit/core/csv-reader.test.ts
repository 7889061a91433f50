import { describe, expect, it } from 'vitest';
import { readCsvRecords, readCsvText } from '../../../src/core/csv-reader.js';

async function* chunksOf(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function records(text: string, size = 1_000_000) {
  const out = [];
  for await (const record of readCsvRecords(chunksOf(text, size))) out.push(record);
  return out;
}

describe('readCsvRecords', () => {
  const csv = '\uFEFFa,b,c\r\n1,"two, with comma","say ""hi"""\r\n"multi\nline",,x\n\nlast,row,"end"';

  it('reads quoted fields, doubled quotes, embedded line breaks, CRLF and a BOM', async () => {
    expect(await records(csv)).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', 'two, with comma', 'say "hi"'] },
      { line: 3, fields: ['multi\nline', '', 'x'] },
      { line: 6, fields: ['last', 'row', 'end'] },
    ]);
  });

  it('gives the same records whatever the chunk boundaries', async () => {
    const whole = await records(csv);
    for (const size of [1, 2, 3, 5, 7]) expect(await records(csv, size)).toEqual(whole);
  });

  it('flags an unterminated quoted field with the line it starts on', async () => {
    expect(await records('a,b\n1,"open\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: [], error: 'unterminated quoted field' },
    ]);
  });

  it('keeps a quote inside an unquoted field, and records of other lengths for the caller to judge', async () => {
    expect(await records('a,b"c\n1,2,3\n')).toEqual([
      { line: 1, fields: ['a', 'b"c'] },
      { line: 2, fields: ['1', '2', '3'] },
    ]);
  });

  it('counts a CRLF inside a quoted field as one line', async () => {
    expect(await records('"x\r\ny",1\r\nnext,2\r\n')).toEqual([
      { line: 1, fields: ['x\r\ny', '1'] },
      { line: 3, fields: ['next', '2'] },
    ]);
  });

  it('reads nothing from an empty file or one of blank lines', async () => {
    expect(await records('')).toEqual([]);
    expect(await records('\n\n\r\n')).toEqual([]);
  });
});

describe('readCsvText', () => {
  it('reads the same records as the stream reader', async () => {
    const text = '\uFEFFa,b\r\n"x\ny",2\n\nlast,"q ""u"""\n';
    expect(readCsvText(text)).toEqual(await records(text));
  });

  it('splits on the delimiter it is given only', () => {
    expect(readCsvText('a;b,c\n1;2\n', ';')).toEqual([
      { line: 1, fields: ['a', 'b,c'] },
      { line: 2, fields: ['1', '2'] },
    ]);
  });

  it('puts a refused record at its line, after the records before it', () => {
    expect(readCsvText('a\nb\n"c\n')).toEqual([
      { line: 1, fields: ['a'] },
      { line: 2, fields: ['b'] },
      { line: 3, fields: [], error: 'unterminated quoted field' },
    ]);
  });
});
