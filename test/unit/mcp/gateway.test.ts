import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log.js';
import { BalanceCache } from '../../../src/mcp/guards/balance.js';
import { ConfirmationTokens } from '../../../src/mcp/guards/confirmation.js';
import { Gateway, type Caller, type CallArguments, type ConfirmationChannel } from '../../../src/mcp/gateway.js';
import { forwardKey } from '../../../src/mcp/rest-backend.js';
import { FakeRest } from './fake-rest.js';
import { Clock, MemoryPolls, MemoryResults, MemoryUsedConfirmations } from './stores.js';

/**
 * The gateway's decisions, with its dependencies passed in: a stand-in REST API, the stores as
 * maps, a clock. What it forwards, what it refuses, what it asks, and what it says.
 */

const caller: Caller = {
  principal: { accountId: 7, accountName: 'Unit', plan: 'pro', email: null },
  apiKey: 'pds_unit_test_key',
  requestId: 'req-1',
};
const token: ConfirmationChannel = { kind: 'token' };

function setup(options: { balance?: number; confirmAbove?: number; lowBalance?: number; budget?: number } = {}) {
  const clock = new Clock();
  const rest = new FakeRest(options.balance ?? 1_000);
  const stored = new MemoryResults(clock);
  const used = new MemoryUsedConfirmations();
  const gateway = new Gateway({
    config: {
      CONFIRM_ABOVE_CREDITS: options.confirmAbove ?? 100,
      LOW_BALANCE_WARNING_CREDITS: options.lowBalance ?? 50,
      MCP_RESPONSE_TOKEN_BUDGET: options.budget ?? 20_000,
    },
    backend: rest,
    tokens: new ConfirmationTokens(used, async () => Buffer.alloc(32, 7), clock.now),
    balances: new BalanceCache(5_000, 100, clock.now),
    polls: new MemoryPolls(clock),
    stored,
    log: createLogger('silent'),
  });
  const call = async (args: CallArguments, channel: ConfirmationChannel = token, who: Caller = caller) => {
    const answer = await gateway.callOperation(args, who, channel);
    if (answer.kind !== 'result')
      throw new Error(`asked: ${answer.kind === 'ask' ? answer.message : answer.task.taskId}`);
    return {
      result: answer.result,
      structured: answer.result.structuredContent as Record<string, any>,
      text: (answer.result.content[0] as { text: string }).text,
    };
  };
  return { clock, rest, stored, used, gateway, call };
}

const page = (pageSize: number) => ({ operationId: 'companySearch', payload: { searchParams: {}, pageSize } });

describe('call_operation in the gateway', () => {
  it('names the closest operationIds for an unknown one, and forwards nothing', async () => {
    const { rest, call } = setup();
    const { result, structured } = await call({ operationId: 'companySerch' });
    expect(result.isError).toBe(true);
    expect(structured.error.closest[0]).toBe('companySearch');
    expect(rest.forwards).toEqual([]);
  });

  it('refuses a payload the registry refuses, naming each field, and forwards nothing', async () => {
    const { rest, call } = setup();
    const { result, structured, text } = await call({
      operationId: 'companySearch',
      payload: { pageSize: 0, searchParams: { employeeCountV2: { min: 'ten' } }, bogus: 1 },
    });
    expect(result.isError).toBe(true);
    const fields = structured.error.details.issues.map((issue: { field: string }) => issue.field);
    expect(fields).toEqual(expect.arrayContaining(['pageSize', 'searchParams.employeeCountV2.min', 'bogus']));
    expect(text).toContain('nothing was sent or charged');
    expect(rest.forwards).toEqual([]);
  });

  it('runs a call as the caller, with the payload as given and no idempotency key of its own', async () => {
    const { rest, call } = setup();
    const { structured } = await call({ operationId: 'getCreditBalance', payload: {} });
    expect(structured.output.balance).toBe(1_000);
    await call(page(3));
    const [balance] = rest.forwards;
    const [search] = rest.forwardsOf('companySearch');
    expect(balance?.caller).toBe(caller);
    expect(search?.caller).toBe(caller);
    expect(search?.payload).toEqual({ searchParams: {}, pageSize: 3 });
    // A key per call was the price of a hop over HTTP; a backend that makes one (RestBackend) makes its own.
    expect(search?.options.idempotencyKey).toBeUndefined();
  });

  it('derives one hop key per call for BACKEND_URL: the same call of the same request alike, anything else apart', () => {
    const fields = { searchParams: { headquartersCountryCode: ['DE'] }, pageSize: 3 };
    const reordered = { pageSize: 3, searchParams: { headquartersCountryCode: ['DE'] } };
    expect(forwardKey(caller, 'companySearch', fields)).toBe(forwardKey(caller, 'companySearch', reordered));
    expect(forwardKey(caller, 'companySearch', fields)).not.toBe(
      forwardKey({ ...caller, requestId: 'req-2' }, 'companySearch', fields),
    );
    expect(forwardKey(caller, 'companySearch', fields)).not.toBe(
      forwardKey(caller, 'companySearch', { ...fields, pageSize: 4 }),
    );
    expect(forwardKey(caller, 'companySearch', fields)).not.toBe(
      forwardKey({ ...caller, principal: { ...caller.principal, accountId: 8 } }, 'companySearch', fields),
    );
    expect(forwardKey(caller, 'companySearch', fields)).toMatch(/^mcp-[A-Za-z0-9_-]{43}$/);
    // Without a request id, two calls never share a key.
    const anonymous = { ...caller, requestId: undefined };
    expect(forwardKey(anonymous, 'companySearch', fields)).not.toBe(forwardKey(anonymous, 'companySearch', fields));
  });

  it('runs nothing that charges for a caller that may not spend, whatever channel it came by, and everything free', async () => {
    const { rest, call, gateway } = setup();
    // An OAuth sign-in granted mcp:read only (the runner's prepareCall reads the scopes from the principal).
    const readOnly: Caller = {
      principal: { ...caller.principal, oauth: { clientId: 'assistant', scopes: ['mcp:read'] } },
      requestId: 'req-1',
    };
    const charging = [
      page(2),
      { operationId: 'triggerEnrichment', payload: { audienceId: '7', maxProspectsToEnrich: 5 } },
      { operationId: 'buildAudience', payload: { audienceId: '7' } },
      { ...page(2), confirmationToken: 'anything' },
    ];
    for (const args of charging) {
      for (const channel of [
        token,
        { kind: 'elicitation', answer: 'accept', confirmedHash: null, confirmedNonce: null } as const,
      ]) {
        const answer = await gateway.callOperation(args, readOnly, channel);
        expect(answer.kind).toBe('result');
        const result = (answer as { result: { isError?: boolean; structuredContent?: any } }).result;
        expect(result.isError).toBe(true);
        expect(result.structuredContent.error).toMatchObject({
          code: 'insufficient_scope',
          requiredScope: 'mcp:spend',
        });
      }
    }
    // Nothing was priced, asked or run for them: not even the free estimate or the balance.
    expect(rest.forwards).toEqual([]);
    expect(rest.balanceReads).toEqual([]);
    expect(rest.balance).toBe(1_000);

    const free = await call({ operationId: 'getCreditBalance', payload: {} }, token, readOnly);
    expect(free.structured.output.balance).toBe(1_000);
    const stored = await call({ operationId: 'companySearch', resultId: 'none', offset: 0 }, token, readOnly);
    expect(stored.structured.error?.code).not.toBe('insufficient_scope');
  });

  it('charges and summarises a page, and warns once the balance is low', async () => {
    const { rest, call } = setup({ balance: 60, lowBalance: 50 });
    const first = await call(page(5));
    expect(first.text).toContain('Charged 5 credits');
    expect(first.structured.warnings).toBeUndefined();
    const second = await call(page(8));
    expect(second.structured.warnings?.[0]).toMatch(/Low balance: about 47 credits left/);
    expect(rest.balance).toBe(47);
    // The balance was read once, through the narrow reader, not run as the getCreditBalance operation.
    expect(rest.balanceReads).toEqual([caller]);
    expect(rest.forwardsOf('getCreditBalance')).toEqual([]);
  });

  it('refuses a call the balance cannot cover, before forwarding it, saying how to fit', async () => {
    const { rest, call } = setup({ balance: 15 });
    const { structured } = await call(page(18));
    expect(structured.error).toMatchObject({ code: 'insufficient_credits', balance: 15, worstCaseCredits: 18 });
    expect(structured.error.nextStep).toContain('pageSize of 15 or less');
    expect(rest.forwardsOf('companySearch')).toEqual([]);
    expect(rest.balance).toBe(15);
  });

  it('asks for a token above the threshold, runs the call once with it, and refuses it again', async () => {
    const { rest, call } = setup({ balance: 1_000, confirmAbove: 100 });
    const asked = await call(page(150));
    expect(asked.text).toMatch(/^NOT RUN: companySearch needs the user's explicit confirmation/);
    const { confirmationToken, credits } = asked.structured.confirmationRequired;
    expect(credits).toBe(150);
    expect(rest.forwardsOf('companySearch')).toEqual([]);

    const ran = await call({ ...page(150), confirmationToken });
    expect(ran.structured.chargeInfo.creditsCharged).toBe(150);
    const again = await call({ ...page(150), confirmationToken });
    expect(again.structured.error).toMatchObject({ code: 'confirmation_refused', reason: 'used' });
    expect(rest.forwardsOf('companySearch')).toHaveLength(1);
    expect(rest.balance).toBe(850);
  });

  it('refuses a token for another payload, another account, or past its 15 minutes', async () => {
    const { clock, call } = setup();
    const { confirmationToken } = (await call(page(150))).structured.confirmationRequired;
    expect((await call({ ...page(151), confirmationToken })).structured.error.reason).toBe('mismatch');
    const other: Caller = { ...caller, principal: { ...caller.principal, accountId: 8 } };
    expect((await call({ ...page(150), confirmationToken }, token, other)).structured.error.reason).toBe('mismatch');
    expect((await call({ ...page(150), confirmationToken: `${confirmationToken}x` })).structured.error.reason).toBe(
      'malformed',
    );
    clock.advance(15 * 60);
    expect((await call({ ...page(150), confirmationToken })).structured.error.reason).toBe('expired');
  });

  it('gives a token back when REST refuses the confirmed call, so the confirmation is not lost', async () => {
    const { rest, call } = setup({ balance: 1_000 });
    const { confirmationToken } = (await call(page(150))).structured.confirmationRequired;
    // The balance drops elsewhere after the gateway's check: REST refuses with 402, nothing charged.
    await call({ operationId: 'getCreditBalance', payload: {} });
    rest.balance = 100;
    const refused = await call({ ...page(150), confirmationToken });
    expect(refused.structured.error).toMatchObject({ code: 'insufficient_credits', status: 402 });
    rest.balance = 1_000;
    const ran = await call({ ...page(150), confirmationToken });
    expect(ran.structured.chargeInfo.creditsCharged).toBe(150);
  });

  it('prices an enrichment with its estimate and asks through elicitation, running only on an accepted answer for this exact call', async () => {
    const { rest, gateway } = setup({ balance: 1_000 });
    const trigger = { operationId: 'triggerEnrichment', payload: { audienceId: '7', runContactEnrichment: true } };
    const first = await gateway.callOperation(trigger, caller, {
      kind: 'elicitation',
      answer: null,
      confirmedHash: null,
      confirmedNonce: null,
    });
    if (first.kind !== 'ask') throw new Error('expected a question');
    expect(first.message).toContain(
      'costs up to 40 credits charged upfront (from estimateEnrichmentCost with the same values)',
    );
    expect(first.message).toContain('It takes about 30 seconds.');
    expect(rest.forwardsOf('estimateEnrichmentCost')[0]?.payload).toEqual({
      audienceId: '7',
      runContactEnrichment: true,
    });

    const declined = await gateway.callOperation(trigger, caller, {
      kind: 'elicitation',
      answer: 'decline',
      confirmedHash: first.state.h,
      confirmedNonce: first.state.n,
    });
    expect(declined.kind === 'result' && declined.result.structuredContent).toMatchObject({
      declined: { answer: 'decline', creditsCharged: 0 },
    });
    // An acceptance of another call's question asks again.
    const elsewhere = await gateway.callOperation(trigger, caller, {
      kind: 'elicitation',
      answer: 'accept',
      confirmedHash: 'another-hash',
      confirmedNonce: first.state.n,
    });
    expect(elsewhere.kind).toBe('ask');
    expect(rest.forwardsOf('triggerEnrichment')).toEqual([]);

    const acceptance = {
      kind: 'elicitation',
      answer: 'accept',
      confirmedHash: first.state.h,
      confirmedNonce: first.state.n,
    } as const;
    const accepted = await gateway.callOperation(trigger, caller, acceptance);
    expect(accepted.kind === 'result' && accepted.result.structuredContent).toMatchObject({
      chargeInfo: { creditsCharged: 40 },
    });
    expect(rest.forwardsOf('triggerEnrichment')).toHaveLength(1);
    expect(rest.balance).toBe(960);

    // The same signed acceptance again (a replayed request within its 15 minutes) runs nothing.
    const replayed = await gateway.callOperation(trigger, caller, acceptance);
    expect(replayed.kind === 'result' && replayed.result.structuredContent).toMatchObject({
      error: { code: 'confirmation_refused', reason: 'used' },
    });
    // Nor does a state that carries no single-use id: it is asked again.
    const unnamed = await gateway.callOperation(trigger, caller, { ...acceptance, confirmedNonce: null });
    expect(unnamed.kind).toBe('ask');
    expect(rest.forwardsOf('triggerEnrichment')).toHaveLength(1);
    expect(rest.balance).toBe(960);
  });

  it('confirms a schedule on what it can spend in a month, not on one run', async () => {
    const { rest, call } = setup({ confirmAbove: 500, balance: 100_000 });
    const create = (schedule: string, maxNewRecordsPerRun: number) => ({
      operationId: 'createSavedSearch',
      payload: { name: 'Watch', kind: 'companies', companySearchParams: {}, schedule, maxNewRecordsPerRun },
    });
    // 250 records a day at 2 credits: 500 a run (not above the threshold), 15,500 a month.
    const daily = await call(create('daily', 250));
    expect(daily.structured.confirmationRequired).toMatchObject({ credits: 500, monthlyCredits: 15_500 });
    expect(daily.text).toContain('up to 15500 credits a month');
    expect(rest.forwardsOf('createSavedSearch')).toEqual([]);
    const update = await call({ operationId: 'updateSavedSearch', payload: { savedSearchId: '1', schedule: 'daily' } });
    expect(update.structured.confirmationRequired?.monthlyCredits).toBeGreaterThan(500);
    expect(rest.forwardsOf('updateSavedSearch')).toEqual([]);

    // What a month of runs keeps within the threshold goes through unasked.
    for (const [schedule, max] of [
      ['weekly', 50],
      ['daily', 8],
      ['manual', 1000],
    ] as const) {
      const answer = await call(create(schedule, max));
      expect(answer.structured.confirmationRequired, `${schedule} ${max}`).toBeUndefined();
    }
    expect(rest.forwardsOf('createSavedSearch')).toHaveLength(3);
    await call({ operationId: 'updateSavedSearch', payload: { savedSearchId: '1', name: 'Renamed' } });
    expect(rest.forwardsOf('updateSavedSearch')).toHaveLength(1);
  });

  it('answers a status poll sooner than its interval from the cache, and asks REST again after it', async () => {
    const { clock, rest, call } = setup();
    const status = { operationId: 'getAudienceStatus', payload: { audienceId: '7' } };
    const first = await call(status);
    expect(first.structured.polling).toMatchObject({ servedFromCache: false, nextPollAfterSeconds: 30 });
    clock.advance(10);
    const early = await call(status);
    expect(early.structured.polling).toMatchObject({ servedFromCache: true, nextPollAfterSeconds: 20, ageSeconds: 10 });
    expect(early.text).toContain('Poll again in 20 s');
    expect(rest.forwardsOf('getAudienceStatus')).toHaveLength(1);
    clock.advance(21);
    await call(status);
    expect(rest.forwardsOf('getAudienceStatus')).toHaveLength(2);
  });

  it("forgets the account's cached polls after a call that changes something", async () => {
    const { rest, call } = setup();
    const status = { operationId: 'getAudienceStatus', payload: { audienceId: '7' } };
    await call(status);
    await call({
      operationId: 'triggerEnrichment',
      payload: { audienceId: '7', runContactEnrichment: true },
      confirmationToken: undefined,
    });
    await call(status);
    // The trigger asked for confirmation and changed nothing: the cache still answers.
    expect(rest.forwardsOf('getAudienceStatus')).toHaveLength(1);
    const { confirmationToken } = (
      await call({ operationId: 'triggerEnrichment', payload: { audienceId: '7', runContactEnrichment: true } })
    ).structured.confirmationRequired;
    await call({
      operationId: 'triggerEnrichment',
      payload: { audienceId: '7', runContactEnrichment: true },
      confirmationToken,
    });
    await call(status);
    expect(rest.forwardsOf('getAudienceStatus')).toHaveLength(2);
  });

  it('cuts a page over the budget on its records, stores the whole page, and serves the rest free', async () => {
    const { rest, stored, call } = setup({ balance: 1_000, budget: 2_000 });
    rest.recordPadding = 400;
    const cut = await call(page(60));
    const note = cut.structured.truncated;
    expect(note).toMatchObject({ field: 'data', offset: 0, total: 60 });
    expect(note.shown).toBeGreaterThan(0);
    expect(note.shown).toBeLessThan(60);
    expect(JSON.stringify(cut.structured).length).toBeLessThanOrEqual(2_000 * 4);
    expect(cut.structured.output.data.map((r: { id: string }) => r.id)).toEqual(
      Array.from({ length: note.shown }, (_, i) => String(i + 1)),
    );
    expect(stored.results.size).toBe(1);
    expect(rest.balance).toBe(940);

    const seen = new Set<string>(cut.structured.output.data.map((r: { id: string }) => r.id));
    let next: number | null = note.nextOffset;
    while (next !== null) {
      const slice = await call({ operationId: 'companySearch', resultId: note.resultId, offset: next });
      expect(slice.structured.chargeInfo).toMatchObject({ method: 'free', creditsCharged: 0 });
      for (const record of slice.structured.output.data as { id: string }[]) seen.add(record.id);
      next = slice.structured.truncated.nextOffset;
    }
    expect(seen.size).toBe(60);
    expect(rest.forwardsOf('companySearch')).toHaveLength(1);
    expect(rest.balance).toBe(940);

    const other: Caller = { ...caller, principal: { ...caller.principal, accountId: 8 } };
    const foreign = await call({ operationId: 'companySearch', resultId: note.resultId, offset: 0 }, token, other);
    expect(foreign.structured.error.code).toBe('not_found');
  });

  it('turns a REST refusal into a tool error with the next step, and an unreachable REST API into a 502 that charged nothing', async () => {
    const { rest, call } = setup();
    const missing = await call({ operationId: 'getAudienceStatus', payload: { audienceId: '8' } });
    expect(missing.structured.error).toMatchObject({ status: 404, code: 'not_found' });
    expect(missing.structured.error.nextStep).toContain('resources of other accounts are not visible');

    rest.failures = 1;
    const down = await call({ operationId: 'getCreditBalance', payload: {} });
    expect(down.result.isError).toBe(true);
    expect(down.structured.error).toMatchObject({ status: 502, code: 'upstream_unavailable' });
    expect(down.structured.error.nextStep).toContain('nothing was charged');
  });
});

describe('confirmations state the cost of this payload', () => {
  const build = { operationId: 'buildAudience', payload: { audienceId: '7' } };

  it("prices a build at its audience's caps, with the balance as a number, and runs it once confirmed", async () => {
    const { rest, call } = setup({ balance: 1_000 });
    const asked = await call(build);
    // The ceiling is above the balance: stated, not refused (a build charges only what it finds).
    expect(asked.structured.confirmationRequired).toMatchObject({
      operationId: 'buildAudience',
      credits: 1_100,
      balance: 1_000,
    });
    expect(asked.text).toContain('costs up to 1100 credits');
    expect(asked.text).toContain('caps of its stored filters, read with getAudienceStatus');
    expect(asked.text).toContain('charges nothing and ends FAILED');
    // The expected cost from the free count beside the ceiling.
    expect(asked.structured.confirmationRequired.expectedCredits).toBe(340);
    expect(asked.text).toContain("With today's data it would find records for 340 credits");
    expect(rest.forwardsOf('buildAudience')).toEqual([]);
    const run = await call({ ...build, confirmationToken: asked.structured.confirmationRequired.confirmationToken });
    expect(run.result.isError).toBeFalsy();
    expect(rest.forwardsOf('buildAudience')).toHaveLength(1);
  });

  it('a build whose count ran out of time states the ceiling and points to the free counts', async () => {
    const { rest, call } = setup({ balance: 5_000 });
    rest.buildExpectedCredits = null;
    const asked = await call(build);
    expect(asked.structured.confirmationRequired).toMatchObject({ credits: 1_100, expectedCredits: null });
    expect(asked.text).not.toContain("today's data");
    expect(asked.text).toContain('companyCount and peopleCount with the same filters');
  });

  it('a build within the threshold asks nobody', async () => {
    const { rest, call } = setup({ balance: 1_000, confirmAbove: 100 });
    rest.buildWorstCaseCredits = 60;
    const run = await call(build);
    expect(run.structured.confirmationRequired).toBeUndefined();
    expect(rest.forwardsOf('buildAudience')).toHaveLength(1);
  });

  it('a call that costs nothing asks nobody, even one whose rule is to always confirm', async () => {
    const { rest, call } = setup();
    rest.estimateCredits = 0;
    const run = await call({ operationId: 'triggerEnrichment', payload: { audienceId: '7' } });
    expect(run.structured.confirmationRequired).toBeUndefined();
    expect(rest.forwardsOf('triggerEnrichment')).toHaveLength(1);
  });
});
