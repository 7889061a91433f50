import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../operations/index.js';
import { startSsoApp, tokensWithScope, type SsoApp } from '../auth/helpers.js';
import { fuzzParameters } from './runs.js';

/**
 * /mcp/v3 with a token that holds only mcp:read, sent raw bodies: calls of every operation,
 * free and charged, wrapped in what a body can be wrapped in (byte-order marks, whitespace JSON
 * knows and whitespace it does not, other charsets, compression, batches, escaped names,
 * duplicate keys, either protocol era), with junk among them. Whatever the wrapping: never a
 * 5xx, never a credit or a ledger row moved, never a job queued, and a readable charged call is
 * 403 insufficient_scope (and, on the SDK route, so is an unreadable one). Both the direct path
 * and the SDK route are taken.
 */
const file = 'test/fuzz/mcp-read-only.test.ts';

describe('/mcp/v3 with a read-only token and any body', () => {
  const apps: SsoApp[] = [];
  const tokens: string[] = [];
  beforeAll(async () => {
    apps.push(await startSsoApp({ catalog: 'seeded', env: { CONFIRM_ABOVE_CREDITS: '500' } }));
    apps.push(await startSsoApp({ catalog: 'seeded', env: { MCP_DIRECT_PATH: 'false' } }));
    for (const sso of apps) tokens.push((await tokensWithScope(sso, 'mcp:read')).access_token);
  });
  afterAll(async () => {
    for (const sso of apps) await sso.stop();
  });

  const state = async (sso: SsoApp) => {
    const { rows } = await sso.app.db.pool.query<{ balance: string; ledger: string; jobs: string }>(
      `SELECT (SELECT balance FROM credit_balances WHERE account_id = $1) AS balance,
              (SELECT count(*) FROM credit_ledger WHERE account_id = $1) AS ledger,
              (SELECT count(*) FROM jobs) AS jobs`,
      [sso.accountId],
    );
    return rows[0];
  };

  it('moves nothing, whatever the body, and refuses every readable charged call with 403', async () => {
    const call = fc.record({
      id: fc.oneof(fc.nat(), fc.string({ maxLength: 8 })),
      operation: fc.constantFrom(...operations),
      payload: fc.oneof(
        fc.constant(null),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      ),
      confirmationToken: fc.option(fc.string({ maxLength: 60 }), { nil: undefined }),
      resultId: fc.option(fc.uuid(), { nil: undefined, freq: 8 }),
    });
    const message = call.map(({ id, operation, payload, confirmationToken, resultId }) => ({
      charges: operation.credits.charged !== 'free' && resultId === undefined,
      value: {
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name: 'call_operation',
          arguments: {
            operationId: operation.operationId,
            payload: payload ?? operation.example,
            ...(confirmationToken !== undefined ? { confirmationToken } : {}),
            ...(resultId !== undefined ? { resultId } : {}),
          },
        },
      },
    }));
    const other = fc.constantFrom(
      { charges: false, value: { jsonrpc: '2.0', id: 'l', method: 'tools/list', params: {} } },
      {
        charges: false,
        value: {
          jsonrpc: '2.0',
          id: 's',
          method: 'tools/call',
          params: { name: 'search_endpoints', arguments: { query: 'credits' } },
        },
      },
    );
    const batchOrOne = fc.oneof(
      { arbitrary: message.map((m) => ({ charges: m.charges, value: m.value as unknown })), weight: 4 },
      {
        arbitrary: fc.array(fc.oneof(message, other), { minLength: 1, maxLength: 3 }).map((list) => ({
          charges: list.some((m) => m.charges),
          value: list.map((m) => m.value) as unknown,
        })),
        weight: 1,
      },
    );
    const prefixes = ['', '', '\ufeff', '\ufeff\ufeff', ' \t\r\n', '\u00a0', '\u2028', '\u3000', '\u0000', ' \ufeff'];
    const suffixes = ['', '', '\n', '\u3000', '\u0000', '\ufeff'];
    const encodings = ['utf-8', 'utf-8', 'utf-8', 'utf-16le', 'latin1', 'gzip'] as const;
    const charsets = [undefined, undefined, 'utf-8', '"UTF-8"', 'utf-16', 'iso-8859-1', 'x-junk'];
    const cases = fc.record({
      body: batchOrOne,
      prefix: fc.constantFrom(...prefixes),
      suffix: fc.constantFrom(...suffixes),
      encoding: fc.constantFrom(...encodings),
      charset: fc.constantFrom(...charsets),
      escapeNames: fc.boolean(),
      duplicateFreeName: fc.boolean(),
      app: fc.nat({ max: 1 }),
    });
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const sso = apps[c.app] as SsoApp;
        let text = JSON.stringify(c.body.value);
        if (c.escapeNames) text = text.replaceAll('call_operation', 'call\\u005foperation');
        if (c.duplicateFreeName) text = text.replaceAll('"name":"call', '"name":"search_endpoints","name":"call');
        text = `${c.prefix}${text}${c.suffix}`;
        const body =
          c.encoding === 'gzip'
            ? gzipSync(Buffer.from(text))
            : Buffer.from(text, c.encoding === 'utf-16le' ? 'utf16le' : c.encoding === 'latin1' ? 'latin1' : 'utf8');
        const before = await state(sso);
        const answer = await fetch(sso.resource, {
          method: 'POST',
          headers: {
            'content-type': `application/json${c.charset ? `; charset=${c.charset}` : ''}`,
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${tokens[c.app]}`,
            ...(c.encoding === 'gzip' ? { 'content-encoding': 'gzip' } : {}),
          },
          body,
        });
        const answered = await answer.text();
        const what = `${JSON.stringify(c).slice(0, 600)}\n  answered ${answer.status} ${answered.slice(0, 300)}`;
        expect(answer.status, what).toBeLessThan(500);
        expect(await state(sso), `something moved\n  ${what}`).toEqual(before);
        const readable =
          (c.encoding === 'utf-8' || (c.encoding === 'latin1' && /^[\x20-\x7e\t\r\n]*$/.test(text))) &&
          [undefined, 'utf-8', '"UTF-8"'].includes(c.charset) &&
          ['', '\ufeff', ' \t\r\n'].includes(c.prefix) &&
          ['', '\n'].includes(c.suffix);
        // The SDK route refuses what it cannot read; the direct path may answer a free call it read its own way.
        if (c.body.charges || (!readable && c.app === 1)) expect(answer.status, what).toBe(403);
      }),
      fuzzParameters(file, 'read-only token', 600),
    );
  }, 600_000);
});
