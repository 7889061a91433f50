import { expect } from 'vitest';
import type { TestApp, TestResponse } from '../helpers/app.js';

/** Tests poll much faster than the documented intervals: lift the per-key limits for them. */
export const testEnv = {
  JOB_POLL_INTERVAL_MS: '20',
  RATE_LIMIT_STATUS_PER_MINUTE: '100000',
  RATE_LIMIT_STANDARD_PER_MINUTE: '100000',
  RATE_LIMIT_HEAVY_PER_MINUTE: '100000',
};

/**
 * Test helpers of the audience workflow. The CSV reader is written here from RFC 4180,
 * independently of the service's writer, so that a wrong writer cannot agree with itself.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch === '"' && field === '') {
      quoted = true;
    } else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else {
      if (ch === '\n' || ch === '\r') throw new Error(`bare line break at ${i}: records must end with CRLF`);
      field += ch;
    }
  }
  if (field !== '' || record.length) throw new Error('the file does not end with CRLF');
  return records;
}

/** Records as objects keyed by the header row. */
export function csvObjects(text: string): { header: string[]; rows: Array<Record<string, string>> } {
  const [header, ...records] = parseCsv(text);
  if (!header) throw new Error('empty CSV');
  for (const record of records) expect(record.length).toBe(header.length);
  return { header, rows: records.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] as string]))) };
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 30_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * The rows of a job once it has finished. A handler writes its own end (an audience NORMAL, a task DONE) before the runner
 * marks the job succeeded, so a test that saw the first must wait for the second.
 */
export async function finishedJob(
  query: (text: string, params: unknown[]) => Promise<Array<{ attempts: number; status: string }>>,
  text: string,
  params: unknown[],
): Promise<Array<{ attempts: number; status: string }>> {
  return waitFor('the job to finish', async () => {
    const rows = await query(text, params);
    return rows.length > 0 && rows.every((row) => row.status === 'succeeded' || row.status === 'failed') ? rows : null;
  });
}

export function ok(response: TestResponse): TestResponse {
  if (response.status !== 200)
    throw new Error(`expected 200, got ${response.status}: ${JSON.stringify(response.body)}`);
  return response;
}

export async function balanceOf(app: TestApp, apiKey: string): Promise<number> {
  const response = ok(await app.request('GET', `/v1/credits?apiKey=${encodeURIComponent(apiKey)}`));
  const output = response.body.output as Record<string, unknown>;
  const balance = output.balance ?? output.credits ?? output.creditBalance;
  if (typeof balance !== 'number') throw new Error(`no balance in ${JSON.stringify(output)}`);
  return balance;
}

/** Creates, sets filters and builds an audience, and waits for the build to finish. */
export async function buildAudience(
  app: TestApp,
  apiKey: string,
  options: {
    name?: string;
    creationMethod?: 'NORMAL' | 'START_FROM_PROSPECTS';
    filters: Record<string, unknown>;
    expect?: 'NORMAL' | 'FAILED';
  },
): Promise<{ audienceId: string; status: Record<string, unknown> }> {
  const created = ok(
    await app.request('POST', '/v1/audiences/create', {
      apiKey,
      name: options.name ?? 'Test audience',
      creationMethod: options.creationMethod ?? 'NORMAL',
    }),
  );
  const audienceId = created.body.output.audienceId as string;
  ok(await app.request('PATCH', `/v1/audiences/${audienceId}/search-params`, { apiKey, ...options.filters }));
  ok(await app.request('POST', `/v1/audiences/${audienceId}/build`, { apiKey }));
  const status = await waitFor('the build', async () => {
    const response = ok(await app.request('GET', `/v1/audiences/${audienceId}?apiKey=${apiKey}`));
    return response.body.output.status === 'BUILDING' ? null : (response.body.output as Record<string, unknown>);
  });
  expect(status.status).toBe(options.expect ?? 'NORMAL');
  return { audienceId, status };
}

export async function waitForExport(
  app: TestApp,
  apiKey: string,
  audienceId: string,
  exportId: string,
): Promise<Record<string, unknown>> {
  return waitFor('the export', async () => {
    const response = ok(await app.request('GET', `/v1/audiences/${audienceId}/exports/${exportId}?apiKey=${apiKey}`));
    const output = response.body.output as Record<string, unknown>;
    return output.status === 'READY' || output.status === 'FAILED' ? output : null;
  });
}

export async function waitForEnrichment(
  app: TestApp,
  apiKey: string,
  audienceId: string,
  seen?: Array<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  return waitFor(
    'the enrichment',
    async () => {
      const response = ok(await app.request('GET', `/v1/audiences/${audienceId}/enrichment/status?apiKey=${apiKey}`));
      const output = response.body.output as Record<string, unknown>;
      seen?.push(output);
      return output.status === 'DONE' || output.status === 'FAILED' ? output : null;
    },
    60_000,
    20,
  );
}

/** The headers and text of a single-part RFC 5322 message (quoted-printable or 7bit body, RFC 2047 encoded words). */
export function readMail(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n') >= 0 ? raw.indexOf('\r\n\r\n') : raw.indexOf('\n\n');
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const qp = /quoted-printable/i.test(headers['content-transfer-encoding'] ?? '');
  return { headers, text: qp ? decodeQuotedPrintable(body) : body };
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_m, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}
