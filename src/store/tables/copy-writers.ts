import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { CopyStreamQuery } from 'pg-copy-streams';
import type { ColumnType, Table } from './define-table.js';

// Text lines are gathered into chunks of about this many characters before a socket write.
const CHUNK_CHARS = 256 * 1024;

/** A COPY ... FROM STDIN writer of text-format lines that batches them and respects the socket's backpressure. */
export class CopyWriter {
  private buffer = '';
  private failure: Error | null = null;
  rows = 0;

  constructor(private readonly stream: CopyStreamQuery) {
    // The server's refusal (or our own abort) arrives as an 'error' event, possibly while
    // nothing is waiting on the stream; keep it for the next write instead of crashing.
    stream.on('error', (error: Error) => {
      this.failure ??= error;
    });
  }

  static open(client: pg.ClientBase, table: string, columns: readonly string[], options = ''): CopyWriter {
    const sql = `COPY ${table} (${columns.join(', ')}) FROM STDIN${options ? ` WITH (${options})` : ''}`;
    return new CopyWriter(client.query(copyFrom(sql)));
  }

  /** Adds one line; resolves at once unless a full chunk had to wait for the socket. */
  async write(line: string): Promise<void> {
    this.buffer += line;
    this.rows++;
    if (this.buffer.length >= CHUNK_CHARS) await this.flush();
  }

  /** Whether the next write would flush; lets tight loops skip an await per row. */
  get full(): boolean {
    return this.buffer.length >= CHUNK_CHARS;
  }

  append(line: string): void {
    this.buffer += line;
    this.rows++;
  }

  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.buffer.length === 0) return;
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async end(): Promise<void> {
    await this.flush();
    if (this.failure) throw this.failure;
    this.stream.end();
    await finished(this.stream);
  }

  abort(error: Error): void {
    this.failure ??= error;
    if (!this.stream.destroyed) this.stream.destroy(error);
  }
}

const TEXT_OID = 25;
const BINARY_KINDS = { bigint: 0, integer: 1, text: 2, char: 2, 'text[]': 3, jsonb: 4 } as const;

/**
 * COPY in binary format, one row of a table at a time, for the largest loads. The server parses
 * text arrays and numbers noticeably faster from their binary form, and parsing is what limits
 * a large load; jsonb is sent as its (version 1) text form either way. Rows are encoded
 * straight into a buffer that is handed to the socket when full.
 */
export class BinaryCopyWriter<Row> {
  private static readonly SIZE = 1 << 20;
  // Flush before a row would start in the last stretch of the buffer; a larger row grows it.
  private static readonly ROW_ROOM = 64 * 1024;
  private buffer = Buffer.allocUnsafe(BinaryCopyWriter.SIZE);
  private offset = 0;
  private failure: Error | null = null;
  private readonly columns: ReadonlyArray<keyof Row & string>;
  private readonly kinds: Uint8Array;
  rows = 0;

  private constructor(
    private readonly stream: CopyStreamQuery,
    table: Table<Row, unknown>,
    kinds: Uint8Array,
  ) {
    this.columns = table.columns;
    this.kinds = kinds;
    stream.on('error', (error: Error) => {
      this.failure ??= error;
    });
    this.buffer.write('PGCOPY\n\xff\r\n\0', 0, 'latin1');
    this.buffer.writeInt32BE(0, 11); // flags
    this.buffer.writeInt32BE(0, 15); // header extension length
    this.offset = 19;
  }

  static open<Row>(client: pg.ClientBase, table: Table<Row, unknown>, options = ''): BinaryCopyWriter<Row> {
    // Checked before the COPY starts, so that a refusal leaves the connection usable.
    const kinds = Uint8Array.from(table.columns, (column) => binaryKind(table.name, column, table.columnTypes[column]));
    const sql = `COPY ${table.name} (${table.columns.join(', ')}) FROM STDIN WITH (FORMAT binary${options ? `, ${options}` : ''})`;
    return new BinaryCopyWriter(client.query(copyFrom(sql)), table, kinds);
  }

  /** Whether it is time to flush; lets tight loops skip an await per row. */
  get full(): boolean {
    return this.offset > BinaryCopyWriter.SIZE - BinaryCopyWriter.ROW_ROOM;
  }

  append(row: Row): void {
    const { columns, kinds } = this;
    this.reserve(2);
    this.offset = this.buffer.writeInt16BE(columns.length, this.offset);
    for (let i = 0; i < columns.length; i++) {
      const value = row[columns[i] as keyof Row] as unknown;
      if (value === null || value === undefined) {
        this.reserve(4);
        this.offset = this.buffer.writeInt32BE(-1, this.offset);
        continue;
      }
      switch (kinds[i]) {
        case BINARY_KINDS.bigint:
          this.int64(value as number);
          break;
        case BINARY_KINDS.integer:
          this.int32(value as number);
          break;
        case BINARY_KINDS.text:
          this.text(value as string);
          break;
        case BINARY_KINDS['text[]']:
          this.textArray(value as readonly string[]);
          break;
        default:
          this.jsonb(JSON.stringify(value));
      }
    }
    this.rows++;
  }

  async flush(): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.offset === 0) return;
    const chunk = this.buffer.subarray(0, this.offset);
    this.buffer = Buffer.allocUnsafe(BinaryCopyWriter.SIZE);
    this.offset = 0;
    if (!this.stream.write(chunk)) await once(this.stream, 'drain');
  }

  async end(): Promise<void> {
    this.reserve(2);
    this.offset = this.buffer.writeInt16BE(-1, this.offset);
    await this.flush();
    this.stream.end();
    await finished(this.stream);
  }

  abort(error: Error): void {
    this.failure ??= error;
    if (!this.stream.destroyed) this.stream.destroy(error);
  }

  /** Makes room for `bytes` more: a row larger than what is left grows the buffer instead of being cut. */
  private reserve(bytes: number): void {
    if (this.offset + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.offset + bytes));
    this.buffer.copy(grown, 0, 0, this.offset);
    this.buffer = grown;
  }

  private int32(value: number): void {
    this.reserve(8);
    this.offset = this.buffer.writeInt32BE(4, this.offset);
    this.offset = this.buffer.writeInt32BE(value, this.offset);
  }

  private int64(value: number): void {
    this.reserve(12);
    this.offset = this.buffer.writeInt32BE(8, this.offset);
    this.offset = this.buffer.writeInt32BE(Math.floor(value / 4294967296), this.offset);
    this.offset = this.buffer.writeUInt32BE(value >>> 0, this.offset);
  }

  /** Length-prefixed UTF-8 text; the prefix is filled in once the byte length is known. */
  private text(value: string): void {
    // A UTF-16 code unit never takes more than 3 bytes of UTF-8.
    this.reserve(4 + value.length * 3);
    const bytes = this.buffer.write(value, this.offset + 4);
    this.buffer.writeInt32BE(bytes, this.offset);
    this.offset += 4 + bytes;
  }

  private jsonb(json: string): void {
    this.reserve(5 + json.length * 3);
    const bytes = this.buffer.write(json, this.offset + 5);
    this.buffer.writeInt32BE(bytes + 1, this.offset);
    this.buffer[this.offset + 4] = 1; // jsonb format version
    this.offset += 5 + bytes;
  }

  /** A one-dimensional text[]: dimensions, null flag, element type (text), then the elements. */
  private textArray(values: readonly string[]): void {
    this.reserve(24);
    const start = this.offset;
    this.offset += 4;
    this.offset = this.buffer.writeInt32BE(values.length === 0 ? 0 : 1, this.offset);
    this.offset = this.buffer.writeInt32BE(0, this.offset);
    this.offset = this.buffer.writeInt32BE(TEXT_OID, this.offset);
    if (values.length > 0) {
      this.offset = this.buffer.writeInt32BE(values.length, this.offset);
      this.offset = this.buffer.writeInt32BE(1, this.offset);
      for (const value of values) this.text(value);
    }
    // Growing keeps what was written, so `start` still points at the length prefix.
    this.buffer.writeInt32BE(this.offset - start - 4, start);
  }
}

function binaryKind(table: string, column: string, type: ColumnType): number {
  if (type === 'date')
    throw new Error(
      `binary COPY of ${table}.${column}: date columns are not encoded in binary; load this table as text`,
    );
  return BINARY_KINDS[type];
}
