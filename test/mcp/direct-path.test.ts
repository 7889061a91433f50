import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { classifyInboundRequest, createMcpHandler, type AuthInfo } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AppContext } from '../../src/context.js';
import { createLogger } from '../../src/log.js';
import { DirectPath, ReadBodies, RouteVerdicts } from '../../src/mcp/fast-path.js';
import { directPathCounts, metricsEnv } from '../helpers/direct-path.js';
import type { Gateway } from '../../src/mcp/gateway.js';
import { createServerFactory, type CallerInfo } from '../../src/mcp/server.js';
import type { McpTool } from '../../src/mcp/tools/table.js';
import { startService, type RunningService } from '../../src/service.js';
import { buildAudience, testEnv, waitFor } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { createLogScanner } from '../helpers/log-scanner.js';

/**
 * The direct path answers common tool calls without the SDK. It must answer exactly as the SDK
 * would: every case below is sent to an instance with the direct path and to one without it
 * (MCP_DIRECT_PATH=false), on one database, by two accounts with the same credits, and the
 * answers must be the same (status, headers and JSON-RPC message; only what is random by design
 * is normalised: request ids, confirmation tokens, stored-result ids, timestamps), while the
 * counters show which path answered.
 */

type Era = 'modern' | 'legacy';
type Side = 'direct' | 'sdk';

const modernEnvelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'direct-path-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface RawCall {
  era: Era;
  tool: string;
  args: unknown;
  headers?: Record<string, string>;
  meta?: Record<string, unknown>;
}

interface RawAnswer {
  status: number;
  contentType: string;
  headers: Record<string, string>;
  message: unknown;
  /** The JSON-RPC message as it came, before normalisation. */
  raw: string;
}

/** Values that are random by design, named by what they are so that two answers compare. */
const randomByDesign: Array<[RegExp, string]> = [
  // Cursors first: a cursor's random letters can contain what looks like a stored result's id ("r_" and 16 more), which
  // once replaced inside one cursor and not the other (seen in a full run as an ordinary user).
  [/(nextCursor\\?":\s*\\?")[A-Za-z0-9_.-]+/g, '$1<cursor of the account>'],
  [/ct1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g, '<confirmation token>'],
  [/r_[A-Za-z0-9_-]{16}/g, '<stored result>'],
  [/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<timestamp>'],
  // The two accounts differ only in their generated names (and in what is signed for each: the cursors above).
  [/Test account [a-z0-9]+/g, 'Test account'],
];

function normalised(json: string, replacements: Array<[RegExp, string]> = []): unknown {
  let text = json;
  for (const [pattern, name] of [...randomByDesign, ...replacements]) text = text.replace(pattern, name);
  return text ? JSON.parse(text) : null;
}

/**
 * Headers as a client reads them. The request id is random per request (both answers must carry
 * one); Date is the clock; the framing differs by design (the direct path knows its length, the
 * SDK streams chunked), and says nothing about the answer.
 */
function comparableHeaders(headers: Headers, requestLog: boolean): Record<string, string> {
  const all = Object.fromEntries(headers);
  if (requestLog) expect(all['x-request-id']).toMatch(/^[\w.-]{1,100}$/);
  const { date: _date, 'x-request-id': _id, 'content-length': _length, 'transfer-encoding': _chunked, ...rest } = all;
  return rest;
}

async function post(
  url: string,
  apiKey: string,
  call: RawCall,
  id: number,
  replacements: Array<[RegExp, string]> = [],
  requestLog = true,
): Promise<RawAnswer> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'x-api-key': apiKey,
  };
  const params: Record<string, unknown> = { name: call.tool, arguments: call.args };
  if (call.era === 'modern') {
    Object.assign(headers, { 'mcp-method': 'tools/call', 'mcp-name': call.tool, 'mcp-protocol-version': '2026-07-28' });
    params._meta = call.meta ?? modernEnvelope;
  }
  Object.assign(headers, call.headers);
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  // A 2025-era exchange answers with a one-event stream; its data line is the message.
  const json = contentType.startsWith('text/event-stream') ? (/^data: (.*)$/m.exec(text)?.[1] ?? '') : text;
  return {
    status: response.status,
    contentType,
    headers: comparableHeaders(response.headers, requestLog),
    message: normalised(json, replacements),
    raw: json,
  };
}

/** The structured content of a tool result in a raw answer. */
function structuredOf(answer: RawAnswer): Record<string, any> {
  return (JSON.parse(answer.raw) as { result: { structuredContent: Record<string, any> } }).result.structuredContent;
}

// The file compares the two paths itself: the pass with the direct path off (npm run test:mcp-sdk-path) has nothing to add.
const bothPaths = describe.skipIf(process.env.MCP_DIRECT_PATH === 'false');

bothPaths('MCP direct path', () => {
  let app: TestApp;
  let sdkOnly: RunningService;
  let sdkOnlyDataDir: string;
  const keys: Record<Side, string> = { direct: '', sdk: '' };
  const audiences: Record<Side, string> = { direct: '', sdk: '' };
  const logLines: string[] = [];
  const scanner = createLogScanner();

  beforeAll(async () => {
    // The service logs into the scanner (no key, token, email or phone may appear) and here, so
    // that a test can wait for what the service reports.
    const stream = new Writable({
      write(chunk: Buffer, encoding, done) {
        logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        scanner.stream.write(chunk, encoding, done);
      },
    });
    app = await startTestApp({
      catalog: 'seeded',
      // Every tool is called many times below: no class's limit may refuse one side and not the other.
      env: { ...testEnv, ...metricsEnv, RATE_LIMIT_SEARCH_PER_MINUTE: '100000' },
      log: createLogger('debug', stream),
    });
    sdkOnlyDataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-sdk-only-'));
    const config = app.service.context.config;
    sdkOnly = await startService(
      {
        ...config,
        dataDir: sdkOnlyDataDir,
        exportDir: path.join(sdkOnlyDataDir, 'exports'),
        JOB_WORKER: false,
        MCP_DIRECT_PATH: false,
      },
      { log: createLogger('silent') },
    );
    for (const side of ['direct', 'sdk'] as const) {
      keys[side] = (await app.createAccount({ credits: 5_000 })).apiKey;
      // The same filters and caps give both accounts the same records, so their estimates agree.
      const built = await buildAudience(app, keys[side], {
        name: 'Direct path audience',
        filters: {
          maxCompanies: 3,
          maxProspects: 6,
          companySearchParams: { headquartersCountryCode: ['US'] },
          prospectSearchParams: {},
        },
      });
      audiences[side] = built.audienceId;
    }
  });
  afterAll(async () => {
    await sdkOnly?.stop();
    await app?.stop();
    if (sdkOnlyDataDir) await rm(sdkOnlyDataDir, { recursive: true, force: true });
    expect(scanner.findings).toEqual([]);
  });

  const urlOf = (side: Side, surface: string) => `${side === 'direct' ? app.url : sdkOnly.url}${surface}`;
  /** Each account's own audience (and the estimate made of it) reads as the same name. */
  const audienceNamed = (side: Side): Array<[RegExp, string]> => [
    [new RegExp(`("audienceId":\\s*"?)${audiences[side]}\\b`, 'g'), '$1<audience>'],
    [/("estimateId\\?":\\?")\d+/g, '$1<estimate>'],
  ];

  /** Sends the call to both instances and returns both answers, with which path answered on the direct instance. */
  async function both(
    call: RawCall | ((side: Side) => RawCall),
    surface = '/mcp',
  ): Promise<{ direct: RawAnswer; sdk: RawAnswer; answeredDirectly: boolean }> {
    const callOf = (side: Side) => (typeof call === 'function' ? call(side) : call);
    const before = (await directPathCounts(app.service)).answered;
    const direct = await post(urlOf('direct', surface), keys.direct, callOf('direct'), 41, audienceNamed('direct'));
    const answeredDirectly = (await directPathCounts(app.service)).answered === before + 1;
    const sdk = await post(urlOf('sdk', surface), keys.sdk, callOf('sdk'), 41, audienceNamed('sdk'));
    return { direct, sdk, answeredDirectly };
  }

  const sameAnswer = (answer: { direct: RawAnswer; sdk: RawAnswer }) => {
    const { raw: _direct, ...direct } = answer.direct;
    const { raw: _sdk, ...sdk } = answer.sdk;
    expect(direct).toEqual(sdk);
  };

  const trigger = (side: Side) => ({
    audienceId: audiences[side],
    enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false },
    runContactEnrichment: true,
  });
  /** Worst case 600 credits, over the confirmation threshold (CONFIRM_ABOVE_CREDITS, 500). */
  const bigPage = { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 600 };

  type Case = [string, Omit<RawCall, 'era'> | ((side: Side) => Omit<RawCall, 'era'>)];
  const answeredCases: Case[] = [
    ['a search', { tool: 'search_endpoints', args: { query: 'find software companies in Germany', limit: 3 } }],
    [
      'a filtered search',
      { tool: 'search_endpoints', args: { query: 'how many credits are left', freeOnly: true, category: 'account' } },
    ],
    ['a search that finds nothing', { tool: 'search_endpoints', args: { query: 'zzzz qqqq' } }],
    ['the details of an operation', { tool: 'get_endpoint_details_full', args: { operationId: 'peopleSearch' } }],
    ['an unknown operation', { tool: 'get_endpoint_details_full', args: { operationId: 'peopleSerch' } }],
    ['a free call', { tool: 'call_operation', args: { operationId: 'getCreditBalance', payload: {} } }],
    [
      'a charged page',
      {
        tool: 'call_operation',
        args: {
          operationId: 'companySearch',
          payload: { searchParams: { headquartersCountryCode: ['DE'] }, pageSize: 5 },
        },
      },
    ],
    [
      'a payload the registry refuses',
      { tool: 'call_operation', args: { operationId: 'companySearch', payload: { pageSize: 'many' } } },
    ],
    [
      "a REST refusal (another account's audience)",
      { tool: 'call_operation', args: { operationId: 'getAudienceStatus', payload: { audienceId: '999999999' } } },
    ],
    [
      'a call over the threshold that needs confirmation by token',
      { tool: 'call_operation', args: { operationId: 'companySearch', payload: bigPage } },
    ],
    [
      'a call that always needs confirmation by token',
      (side) => ({ tool: 'call_operation', args: { operationId: 'triggerEnrichment', payload: trigger(side) } }),
    ],
  ];
  const withEra = (call: Case[1], era: Era) =>
    typeof call === 'function' ? (side: Side) => ({ ...call(side), era }) : { ...call, era };

  for (const era of ['modern', 'legacy'] as const) {
    for (const [name, call] of answeredCases) {
      it(`answers ${name} as the SDK does (${era})`, async () => {
        const answers = await both(withEra(call, era));
        expect(answers.answeredDirectly).toBe(true);
        sameAnswer(answers);
        expect(answers.direct.status).toBe(200);
        expect(answers.direct.contentType).toBe(era === 'modern' ? 'application/json' : 'text/event-stream');
        if (name.includes('confirmation by token')) {
          // Reached the token path itself: nothing ran, and the answer carries a token to send back.
          const structured = structuredOf(answers.direct);
          expect(structured.confirmationRequired.confirmationToken).toMatch(/^ct1\./);
          expect(structuredOf(answers.sdk).confirmationRequired.confirmationToken).toMatch(/^ct1\./);
        }
      });
    }
  }

  it('runs a confirmed call once on each path when the token comes back, and the charges agree', async () => {
    const first = await both({
      era: 'legacy',
      tool: 'call_operation',
      args: { operationId: 'companySearch', payload: bigPage },
    });
    const tokens = {
      direct: structuredOf(first.direct).confirmationRequired.confirmationToken,
      sdk: structuredOf(first.sdk).confirmationRequired.confirmationToken,
    };
    const balances = async () => ({
      direct: (await app.request('GET', `/v1/credits?apiKey=${keys.direct}`)).body.output.balance as number,
      sdk: (await app.request('GET', `/v1/credits?apiKey=${keys.sdk}`)).body.output.balance as number,
    });
    const before = await balances();
    const confirmed = await both((side) => ({
      era: 'legacy',
      tool: 'call_operation',
      args: { operationId: 'companySearch', payload: bigPage, confirmationToken: tokens[side] },
    }));
    expect(confirmed.answeredDirectly).toBe(true);
    sameAnswer(confirmed);
    const charged = structuredOf(confirmed.direct).chargeInfo.creditsCharged as number;
    expect(charged).toBeGreaterThan(0);
    const after = await balances();
    expect(before.direct - after.direct).toBe(charged);
    expect(before.sdk - after.sdk).toBe(charged);

    // The same token again: refused on both paths, nothing charged.
    const replayed = await both((side) => ({
      era: 'modern',
      tool: 'call_operation',
      args: { operationId: 'companySearch', payload: bigPage, confirmationToken: tokens[side] },
    }));
    sameAnswer(replayed);
    expect(structuredOf(replayed.direct).error).toMatchObject({ code: 'confirmation_refused', reason: 'used' });
    expect(await balances()).toEqual(after);
  });

  it("answers on /mcp/v2 too, and the charge lands on the caller's account", async () => {
    const before = await app.request('GET', `/v1/credits?apiKey=${keys.direct}`);
    const answers = await both(
      {
        era: 'modern',
        tool: 'call_operation',
        args: {
          operationId: 'companySearch',
          payload: { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 3 },
        },
      },
      '/mcp/v2',
    );
    expect(answers.answeredDirectly).toBe(true);
    sameAnswer(answers);
    const charged = structuredOf(answers.direct).chargeInfo.creditsCharged as number;
    expect(charged).toBeGreaterThan(0);
    const after = await app.request('GET', `/v1/credits?apiKey=${keys.direct}`);
    expect(before.body.output.balance - after.body.output.balance).toBe(charged);
  });

  const generatedCases: Case[] = [
    ['a free generated tool', { tool: 'getCreditBalance', args: {} }],
    [
      'a charged generated tool',
      { tool: 'peopleSearch', args: { searchParams: { country3LetterCode: ['DEU'] }, pageSize: 2 } },
    ],
    ['a generated tool with a payload the registry refuses', { tool: 'companySearch', args: { pageSize: 0 } }],
    ['a generated tool over the threshold that needs confirmation by token', { tool: 'companySearch', args: bigPage }],
    [
      'a generated tool that always needs confirmation by token',
      (side) => ({ tool: 'triggerEnrichment', args: trigger(side) }),
    ],
  ];
  for (const era of ['modern', 'legacy'] as const) {
    for (const [name, call] of generatedCases) {
      it(`answers ${name} on /mcp/v2 as the SDK does (${era})`, async () => {
        const answers = await both(withEra(call, era), '/mcp/v2');
        expect(answers.answeredDirectly).toBe(true);
        sameAnswer(answers);
        if (name.includes('confirmation by token'))
          expect(structuredOf(answers.direct).confirmationRequired.confirmationToken).toMatch(/^ct1\./);
      });
    }
  }

  it('answers a browser at an allowed Origin with the same CORS headers as the SDK route', async () => {
    const origin = 'http://localhost:5173';
    const answers = await both({
      era: 'modern',
      tool: 'search_endpoints',
      args: { query: 'credits' },
      headers: { origin },
    });
    expect(answers.answeredDirectly).toBe(true);
    sameAnswer(answers);
    expect(answers.direct.headers['access-control-allow-origin']).toBe(origin);
  });

  const passedOnCases: Array<[string, RawCall]> = [
    [
      'arguments its schema refuses (the SDK words the error)',
      { era: 'modern', tool: 'search_endpoints', args: { limit: 3 } },
    ],
    [
      'a tool this surface does not have (a generated one on /mcp)',
      { era: 'legacy', tool: 'getCreditBalance', args: {} },
    ],
    [
      'a 2026 client that can be asked by form',
      {
        era: 'modern',
        tool: 'call_operation',
        args: { operationId: 'getCreditBalance', payload: {} },
        meta: { ...modernEnvelope, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
      },
    ],
    [
      'a header that disagrees with the body',
      {
        era: 'modern',
        tool: 'search_endpoints',
        args: { query: 'credits' },
        headers: { 'mcp-name': 'get_endpoint_details_full' },
      },
    ],
    [
      'a modern version header without the envelope',
      {
        era: 'legacy',
        tool: 'search_endpoints',
        args: { query: 'credits' },
        headers: { 'mcp-protocol-version': '2026-07-28' },
      },
    ],
    [
      'an envelope the SDK refuses',
      {
        era: 'modern',
        tool: 'search_endpoints',
        args: { query: 'credits' },
        meta: { ...modernEnvelope, 'io.modelcontextprotocol/clientCapabilities': 5 },
      },
    ],
    [
      'an unknown protocol version',
      {
        era: 'legacy',
        tool: 'search_endpoints',
        args: { query: 'credits' },
        headers: { 'mcp-protocol-version': '1999-01-01' },
      },
    ],
  ];

  for (const [name, call] of passedOnCases) {
    it(`passes ${name} to the SDK, body intact`, async () => {
      const passedBefore = (await directPathCounts(app.service)).passedOn;
      const answers = await both(call);
      expect(answers.answeredDirectly).toBe(false);
      expect((await directPathCounts(app.service)).passedOn).toBe(passedBefore + 1);
      sameAnswer(answers);
    });
  }

  it('takes a 2025-era call that names a 2025 protocol version', async () => {
    const answers = await both({
      era: 'legacy',
      tool: 'search_endpoints',
      args: { query: 'credits' },
      headers: { 'mcp-protocol-version': '2025-06-18' },
    });
    expect(answers.answeredDirectly).toBe(true);
    sameAnswer(answers);
  });

  it('lets a client go away mid-body without an answer, and keeps serving', async () => {
    const { port } = new URL(app.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const answered: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => answered.push(chunk));
    const wentAway = logLines.filter((line) => line.includes('mcp client went away')).length;
    // The headers and part of the body, on the wire before the client goes.
    await new Promise<void>((resolve, reject) =>
      socket.write(
        'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n' +
          `x-api-key: ${keys.direct}\r\nContent-Length: 500\r\n\r\n{"jsonrpc":"2.0","id":1,`,
        (error) => (error ? reject(error) : resolve()),
      ),
    );
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.destroy();
    await closed;
    // The direct path sees the client gone and says so; it never answers, and nothing is left waiting.
    await waitFor(
      'the direct path to see the client gone',
      async () => logLines.filter((line) => line.includes('mcp client went away')).length > wentAway,
      10_000,
      10,
    );
    expect(Buffer.concat(answered).length).toBe(0);
    expect(logLines.some((line) => line.includes('mcp direct path failed'))).toBe(false);
    const after = await post(
      `${app.url}/mcp`,
      keys.direct,
      { era: 'legacy', tool: 'search_endpoints', args: { query: 'credits' } },
      2,
    );
    expect(after.status).toBe(200);
  });

  /** A tools/call as a client may send it, well-formed or not: the JSON-RPC body and headers exactly as given. */
  interface WireCall {
    surface: string;
    body: unknown;
    headers: Record<string, string>;
  }

  async function send(side: Side, apiKey: string, call: WireCall): Promise<Omit<RawAnswer, 'raw'>> {
    const response = await fetch(urlOf(side, call.surface), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': apiKey,
        ...call.headers,
      },
      body: JSON.stringify(call.body),
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    const json = contentType.startsWith('text/event-stream') ? (/^data: (.*)$/m.exec(text)?.[1] ?? '') : text;
    let message: unknown = json;
    try {
      message = normalised(json);
    } catch {
      // Not JSON (a plain-text refusal): compared as it came.
    }
    return { status: response.status, contentType, headers: comparableHeaders(response.headers, true), message };
  }

  /** The same wire call, by one account, to both instances: the answers must be the same. */
  async function sameOnBoth(apiKey: string, call: WireCall): Promise<void> {
    const direct = await send('direct', apiKey, call);
    const sdk = await send('sdk', apiKey, call);
    expect(direct, JSON.stringify(call)).toEqual(sdk);
  }

  const wireCall = (era: Era, surface: string, name: string, args: unknown, id: unknown = 5): WireCall => {
    const params: Record<string, unknown> = { name, arguments: args };
    const headers: Record<string, string> = {};
    if (era === 'modern') {
      params._meta = modernEnvelope;
      Object.assign(headers, { 'mcp-method': 'tools/call', 'mcp-name': name, 'mcp-protocol-version': '2026-07-28' });
    }
    return { surface, headers, body: { jsonrpc: '2.0', id, method: 'tools/call', params } };
  };

  async function toolsOf(surface: string): Promise<Array<{ name: string; annotations?: { readOnlyHint?: boolean } }>> {
    const response = await fetch(urlOf('direct', surface), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': keys.direct,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    const text = await response.text();
    return JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text).result.tools;
  }

  it('answers every tool of every API-key surface as the SDK does, in both eras', async () => {
    const answeredBefore = (await directPathCounts(app.service)).answered;
    let generated = 0;
    for (const surface of ['/mcp', '/mcp/v2']) {
      const tools = await toolsOf(surface);
      expect(tools.length).toBeGreaterThanOrEqual(surface === '/mcp' ? 3 : 30);
      if (surface === '/mcp/v2') generated = tools.length;
      for (const tool of tools) {
        for (const era of ['modern', 'legacy'] as const) {
          // A field no schema has: refused by the tool's schema (the SDK words it) or by the registry (the gateway does).
          await sameOnBoth(keys.direct, wireCall(era, surface, tool.name, { notAField: true }));
          if (tool.annotations?.readOnlyHint) {
            // A read with no arguments, by one account on both paths: the same data, the same answer. The request log
            // would show the first path's call to the second, so it is read before any call was made.
            const { apiKey } = await app.createAccount({ credits: 100 });
            const args = tool.name === 'listRequestLog' ? { to: '2000-01-01T00:00:00Z' } : {};
            await sameOnBoth(apiKey, wireCall(era, surface, tool.name, args));
          }
        }
      }
    }
    // The direct path took its share (the registry's refusals of every generated tool at least): this compared it, not
    // the SDK with itself.
    expect((await directPathCounts(app.service)).answered).toBeGreaterThan(answeredBefore + generated);
  });

  it('answers a fuzz corpus of tool calls, well-formed or not, as the SDK does', async () => {
    const { apiKey } = await app.createAccount({ credits: 100 });
    const names = [...(await toolsOf('/mcp')), ...(await toolsOf('/mcp/v2'))].map((tool) => tool.name);
    const json = fc.jsonValue({ maxDepth: 3 });
    const argumentsOf = fc.oneof(
      fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 4 }),
      fc.record({ query: fc.string({ maxLength: 40 }), limit: fc.integer({ min: -2, max: 30 }) }, { requiredKeys: [] }),
      fc.record(
        { operationId: fc.constantFrom('getCreditBalance', 'listRegions', 'nope', ''), payload: json },
        { requiredKeys: [] },
      ),
      json,
    );
    const call = fc.record({
      era: fc.constantFrom<Era>('modern', 'legacy'),
      surface: fc.constantFrom('/mcp', '/mcp/v2'),
      name: fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 20 })),
      args: argumentsOf,
      id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null), fc.double({ noNaN: true })),
      // What a client may get wrong around the call: a header, the envelope, a key of params.
      twist: fc.constantFrom('none', 'no-headers', 'wrong-name-header', 'old-version', 'bad-envelope', 'extra-param'),
    });
    await fc.assert(
      fc.asyncProperty(call, async ({ era, surface, name, args, id, twist }) => {
        const wire = wireCall(era, surface, name, args, id);
        const params = (wire.body as { params: Record<string, unknown> }).params;
        if (twist === 'no-headers') wire.headers = {};
        if (twist === 'wrong-name-header') wire.headers['mcp-name'] = `${name}x`;
        if (twist === 'old-version') wire.headers['mcp-protocol-version'] = '2025-06-18';
        if (twist === 'bad-envelope') params._meta = { ...modernEnvelope, 'io.modelcontextprotocol/clientInfo': 7 };
        if (twist === 'extra-param') params.cursor = 'x';
        await sameOnBoth(apiKey, wire);
      }),
      { numRuns: 60, seed: 3_212 },
    );
  });

  it('leaves refusals to the Express routes: a bad key is 401, a foreign Origin 403', async () => {
    const call: RawCall = { era: 'legacy', tool: 'search_endpoints', args: { query: 'credits' } };
    const before = await directPathCounts(app.service);
    const badKey = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-api-key': 'pds_not_a_key',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: call.tool, arguments: call.args },
      }),
    });
    expect(badKey.status).toBe(401);
    await badKey.text();
    const foreign = await post(
      `${app.url}/mcp`,
      keys.direct,
      { ...call, headers: { origin: 'https://evil.example' } },
      1,
    );
    expect(foreign.status).toBe(403);
    expect(await directPathCounts(app.service)).toEqual(before);
  });
});

bothPaths('the direct path and the SDK around a tool that throws', () => {
  // The real direct path in front of the real SDK handler, both from one table whose tool fails:
  // a branch no tool of the service takes on purpose, answered the same way by both.
  const explode: McpTool = {
    name: 'explode',
    title: 'Explode',
    description: 'Fails every time.',
    input: z.object({ why: z.string().optional() }),
    inputSchema: { type: 'object', properties: { why: { type: 'string' } } },
    annotations: { readOnlyHint: true },
    mayAsk: false,
    run: async (args) => {
      throw new Error(`the tool failed: ${(args as { why?: string }).why ?? 'no reason'}`);
    },
  };
  const tools = new Map([[explode.name, explode]]);
  const caller: CallerInfo = {
    principal: { accountId: 1, accountName: 'Test', plan: 'pro', email: null },
  };
  const auth: AuthInfo = { token: 'x-api-key', clientId: 'account:1', scopes: [], extra: { caller } };
  const serverInfo = { name: 'throwing-test', version: '1.0.0' };
  const servers: Server[] = [];
  const bodies = new ReadBodies();
  let direct: DirectPath;
  let directUrl = '';
  let sdkUrl = '';

  beforeAll(async () => {
    const factory = createServerFactory(
      {
        // Neither the gateway nor the codec is reached by a tool that throws before using them.
        gateway: null as unknown as Gateway,
        rateLimits: { search: 1, standard: 1, status: 1, heavy: 1 },
        confirmationCodec: () => Promise.reject(new Error('no confirmation here')),
        ...serverInfo,
      },
      tools,
    );
    const sdk = toNodeHandler(createMcpHandler(factory));
    const sdkListener = (req: IncomingMessage, res: ServerResponse) => {
      void sdk(Object.assign(bodies.replayed(req), { auth }), res);
    };
    const context = { log: createLogger('silent'), services: {} } as unknown as AppContext;
    direct = new DirectPath({
      context,
      serverInfo,
      surfaces: new Map([['/mcp', { tools, authenticate: async () => auth }]]),
      allowedHosts: null,
      allowedOrigins: ['localhost', '127.0.0.1'],
      bodies,
    });
    const withDirectPath = direct.before(sdkListener);
    for (const listener of [withDirectPath, sdkListener]) {
      const server = createServer(listener);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
    }
    directUrl = `http://127.0.0.1:${(servers[0]?.address() as AddressInfo).port}/mcp`;
    sdkUrl = `http://127.0.0.1:${(servers[1]?.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
  });

  for (const era of ['modern', 'legacy'] as const) {
    it(`answers the tool's failure as a tool error, as the SDK does (${era})`, async () => {
      const call: RawCall = { era, tool: 'explode', args: { why: 'boom' } };
      const before = direct.counts.answered;
      // Only the service's own listener adds a request id; these two are bare.
      const answered = await post(directUrl, 'unused', call, 9, [], false);
      expect(direct.counts.answered).toBe(before + 1);
      const sdk = await post(sdkUrl, 'unused', call, 9, [], false);
      delete answered.headers['x-request-id'];
      const { raw: _d, ...directAnswer } = answered;
      const { raw: _s, ...sdkAnswer } = sdk;
      expect(directAnswer).toEqual(sdkAnswer);
      expect(answered.status).toBe(200);
      expect(answered.message).toMatchObject({ id: 9, result: { isError: true } });
      expect(answered.raw).toContain('the tool failed: boom');
    });
  }
});

bothPaths("the direct path's route check", () => {
  it("gives a tools/call the era the SDK's classifier gives it, or none where the SDK routes it otherwise", () => {
    const verdicts = new RouteVerdicts();
    const envelopes: Array<Record<string, unknown> | undefined> = [
      undefined,
      {},
      modernEnvelope,
      { ...modernEnvelope, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } },
      { ...modernEnvelope, 'io.modelcontextprotocol/clientCapabilities': 5 },
      { ...modernEnvelope, 'io.modelcontextprotocol/clientInfo': { name: 7 } },
      { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
      { ...modernEnvelope, 'io.modelcontextprotocol/protocolVersion': '2030-01-01' },
      { ...modernEnvelope, 'io.modelcontextprotocol/protocolVersion': 20260728 },
      { progressToken: 3 },
    ];
    const headerSets: Array<Record<string, string | undefined>> = [
      {},
      { protocolVersionHeader: '2026-07-28', mcpMethodHeader: 'tools/call', mcpNameHeader: 'search_endpoints' },
      { protocolVersionHeader: '2026-07-28', mcpMethodHeader: 'tools/call', mcpNameHeader: 'call_operation' },
      { protocolVersionHeader: '2026-07-28' },
      { protocolVersionHeader: '2025-06-18' },
      { protocolVersionHeader: '1999-01-01' },
    ];
    for (const meta of envelopes) {
      for (const headers of headerSets) {
        // The classifier on the whole call, arguments included, as the SDK's handler asks it.
        const route = classifyInboundRequest({
          httpMethod: 'POST',
          ...Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)),
          body: {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'search_endpoints', arguments: { query: 'credits' }, ...(meta ? { _meta: meta } : {}) },
          },
        });
        const question = {
          protocolVersionHeader: headers.protocolVersionHeader,
          mcpMethodHeader: headers.mcpMethodHeader,
          mcpNameHeader: headers.mcpNameHeader,
          name: 'search_endpoints',
          meta,
        };
        const era = verdicts.era(question);
        const label = JSON.stringify({ meta, headers });
        if (route.kind === 'modern') expect(era === 'modern' || era === null, label).toBe(true);
        if (era === 'modern')
          expect(route.kind === 'modern' && route.classification.revision, label).toBe('2026-07-28');
        if (era === 'legacy') expect(route, label).toMatchObject({ kind: 'legacy', reason: 'no-claim' });
        if (route.kind === 'reject') expect(era, label).toBeNull();
        // Asked again, the remembered verdict is the same.
        expect(verdicts.era(question)).toBe(era);
      }
    }
  });
});
