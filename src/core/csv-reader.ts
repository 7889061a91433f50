import { Readable, pipeline } from 'node:stream';
import { parse, type CsvError, type Options } from 'csv-parse';
import { parse as parseText } from 'csv-parse/sync';

/**
 * Reading CSV (csv-parse), for the import of a catalog file and the upload of exclusion-list entries alike: RFC 4180
 * with what people's files hold besides (a byte-order mark, CRLF, LF or CR line ends mixed, a quote inside an unquoted
 * field kept as is, records of different lengths, blank lines skipped). Each record says the line it starts on.
 */

export interface CsvRecord {
  /** Line on which the record starts (1-based; quoted fields may span lines). */
  line: number;
  fields: string[];
  error?: string;
}

/**
 * The records of a stream of text chunks. A record that is not CSV (a quote never closed) comes with its error, in its
 * place.
 */
export async function* readCsvRecords(chunks: AsyncIterable<string>): AsyncGenerator<CsvRecord> {
  const refused: CsvRecord[] = [];
  const parser = pipeline(Readable.from(chunks), parse(options(',', refused)), () => {});
  for await (const record of parser as AsyncIterable<CsvRecord>) {
    while (refused[0] && refused[0].line <= record.line) yield refused.shift() as CsvRecord;
    yield record;
  }
  yield* refused;
}

/** The records of a whole text, with `delimiter` between fields, each refused one in its place with its error. */
export function readCsvText(text: string, delimiter = ','): CsvRecord[] {
  const refused: CsvRecord[] = [];
  const records = parseText(text, options(delimiter, refused)) as unknown as CsvRecord[];
  return [...records, ...refused].sort((a, b) => a.line - b.line);
}

// csv-parse's types have on_record return a record of the input's shape; it returns what it is given, a CsvRecord here.
function options(delimiter: string, refused: CsvRecord[]): Options {
  const lines = new LineCounter();
  return {
    bom: true,
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    on_record: ((fields: string[], context: { lines: number }): CsvRecord => ({
      line: lines.startOf(fields, context.lines),
      fields,
    })) as unknown as Options['on_record'],
    on_skip: (error: CsvError | undefined) => {
      refused.push({
        line: lines.next,
        fields: [],
        error:
          error?.code === 'CSV_QUOTE_NOT_CLOSED' ? 'unterminated quoted field' : `not CSV: ${error?.message ?? ''}`,
      });
      return undefined;
    },
  };
}

/**
 * The line a record starts on. csv-parse counts the lines of the file as it reads, but a CRLF inside a quoted field as
 * two; what it has counted so is taken off again.
 */
class LineCounter {
  private overCounted = 0;
  /** The line after the last record read: where a record refused after it starts, blank lines aside. */
  next = 1;

  startOf(fields: readonly string[], countedLines: number): number {
    let breaks = 0;
    for (const field of fields) {
      breaks += field.match(/\r\n|\r|\n/g)?.length ?? 0;
      this.overCounted += field.match(/\r\n/g)?.length ?? 0;
    }
    const end = countedLines - this.overCounted;
    this.next = end + 1;
    return end - breaks;
  }
}
