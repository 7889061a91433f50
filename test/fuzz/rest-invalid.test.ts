import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../operations/index.js';
import type { TestApp } from '../helpers/app.js';
import {
  accountWithResources,
  hintsFor,
  ledgerState,
  realValues,
  snapshot,
  startFuzzApp,
  type FuzzAccount,
} from './fixtures.js';
import { fuzzParameters } from './runs.js';
import {
  describe as describeCall,
  encode,
  invalidCase,
  issueFields,
  namesField,
  validCase,
  Wire,
  type InvalidCase,
} from './wire.js';

/**
 * Inputs broken in one known place, for every operation of the registry, over HTTP to the real
 * service: wrong types, values out of range, strings and lists past their bounds, values off their
 * pattern or enum, NUL characters, unknown fields, missing fields, deep nesting, path parameters
 * that are not ids. Each must be refused with a 4xx that names the field really at fault, and
 * change nothing (balance, ledger, and every row the account owns).
 */
const file = 'test/fuzz/rest-invalid.test.ts';
/** express.json's limit in src/api/router.ts. */
const bodyLimitBytes = 2 * 1024 * 1024;

describe('invalid input over HTTP', () => {
  let app: TestApp;
  let wire: Wire;
  let account: FuzzAccount;
  beforeAll(async () => {
    app = await startFuzzApp();
    wire = new Wire(app.url);
    account = await accountWithResources(app, { rich: false });
  });
  afterAll(async () => {
    await wire?.close();
    await app?.stop();
  });

  it('is a 4xx naming the field at fault, and changes nothing', async () => {
    const values = await realValues(app);
    const hints = hintsFor(account, values);
    const anyOperation = fc.oneof(...operations.map((operation) => invalidCase(operation, hints, account.apiKey)));
    const kinds: Record<string, number> = {};
    const untouched = await snapshot(app, account.accountId);
    await fc.assert(
      fc.asyncProperty(anyOperation, async (call: InvalidCase) => {
        kinds[call.mutation.kind] = (kinds[call.mutation.kind] ?? 0) + 1;
        const request = encode(call, account.apiKey);
        const before = await ledgerState(app, account.accountId);
        const answer = await wire.send(request);
        const after = await ledgerState(app, account.accountId);
        const what = `${call.mutation.kind} at ${call.field}\n  ${describeCall(call, request, answer)}`;
        expect(answer.status, what).toBeGreaterThanOrEqual(400);
        expect(answer.status, what).toBeLessThan(500);
        expect(after, what).toEqual(before);
        if (Buffer.byteLength(String(request.body ?? '')) > bodyLimitBytes) {
          // Past the body limit nothing is parsed, so no field can be named: the limit is.
          expect(answer.status, what).toBe(413);
          expect(answer.body?.error?.code, what).toBe('payload_too_large');
          return;
        }
        expect(answer.body?.error?.code, what).toBe('invalid_request');
        expect(
          namesField(answer, call.field, call.mutation.kind === 'deep-nesting'),
          `${what}\n  named ${JSON.stringify(issueFields(answer))}`,
        ).toBe(true);
      }),
      fuzzParameters(file, 'invalid input', 4000),
    );
    // Nothing the account owns changed over the whole run: no row in any of its tables.
    expect(await snapshot(app, account.accountId)).toEqual(untouched);
    // Every kind of break was tried.
    expect(Object.keys(kinds).sort()).toEqual(
      expect.arrayContaining([
        'deep-nesting',
        'missing-required',
        'nul',
        'not-in-enum',
        'out-of-range',
        'pattern',
        'too-long',
        'too-many',
        'unknown-field',
        'wrong-type',
      ]),
    );
  }, 600_000);

  it('junk requests (any bytes, media type, encoding, method and path) are never a 5xx, and change nothing', async () => {
    const values = await realValues(app);
    // An account with nothing to build or export: junk cannot make a costly call of it by chance. A
    // junk request may still be a valid call that charges now (a typeahead, a search with defaults):
    // such answers are counted, and the balance may move by what they said they charged, no more.
    const { accountId, apiKey } = await app.createAccount({ credits: 1000 });
    const bare: FuzzAccount = {
      ...account,
      accountId,
      apiKey,
      audiences: [],
      buildable: [],
      normalAudiences: [],
      exports: [],
      tasks: [],
      exclusionLists: [],
      savedSearches: [],
      savedSearchRuns: [],
    };
    const hints = hintsFor(bare, values);
    const untouched = await snapshot(app, accountId);
    const spentBefore = await spentByKeys(app, accountId);
    const path: fc.Arbitrary<string> = fc.oneof(
      fc
        .constantFrom(...operations)
        .chain((operation) => validCase(operation, hints, apiKey).map((call) => encode(call, apiKey).path)),
      fc.webPath().map((p) => `/v1${p}`),
      fc.constantFrom(
        '/v1',
        '/v1/',
        '/v1/audiences/%E0%A4%A',
        '/v1/audiences/%00',
        '/healthz',
        '/openapi.json',
        '/llms.txt',
        '/downloads/x',
      ),
    );
    const body = fc.oneof(
      fc.json().map((text) => Buffer.from(text)),
      fc
        .dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 })
        .map((o) => Buffer.from(JSON.stringify({ ...o, apiKey }))),
      fc.string({ unit: 'binary', maxLength: 200 }).map((text) => Buffer.from(text)),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
    );
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS'),
      path,
      contentType: fc.option(
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-16',
          'application/json; charset=latin1',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/jsonx',
        ),
        { nil: undefined },
      ),
      contentEncoding: fc.option(fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'compress', 'gzip, br'), {
        freq: 5,
        nil: undefined,
      }),
      withKey: fc.boolean(),
      body,
    });
    let chargedAnswers = 0;
    let creditsCharged = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string> = {};
        if (r.contentType) headers['content-type'] = r.contentType;
        if (r.contentEncoding) headers['content-encoding'] = r.contentEncoding;
        if (r.withKey) headers['x-api-key'] = apiKey;
        const hasBody = !['GET', 'DELETE', 'OPTIONS'].includes(r.method);
        const answer = await wire.send({
          method: r.method,
          path: r.path,
          headers,
          ...(hasBody ? { body: r.body } : {}),
        });
        const charged =
          (answer.body as { chargeInfo?: { creditsCharged?: number } } | null)?.chargeInfo?.creditsCharged ?? 0;
        if (answer.status < 300 && charged > 0) {
          chargedAnswers += 1;
          creditsCharged += charged;
        }
        expect(
          answer.status,
          `${r.method} ${r.path} ${JSON.stringify(headers)}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`,
        ).toBeLessThan(500);
      }),
      fuzzParameters(file, 'junk requests', 600),
    );
    // The key's daily spend is a running total beside the ledger: one row per key and day, whatever was charged.
    const after = await snapshot(app, accountId);
    expect(await spentByKeys(app, accountId)).toBe(spentBefore + creditsCharged);
    expect({ ...after, rows: { ...after.rows, api_key_daily_spend: 0 } }).toEqual({
      balance: untouched.balance - creditsCharged,
      rows: {
        ...untouched.rows,
        credit_ledger: (untouched.rows.credit_ledger ?? 0) + chargedAnswers,
        api_key_daily_spend: 0,
      },
    });
  }, 600_000);
});

async function spentByKeys(app: TestApp, accountId: number): Promise<number> {
  const spent = await app.db.pool.query<{ spent: number }>(
    'SELECT coalesce(sum(spent), 0)::int AS spent FROM api_key_daily_spend WHERE account_id = $1',
    [accountId],
  );
  return spent.rows[0]?.spent ?? 0;
}
