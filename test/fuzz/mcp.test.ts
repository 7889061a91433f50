import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyOperation } from '../../operations/define.js';
import { operations } from '../../operations/index.js';
import { maxMcpBodyBytes } from '../../src/mcp/fast-path.js';
import type { TestApp } from '../helpers/app.js';
import { clientKinds, connectMcp, type McpTestClient, type ToolAnswer } from '../mcp/clients.js';
import { accountWithResources, hintsFor, ledgerState, realValues, startFuzzApp, type FuzzAccount } from './fixtures.js';
import { fuzzParameters } from './runs.js';
import { fieldName } from './schema-arbitraries.js';
import { encode, fieldsInclude, invalidCase, printable, serverView, validCase } from './wire.js';

/**
 * The MCP tools with junk, through the official clients over HTTP: call_operation with payloads
 * that are valid, broken in one known place, or anything at all, for real and made-up
 * operationIds, with made-up confirmation tokens and stored-result ids; search_endpoints with any
 * query and filters. A fault of the call is a tool error (isError), never a protocol error and
 * never a 5xx; a broken payload's error names the field; and no call moves credits except an
 * operation charged now, by at most its worst case. The background worker is off, so that what a
 * call charges is what the balance shows right after it.
 */
const file = 'test/fuzz/mcp.test.ts';

type Call = { args: Record<string, unknown>; operation: AnyOperation | null; field: string | null; summary: string };

describe('MCP tools with junk', () => {
  let app: TestApp;
  let account: FuzzAccount;
  const clients: McpTestClient[] = [];
  beforeAll(async () => {
    app = await startFuzzApp({ JOB_WORKER: 'false', CONFIRM_ABOVE_CREDITS: '500' });
    account = await accountWithResources(app, { rich: false, credits: 10_000_000 });
    for (const kind of clientKinds)
      clients.push(await connectMcp(`${app.url}/mcp`, kind, { headers: { 'x-api-key': account.apiKey } }));
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await app?.stop();
  });

  const toolError = (answer: ToolAnswer) =>
    answer.structuredContent?.error as
      { status?: number; code?: string; details?: { issues?: Array<{ field: string }> } } | undefined;

  it('call_operation answers every call with a result, names broken fields, never a 5xx, and moves credits only as the registry allows', async () => {
    const values = await realValues(app);
    const hints = hintsFor(account, values);
    const known = fc.constantFrom(...operations);
    const junkId = fc.oneof(
      fc.string({ maxLength: 40 }),
      known.map((o) => `${o.operationId}x`),
      known.map((o) => o.operationId.toUpperCase()),
    );
    const valid = fc
      .oneof(...operations.map((operation) => validCase(operation, hints, account.apiKey)))
      .map((call): Call => ({
        args: { operationId: call.operation.operationId, payload: serverView(call, encode(call, 'k')) },
        operation: call.operation,
        field: null,
        summary: 'valid payload',
      }));
    const broken = fc
      .oneof(...operations.map((operation) => invalidCase(operation, hints, account.apiKey)))
      .map((call): Call => ({
        args: { operationId: call.operation.operationId, payload: call.input },
        operation: call.operation,
        // A field named __proto__ never reaches the gateway: the SDK reads tool arguments through a zod record, which drops it.
        field:
          call.mutation.kind === 'deep-nesting' || call.mutation.key === '__proto__'
            ? null
            : fieldName(call.mutation.path),
        summary: `${call.mutation.kind} at ${call.field}`,
      }));
    const junk = fc
      .record(
        {
          operationId: fc.oneof(
            known.map((o) => o.operationId),
            junkId,
          ),
          payload: fc.oneof(
            fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
            fc.constant({}),
          ),
          confirmationToken: fc.string({ maxLength: 200 }),
          resultId: fc.oneof(fc.string({ maxLength: 40 }), fc.uuid()),
          offset: fc.nat({ max: 10_000 }),
        },
        { requiredKeys: ['operationId'], noNullPrototype: true },
      )
      .map((args): Call => ({
        args,
        operation: operations.find((o) => o.operationId === args.operationId) ?? null,
        field: null,
        summary: 'junk arguments',
      }));
    const calls = fc.tuple(
      fc.oneof({ arbitrary: valid, weight: 2 }, { arbitrary: broken, weight: 2 }, { arbitrary: junk, weight: 2 }),
      fc.nat({ max: clients.length - 1 }),
    );
    const withSummary = calls.map(([call, client]) =>
      printable(
        { call, client },
        () => `${clientKinds[client]}: ${call.summary}: ${JSON.stringify(call.args).slice(0, 1500)}`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(withSummary, async ({ call, client }) => {
        const before = await ledgerState(app, account.accountId);
        let answer: ToolAnswer;
        try {
          answer = await (clients[client] as McpTestClient).callTool('call_operation', call.args);
        } catch (error) {
          // A body over the MCP transport's limit is refused before any tool runs: a 413, and nothing moves.
          const bodyBytes = Buffer.byteLength(JSON.stringify(call.args));
          if ((error as { status?: number }).status === 413 && bodyBytes > maxMcpBodyBytes - 1024) {
            expect((await ledgerState(app, account.accountId)).balance).toBe(before.balance);
            return;
          }
          throw new Error(
            `a protocol error for a tool call (${call.summary}): ${(error as Error).message}\n  ${JSON.stringify(call.args).slice(0, 1500)}`,
            { cause: error },
          );
        }
        const after = await ledgerState(app, account.accountId);
        const what = `${clientKinds[client]}: ${call.summary}: ${JSON.stringify(call.args).slice(0, 800)}\n  answered ${JSON.stringify(answer).slice(0, 800)}`;
        expect(Array.isArray(answer.content) && answer.content.length > 0, what).toBe(true);
        const error = toolError(answer);
        if (answer.isError) {
          expect(error?.status ?? 400, what).toBeLessThan(500);
          expect(error?.code, what).not.toBe('internal');
        }
        if (call.field !== null) {
          expect(answer.isError, what).toBe(true);
          const named = (error?.details?.issues ?? []).map((i) => i.field);
          expect(fieldsInclude(named, call.field), `${what}\n  named ${JSON.stringify(named)}`).toBe(true);
        }
        const taken = before.balance - after.balance;
        const operation = call.operation;
        if (operation?.credits.charged === 'now' && !answer.isError && call.args.resultId === undefined) {
          // As the gateway read it: tool arguments lose a field named __proto__ on the way (see above).
          const payload = Object.fromEntries(
            Object.entries((call.args.payload ?? {}) as object).filter(([name]) => name !== '__proto__'),
          );
          const worstCase = operation.credits.worstCase(operation.input.parse(payload));
          expect(taken, what).toBeGreaterThanOrEqual(0);
          if (worstCase !== null) expect(taken, what).toBeLessThanOrEqual(worstCase);
        } else {
          expect(taken, `credits moved\n  ${what}`).toBe(0);
        }
      }),
      fuzzParameters(file, 'call_operation', 1200),
    );
  }, 600_000);

  it('search_endpoints answers any query with ranked operations, and arguments off its schema with a tool error', async () => {
    const queries = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'grapheme', maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.string({ minLength: 480, maxLength: 620 }),
      fc.constantFrom(...operations.map((o) => o.title), ...operations.flatMap((o) => o.keywords)),
    );
    const args = fc.record(
      {
        query: fc.oneof({ arbitrary: queries, weight: 8 }, { arbitrary: fc.jsonValue({ maxDepth: 1 }), weight: 1 }),
        freeOnly: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 0 })),
        maxCreditsPerCall: fc.oneof(
          fc.integer({ min: -5, max: 5000 }),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
        ),
        readOnlyOnly: fc.boolean(),
        category: fc.oneof(
          fc.constantFrom('search', 'audience', 'enrichment', 'contact', 'account'),
          fc.string({ maxLength: 10 }),
        ),
        limit: fc.oneof(fc.integer({ min: -3, max: 40 }), fc.string({ maxLength: 3 })),
      },
      { requiredKeys: [], noNullPrototype: true },
    );
    const withClient = fc
      .tuple(args, fc.nat({ max: clients.length - 1 }))
      .map(([a, client]) =>
        printable({ args: a, client }, () => `${clientKinds[client]}: ${JSON.stringify(a).slice(0, 800)}`),
      );
    let ranked = 0;
    await fc.assert(
      fc.asyncProperty(withClient, async ({ args: a, client }) => {
        let answer: ToolAnswer;
        try {
          answer = await (clients[client] as McpTestClient).callTool('search_endpoints', a);
        } catch (error) {
          throw new Error(
            `a protocol error for search_endpoints: ${(error as Error).message}\n  ${JSON.stringify(a).slice(0, 800)}`,
            { cause: error },
          );
        }
        const what = `${JSON.stringify(a).slice(0, 800)}\n  answered ${JSON.stringify(answer).slice(0, 600)}`;
        expect(answer.content.length, what).toBeGreaterThan(0);
        expect(Boolean(answer.isError), what).toBe(!fitsSearchArguments(a));
        if (!answer.isError) {
          const results = answer.structuredContent?.results as Array<{ operationId: string; credits: unknown }>;
          expect(Array.isArray(results), what).toBe(true);
          for (const result of results)
            expect(
              operations.some((o) => o.operationId === result.operationId),
              what,
            ).toBe(true);
          if (results.length) ranked += 1;
        }
      }),
      fuzzParameters(file, 'search_endpoints', 800),
    );
    expect(ranked).toBeGreaterThan(0);
  }, 600_000);
});

/** The arguments search_endpoints documents (its tools/list input schema): what a correct call looks like. */
function fitsSearchArguments(args: Record<string, unknown>): boolean {
  const { query, freeOnly, maxCreditsPerCall, readOnlyOnly, category, limit } = args;
  const optionalBoolean = (v: unknown) => v === undefined || typeof v === 'boolean';
  const optionalInteger = (v: unknown, min: number, max: number) =>
    v === undefined || (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max);
  return (
    typeof query === 'string' &&
    query.trim().length >= 1 &&
    query.trim().length <= 500 &&
    optionalBoolean(freeOnly) &&
    optionalBoolean(readOnlyOnly) &&
    optionalInteger(maxCreditsPerCall, 0, Number.MAX_SAFE_INTEGER) &&
    optionalInteger(limit, 1, 25) &&
    (category === undefined || ['search', 'audience', 'enrichment', 'contact', 'account'].includes(category as string))
  );
}
