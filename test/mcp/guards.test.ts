import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectMcp, summaryOf, type ElicitationAnswer, type McpTestClient } from './clients.js';

async function balanceOf(app: TestApp, apiKey: string): Promise<number> {
  const answer = await app.request('GET', `/v1/credits?apiKey=${encodeURIComponent(apiKey)}`);
  return answer.body.output.balance as number;
}

async function withClient<T>(
  url: string,
  kind: 'v2-modern' | 'v2-legacy' | 'v1',
  apiKey: string,
  use: (client: McpTestClient) => Promise<T>,
  onElicit?: (message: string) => ElicitationAnswer,
): Promise<T> {
  const client = await connectMcp(url, kind, { headers: { 'x-api-key': apiKey }, ...(onElicit ? { onElicit } : {}) });
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

const search = (pageSize: number, country = 'US') => ({
  operationId: 'companySearch',
  payload: { searchParams: { headquartersCountryCode: [country] }, pageSize },
});

describe('call_operation guards', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      catalog: 'seeded',
      env: { CONFIRM_ABOVE_CREDITS: '20', LOW_BALANCE_WARNING_CREDITS: '100' },
    });
  });
  afterAll(async () => {
    await app?.stop();
  });
  const mcp = () => `${app.url}/mcp`;

  describe('credit check', () => {
    it('refuses a call the balance cannot cover, saying the balance, the worst case and how to lower it', async () => {
      const account = await app.createAccount({ credits: 15 });
      await withClient(mcp(), 'v2-modern', account.apiKey, async (client) => {
        const refused = await client.callTool('call_operation', search(18));
        expect(refused.isError).toBe(true);
        expect(refused.structuredContent.error).toMatchObject({
          code: 'insufficient_credits',
          balance: 15,
          worstCaseCredits: 18,
        });
        expect(refused.structuredContent.error.nextStep).toContain('pageSize of 15 or less');
        expect(await balanceOf(app, account.apiKey)).toBe(15);

        const fits = await client.callTool('call_operation', search(10));
        expect(fits.isError).toBeFalsy();
        expect(fits.structuredContent.chargeInfo.creditsCharged).toBe(10);
        expect(fits.structuredContent.warnings?.[0]).toMatch(/Low balance: about 5 credits left/);
        expect(summaryOf(fits)).toContain('Low balance');
        expect(await balanceOf(app, account.apiKey)).toBe(5);
      });
    });

    it('carries no low-balance warning above the threshold', async () => {
      const account = await app.createAccount({ credits: 500 });
      await withClient(mcp(), 'v1', account.apiKey, async (client) => {
        const answer = await client.callTool('call_operation', search(5));
        expect(answer.structuredContent.warnings).toBeUndefined();
      });
    });
  });

  describe('confirmation by elicitation (2026-07-28 era)', () => {
    it('asks the user with the cost, and runs the call once when they accept', async () => {
      const account = await app.createAccount({ credits: 1000 });
      const questions: string[] = [];
      const answer = await withClient(
        mcp(),
        'v2-modern',
        account.apiKey,
        (client) => client.callTool('call_operation', search(25)),
        (message) => {
          questions.push(message);
          return { action: 'accept', content: { confirm: true } };
        },
      );
      expect(questions).toHaveLength(1);
      expect(questions[0]).toContain('25 credits');
      expect(questions[0]).toContain('1000 credits');
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent.output.data).toHaveLength(25);
      expect(answer.structuredContent.chargeInfo.creditsCharged).toBe(25);
      expect(await balanceOf(app, account.apiKey)).toBe(975);
    });

    for (const reply of [
      { action: 'decline' },
      { action: 'cancel' },
      { action: 'accept', content: { confirm: false } },
    ] as ElicitationAnswer[]) {
      it(`charges nothing and says so when the user answers ${JSON.stringify(reply)}`, async () => {
        const account = await app.createAccount({ credits: 1000 });
        const answer = await withClient(
          mcp(),
          'v2-modern',
          account.apiKey,
          (client) => client.callTool('call_operation', search(25)),
          () => reply,
        );
        expect(answer.isError).toBeFalsy();
        expect(answer.structuredContent.output).toBeUndefined();
        expect(answer.structuredContent.declined).toMatchObject({ operationId: 'companySearch', creditsCharged: 0 });
        expect(summaryOf(answer)).toContain('Nothing was run or charged');
        expect(await balanceOf(app, account.apiKey)).toBe(1000);
      });
    }

    it('does not take an acceptance the server did not ask for: a forged answer without its signed state is asked again', async () => {
      const account = await app.createAccount({ credits: 1000 });
      const response = await fetch(mcp(), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-api-key': account.apiKey,
          'mcp-method': 'tools/call',
          'mcp-name': 'call_operation',
          'mcp-protocol-version': '2026-07-28',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'call_operation',
            arguments: search(25),
            inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientInfo': { name: 'forger', version: '1.0.0' },
              'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
            },
          },
        }),
      });
      const body = (await response.json()) as {
        result?: { resultType?: string; inputRequests?: Record<string, unknown>; structuredContent?: unknown };
      };
      expect(body.result?.resultType).toBe('input_required');
      expect(body.result?.inputRequests?.confirm).toBeDefined();
      expect(body.result?.structuredContent).toBeUndefined();
      expect(await balanceOf(app, account.apiKey)).toBe(1000);
    });

    it('runs one call per acceptance: the signed state of an answer, sent again, is refused as a used token is', async () => {
      const account = await app.createAccount({ credits: 1000 });
      const send = async (extra: Record<string, unknown>) => {
        const response = await fetch(mcp(), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'x-api-key': account.apiKey,
            'mcp-method': 'tools/call',
            'mcp-name': 'call_operation',
            'mcp-protocol-version': '2026-07-28',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: {
              name: 'call_operation',
              arguments: search(25),
              ...extra,
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientInfo': { name: 'replayer', version: '1.0.0' },
                'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
              },
            },
          }),
        });
        return ((await response.json()) as { result: Record<string, any> }).result;
      };
      const question = await send({});
      expect(question.resultType).toBe('input_required');
      expect(typeof question.requestState).toBe('string');
      const answer = {
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        requestState: question.requestState,
      };
      const ran = await send(answer);
      expect(ran.structuredContent.chargeInfo.creditsCharged).toBe(25);
      expect(await balanceOf(app, account.apiKey)).toBe(975);

      const replayed = await send(answer);
      expect(replayed.isError).toBe(true);
      expect(replayed.structuredContent.error).toMatchObject({ code: 'confirmation_refused', reason: 'used' });
      expect(await balanceOf(app, account.apiKey)).toBe(975);
    });

    it('does not ask below the threshold', async () => {
      const account = await app.createAccount({ credits: 1000 });
      let asked = 0;
      const answer = await withClient(
        mcp(),
        'v2-modern',
        account.apiKey,
        (client) => client.callTool('call_operation', search(20)),
        () => {
          asked += 1;
          return { action: 'accept', content: { confirm: true } };
        },
      );
      expect(asked).toBe(0);
      expect(answer.structuredContent.chargeInfo.creditsCharged).toBe(20);
    });
  });

  describe('confirmation by token (clients that cannot be asked)', () => {
    for (const kind of ['v1', 'v2-legacy', 'v2-modern'] as const) {
      it(`returns the cost and a token first, runs the call with the token, and refuses its reuse (${kind})`, async () => {
        const account = await app.createAccount({ credits: 1000 });
        await withClient(mcp(), kind, account.apiKey, async (client) => {
          const first = await client.callTool('call_operation', search(30));
          expect(first.isError).toBeFalsy();
          const request = first.structuredContent.confirmationRequired;
          expect(request).toMatchObject({ operationId: 'companySearch', credits: 30, balance: 1000 });
          expect(request.confirmationToken).toMatch(/^ct1\./);
          expect(Date.parse(request.expiresAt) - Date.now()).toBeGreaterThan(14 * 60 * 1000);
          expect(summaryOf(first)).toMatch(/^NOT RUN: .*30 credits.*Ask the user/);
          expect(first.structuredContent.output).toBeUndefined();
          expect(await balanceOf(app, account.apiKey)).toBe(1000);

          const confirmed = await client.callTool('call_operation', {
            ...search(30),
            confirmationToken: request.confirmationToken,
          });
          expect(confirmed.isError).toBeFalsy();
          expect(confirmed.structuredContent.output.data).toHaveLength(30);
          expect(await balanceOf(app, account.apiKey)).toBe(970);

          const replay = await client.callTool('call_operation', {
            ...search(30),
            confirmationToken: request.confirmationToken,
          });
          expect(replay.isError).toBe(true);
          expect(replay.structuredContent.error).toMatchObject({ code: 'confirmation_refused', reason: 'used' });
          expect(await balanceOf(app, account.apiKey)).toBe(970);
        });
      });
    }

    it('refuses a token for a changed payload, another operation or another account', async () => {
      const account = await app.createAccount({ credits: 1000 });
      const other = await app.createAccount({ credits: 1000 });
      const token = await withClient(mcp(), 'v1', account.apiKey, async (client) => {
        const first = await client.callTool('call_operation', search(30));
        const minted = first.structuredContent.confirmationRequired.confirmationToken as string;
        for (const changed of [search(31), search(30, 'FR')]) {
          const refused = await client.callTool('call_operation', { ...changed, confirmationToken: minted });
          expect(refused.isError).toBe(true);
          expect(refused.structuredContent.error).toMatchObject({ code: 'confirmation_refused', reason: 'mismatch' });
        }
        const forged = await client.callTool('call_operation', {
          ...search(30),
          confirmationToken: `${minted.slice(0, -4)}AAAA`,
        });
        expect(forged.structuredContent.error.reason).toBe('malformed');
        return minted;
      });
      await withClient(mcp(), 'v1', other.apiKey, async (client) => {
        const refused = await client.callTool('call_operation', { ...search(30), confirmationToken: token });
        expect(refused.structuredContent.error.reason).toBe('mismatch');
      });
      expect(await balanceOf(app, account.apiKey)).toBe(1000);
      expect(await balanceOf(app, other.apiKey)).toBe(1000);
      // The refusals did not spend the token: the exact call still runs once with it.
      await withClient(mcp(), 'v1', account.apiKey, async (client) => {
        const confirmed = await client.callTool('call_operation', { ...search(30), confirmationToken: token });
        expect(confirmed.structuredContent.chargeInfo.creditsCharged).toBe(30);
      });
    });

    it('holds a token single-use across concurrent redemptions', async () => {
      const account = await app.createAccount({ credits: 1000 });
      await withClient(mcp(), 'v2-legacy', account.apiKey, async (client) => {
        const token = (await client.callTool('call_operation', search(21))).structuredContent.confirmationRequired
          .confirmationToken;
        const answers = await Promise.all(
          Array.from({ length: 5 }, () =>
            client.callTool('call_operation', { ...search(21), confirmationToken: token }),
          ),
        );
        expect(answers.filter((a) => !a.isError)).toHaveLength(1);
        expect(answers.filter((a) => a.structuredContent.error?.reason === 'used')).toHaveLength(4);
      });
      expect(await balanceOf(app, account.apiKey)).toBe(1000 - 21);
    });

    it('takes the token as a field of a generated /mcp/v2 tool', async () => {
      const account = await app.createAccount({ credits: 1000 });
      await withClient(`${app.url}/mcp/v2`, 'v1', account.apiKey, async (client) => {
        const args = { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 22 };
        const first = await client.callTool('companySearch', args);
        const token = first.structuredContent.confirmationRequired.confirmationToken;
        const confirmed = await client.callTool('companySearch', { ...args, confirmationToken: token });
        expect(confirmed.isError).toBeFalsy();
        expect(confirmed.structuredContent.output.data).toHaveLength(22);
      });
    });
  });
});

describe('response size', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'seeded', env: { MCP_RESPONSE_TOKEN_BUDGET: '2500' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('cuts a large page to the budget, keeps the whole charged page readable free, and charges once', async () => {
    const account = await app.createAccount({ credits: 1000 });
    const payload = { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 60 };
    await withClient(`${app.url}/mcp`, 'v2-modern', account.apiKey, async (client) => {
      const first = await client.callTool('call_operation', { operationId: 'companySearch', payload });
      expect(first.isError).toBeFalsy();
      const note = first.structuredContent.truncated;
      expect(note).toMatchObject({ field: 'data', offset: 0, total: 60, budgetTokens: 2500 });
      expect(note.shown).toBeGreaterThan(0);
      expect(note.shown).toBeLessThan(60);
      expect(note.nextOffset).toBe(note.shown);
      expect(note.howToGetTheRest).toContain(note.resultId);
      expect(JSON.stringify(first.structuredContent).length / 4).toBeLessThanOrEqual(2500);
      expect(first.structuredContent.chargeInfo.creditsCharged).toBe(60);
      expect(typeof first.structuredContent.output.nextCursor).toBe('string');
      expect(summaryOf(first)).toContain('Truncated');
      expect(await balanceOf(app, account.apiKey)).toBe(940);

      const records = [...first.structuredContent.output.data];
      let offset: number | null = note.nextOffset;
      let slices = 0;
      while (offset !== null) {
        const slice = await client.callTool('call_operation', {
          operationId: 'companySearch',
          resultId: note.resultId,
          offset,
        });
        expect(slice.isError).toBeFalsy();
        expect(slice.structuredContent.chargeInfo).toMatchObject({ method: 'free', creditsCharged: 0 });
        records.push(...slice.structuredContent.output.data);
        offset = slice.structuredContent.truncated?.nextOffset ?? null;
        slices += 1;
        expect(slices).toBeLessThan(60);
      }
      expect(await balanceOf(app, account.apiKey)).toBe(940);

      const rest = await app.request('POST', '/v1/company-search', { apiKey: account.apiKey, ...payload });
      expect(records).toEqual(rest.body.output.data);

      const resource = JSON.parse(await client.readResource(`pds://results/${note.resultId}?offset=${note.shown}`));
      expect(resource.output.data[0]).toEqual(rest.body.output.data[note.shown]);
    });

    const stranger = await app.createAccount({ credits: 10 });
    await withClient(`${app.url}/mcp`, 'v1', stranger.apiKey, async (client) => {
      const first = await client.callTool('call_operation', {
        operationId: 'companySearch',
        payload: { searchParams: {}, pageSize: 1 },
      });
      expect(first.isError).toBeFalsy();
      const probe = await client.callTool('call_operation', {
        operationId: 'companySearch',
        resultId: 'r_notmine',
        offset: 0,
      });
      expect(probe.isError).toBe(true);
      expect(probe.structuredContent.error.code).toBe('not_found');
    });
  });

  it('leaves a page within the budget whole', async () => {
    await withClient(`${app.url}/mcp`, 'v1', app.apiKey, async (client) => {
      const answer = await client.callTool('call_operation', {
        operationId: 'companySearch',
        payload: { searchParams: {}, pageSize: 3 },
      });
      expect(answer.structuredContent.truncated).toBeUndefined();
      expect(answer.structuredContent.output.data).toHaveLength(3);
    });
  });
});
