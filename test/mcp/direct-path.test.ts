import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { directPathCounts, envelopeAccepted } from '../../src/mcp/fast-path.js';
import { rankOperations, rankOperationsByMiniSearch } from '../../src/mcp/search.js';
import { startService, type RunningService } from '../../src/service.js';
import { testEnv } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { intents } from './intents.js';

/**
 * The direct path answers common tool calls without the SDK. It must answer exactly as the SDK
 * would: every case below is sent to an instance with the direct path and to one without it
 * (MCP_DIRECT_PATH=false), on one database, by two accounts with the same credits, and the
 * answers must be the same, while the counters show which path answered.
 */

type Era = 'modern' | 'legacy';

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
  message: unknown;
}

async function post(url: string, apiKey: string, call: RawCall, id: number): Promise<RawAnswer> {
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
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }) });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  // A 2025-era exchange answers with a one-event stream; its data line is the message.
  const json = contentType.startsWith('text/event-stream') ? (/^data: (.*)$/m.exec(text)?.[1] ?? '') : text;
  // The two accounts differ only in their generated names.
  const sameNames = json.replace(/Test account [a-z0-9]+/g, 'Test account');
  return { status: response.status, contentType, message: sameNames ? JSON.parse(sameNames) : null };
}

describe('MCP direct path', () => {
  let app: TestApp;
  let sdkOnly: RunningService;
  let sdkOnlyDataDir: string;
  let directKey: string;
  let sdkKey: string;

  beforeAll(async () => {
    app = await startTestApp({ catalog: 'seeded', env: testEnv });
    sdkOnlyDataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-sdk-only-'));
    const config = app.service.context.config;
    sdkOnly = await startService(
      { ...config, dataDir: sdkOnlyDataDir, exportDir: path.join(sdkOnlyDataDir, 'exports'), JOB_WORKER: false, MCP_DIRECT_PATH: false },
      { log: createLogger('silent') },
    );
    directKey = (await app.createAccount({ credits: 5_000 })).apiKey;
    sdkKey = (await app.createAccount({ credits: 5_000 })).apiKey;
  });
  afterAll(async () => {
    await sdkOnly?.stop();
    await app?.stop();
    if (sdkOnlyDataDir) await rm(sdkOnlyDataDir, { recursive: true, force: true });
  });

  /** Sends the call to both instances and returns both answers, with which path answered on the direct instance. */
  async function both(call: RawCall, surface = '/mcp'): Promise<{ direct: RawAnswer; sdk: RawAnswer; answeredDirectly: boolean }> {
    const before = directPathCounts.answered;
    const direct = await post(`${app.url}${surface}`, directKey, call, 41);
    const answeredDirectly = directPathCounts.answered === before + 1;
    const sdk = await post(`${sdkOnly.url}${surface}`, sdkKey, call, 41);
    return { direct, sdk, answeredDirectly };
  }

  const answeredCases: Array<[string, Omit<RawCall, 'era'>]> = [
    ['a search', { tool: 'search_endpoints', args: { query: 'find software companies in Germany', limit: 3 } }],
    ['a filtered search', { tool: 'search_endpoints', args: { query: 'how many credits are left', freeOnly: true, category: 'account' } }],
    ['a search that finds nothing', { tool: 'search_endpoints', args: { query: 'zzzz qqqq' } }],
    ['the details of an operation', { tool: 'get_endpoint_details_full', args: { operationId: 'peopleSearch' } }],
    ['an unknown operation', { tool: 'get_endpoint_details_full', args: { operationId: 'peopleSerch' } }],
    ['a free call', { tool: 'call_operation', args: { operationId: 'getCreditBalance', payload: {} } }],
    ['a charged page', { tool: 'call_operation', args: { operationId: 'companySearch', payload: { searchParams: { headquartersCountryCode: ['DE'] }, pageSize: 5 } } }],
    ['a payload the registry refuses', { tool: 'call_operation', args: { operationId: 'companySearch', payload: { pageSize: 'many' } } }],
    ['a call that needs confirmation by token', { tool: 'call_operation', args: { operationId: 'triggerEnrichment', payload: { audienceId: 999_999, enrichmentTypes: ['work_email'] } } }],
  ];

  for (const era of ['modern', 'legacy'] as const) {
    for (const [name, call] of answeredCases) {
      it(`answers ${name} as the SDK does (${era})`, async () => {
        const { direct, sdk, answeredDirectly } = await both({ ...call, era });
        expect(answeredDirectly).toBe(true);
        expect(direct).toEqual(sdk);
        expect(direct.status).toBe(200);
        expect(direct.contentType).toBe(era === 'modern' ? 'application/json' : 'text/event-stream');
      });
    }
  }

  it('answers on /mcp/v2 too, and the charge lands on the caller\'s account', async () => {
    const before = await app.request('GET', `/v1/credits?apiKey=${directKey}`);
    const { direct, sdk, answeredDirectly } = await both(
      { era: 'modern', tool: 'call_operation', args: { operationId: 'companySearch', payload: { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 3 } } },
      '/mcp/v2',
    );
    expect(answeredDirectly).toBe(true);
    expect(direct).toEqual(sdk);
    const charged = (direct.message as { result: { structuredContent: { chargeInfo: { creditsCharged: number } } } }).result.structuredContent.chargeInfo.creditsCharged;
    expect(charged).toBeGreaterThan(0);
    const after = await app.request('GET', `/v1/credits?apiKey=${directKey}`);
    expect(before.body.output.balance - after.body.output.balance).toBe(charged);
  });

  const generatedCases: Array<[string, Omit<RawCall, 'era'>]> = [
    ['a free generated tool', { tool: 'getCreditBalance', args: {} }],
    ['a charged generated tool', { tool: 'peopleSearch', args: { searchParams: { country3LetterCode: ['DEU'] }, pageSize: 2 } }],
    ['a generated tool with a payload the registry refuses', { tool: 'companySearch', args: { pageSize: 0 } }],
    ['a generated tool that needs confirmation by token', { tool: 'triggerEnrichment', args: { audienceId: 999_999, enrichmentTypes: ['work_email'] } }],
  ];
  for (const era of ['modern', 'legacy'] as const) {
    for (const [name, call] of generatedCases) {
      it(`answers ${name} on /mcp/v2 as the SDK does (${era})`, async () => {
        const { direct, sdk, answeredDirectly } = await both({ ...call, era }, '/mcp/v2');
        expect(answeredDirectly).toBe(true);
        expect(direct).toEqual(sdk);
      });
    }
  }

  const passedOnCases: Array<[string, RawCall]> = [
    ['arguments its schema refuses (the SDK words the error)', { era: 'modern', tool: 'search_endpoints', args: { limit: 3 } }],
    ['a tool this surface does not have (a generated one on /mcp)', { era: 'legacy', tool: 'getCreditBalance', args: {} }],
    ['a 2026 client that can be asked by form', {
      era: 'modern', tool: 'call_operation', args: { operationId: 'getCreditBalance', payload: {} },
      meta: { ...modernEnvelope, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } },
    }],
    ['a header that disagrees with the body', { era: 'modern', tool: 'search_endpoints', args: { query: 'credits' }, headers: { 'mcp-name': 'get_endpoint_details_full' } }],
    ['a modern version header without the envelope', { era: 'legacy', tool: 'search_endpoints', args: { query: 'credits' }, headers: { 'mcp-protocol-version': '2026-07-28' } }],
    ['an envelope the SDK refuses', { era: 'modern', tool: 'search_endpoints', args: { query: 'credits' }, meta: { ...modernEnvelope, 'io.modelcontextprotocol/clientCapabilities': 5 } }],
    ['an unknown protocol version', { era: 'legacy', tool: 'search_endpoints', args: { query: 'credits' }, headers: { 'mcp-protocol-version': '1999-01-01' } }],
  ];

  for (const [name, call] of passedOnCases) {
    it(`passes ${name} to the SDK, body intact`, async () => {
      const passedBefore = directPathCounts.passedOn;
      const { direct, sdk, answeredDirectly } = await both(call);
      expect(answeredDirectly).toBe(false);
      expect(directPathCounts.passedOn).toBe(passedBefore + 1);
      expect(direct).toEqual(sdk);
    });
  }

  it('takes a 2025-era call that names a 2025 protocol version', async () => {
    const { direct, sdk, answeredDirectly } = await both({ era: 'legacy', tool: 'search_endpoints', args: { query: 'credits' }, headers: { 'mcp-protocol-version': '2025-06-18' } });
    expect(answeredDirectly).toBe(true);
    expect(direct).toEqual(sdk);
  });

  it('lets a client go away mid-body without an answer, and keeps serving', async () => {
    const { port } = new URL(app.url);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n' +
        `x-api-key: ${directKey}\r\nContent-Length: 500\r\n\r\n{"jsonrpc":"2.0","id":1,`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const answered: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => answered.push(chunk));
    socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(Buffer.concat(answered).length).toBe(0);
    const after = await post(`${app.url}/mcp`, directKey, { era: 'legacy', tool: 'search_endpoints', args: { query: 'credits' } }, 2);
    expect(after.status).toBe(200);
  });

  it('leaves refusals to the Express routes: a bad key is 401, a foreign Origin 403', async () => {
    const call: RawCall = { era: 'legacy', tool: 'search_endpoints', args: { query: 'credits' } };
    const before = { ...directPathCounts };
    const badKey = await post(`${app.url}/mcp`, 'pds_not_a_key', call, 1);
    expect(badKey.status).toBe(401);
    const foreign = await post(`${app.url}/mcp`, directKey, { ...call, headers: { origin: 'https://evil.example' } }, 1);
    expect(foreign.status).toBe(403);
    expect(directPathCounts).toEqual(before);
  });
});

describe('search_endpoints ranking with per-term scores', () => {
  it('ranks exactly as MiniSearch does: same operations, scores and order', () => {
    const queries = [
      ...intents.map((intent) => intent.query),
      'find software companies in Germany with 50 to 200 employees',
      'audience audience build',
      'settings statuses companies',
      'enrichmnt estimte costt',
      'x',
      '',
    ];
    for (const query of queries) expect(rankOperations(query), query).toEqual(rankOperationsByMiniSearch(query));
  });
});

describe('the direct path\'s envelope check', () => {
  it('accepts exactly the envelopes the SDK\'s classifier accepts', () => {
    const envelopes: Record<string, unknown>[] = [
      modernEnvelope,
      { ...modernEnvelope, 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } },
      { ...modernEnvelope, 'io.modelcontextprotocol/clientCapabilities': 5 },
      { ...modernEnvelope, 'io.modelcontextprotocol/clientInfo': { name: 7 } },
      { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' },
      { ...modernEnvelope, 'io.modelcontextprotocol/protocolVersion': '2030-01-01' },
      { ...modernEnvelope, 'io.modelcontextprotocol/protocolVersion': 20260728 },
    ];
    for (const meta of envelopes) {
      const version = meta['io.modelcontextprotocol/protocolVersion'];
      const route = classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: typeof version === 'string' ? version : '2026-07-28',
        mcpMethodHeader: 'tools/call',
        mcpNameHeader: 'search_endpoints',
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_endpoints', arguments: {}, _meta: meta } },
      });
      const sdkAccepts = route.kind === 'modern' && route.messageKind === 'request' && route.classification.revision === '2026-07-28';
      expect(envelopeAccepted(meta), JSON.stringify(meta)).toBe(sdkAccepts);
      // Asked again, the remembered verdict is the same.
      expect(envelopeAccepted(meta)).toBe(sdkAccepts);
    }
  });
});
