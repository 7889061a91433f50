import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathParameters, type AnyOperation } from '../../operations/define.js';
import { operations } from '../../operations/index.js';
import { estimatorOf } from '../../src/mcp/gateway.js';
import type { TestApp } from '../helpers/app.js';
import {
  accountWithResources,
  hintsFor,
  ledgerState,
  fuzzWebhookUrl,
  realValues,
  settleJobs,
  startFuzzApp,
  unknownId,
  type FuzzAccount,
  type RealValues,
} from './fixtures.js';
import { fuzzParameters } from './runs.js';
import { Only, type Hints } from './schema-arbitraries.js';
import {
  describe as describeCall,
  encode,
  issueFields,
  presentFields,
  schemaOf,
  serverView,
  validCase,
  Wire,
  type RestCase,
  type WireAnswer,
} from './wire.js';

/**
 * Inputs the registry's schemas accept, for every operation, over HTTP to the real service. A free
 * operation answers 2xx, or one of the refusals its documentation names (404 for an id that is not
 * the caller's, invalid_state, a semantic 400 naming a field the caller sent, the export quota),
 * and charges nothing. A charged operation charges what its chargeInfo says, never more than the
 * registry's worst case, and nothing when it refuses. Work charged later (builds, batches,
 * enrichment refunds) is settled at the end: every ledger entry belongs to a call that was
 * accepted, within its bound. Another account's ids are 404, whatever the operation.
 */
const file = 'test/fuzz/rest-valid.test.ts';

/**
 * How the ledger names what a deferred charge pays for (`audience:<audienceId>` and so on), and
 * the field of the accepted call's input or output that holds that id. A new kind of deferred
 * charge (saved-search runs, say) fails the run until it is listed here.
 */
const ledgerReferences: Record<string, string> = {
  audience: 'audienceId',
  enrichment: 'enrichmentId',
  batch: 'taskId',
  'saved-search-run': 'runId',
};

const isFree = (operation: AnyOperation) => operation.credits.charged === 'free';
const chargedNow = (operation: AnyOperation) => operation.credits.charged === 'now';
const chargedLater = (operation: AnyOperation) =>
  operation.credits.charged === 'later' || operation.credits.charged === 'upfront';
const withPathParameters = (operation: AnyOperation) => pathParameters(operation.path).length > 0;

/** Ids of an account by path parameter name. */
function idsOf(account: FuzzAccount): Record<string, Set<string>> {
  return {
    audienceId: new Set(account.audiences),
    exportId: new Set(account.exports.map((e) => e.exportId)),
    taskId: new Set(account.tasks),
    exclusionListId: new Set(account.exclusionLists),
    savedSearchId: new Set(account.savedSearches),
    runId: new Set(account.savedSearchRuns.map((r) => r.runId)),
    webhookEndpointId: new Set(account.webhookEndpoints),
    deliveryId: new Set(account.webhookDeliveries.map((d) => d.deliveryId)),
    watchListId: new Set(account.watchLists),
  };
}

/**
 * A refusal of valid input that the documentation names, or why it is not one. `path` says whether
 * the call names resources by id.
 */
function documentedRefusal(call: RestCase, answer: WireAnswer): string | null {
  const code = answer.body?.error?.code as string | undefined;
  const namesResources =
    withPathParameters(call.operation) || [...presentFields(call)].some((name) => /(Id|ID)s?$/.test(name));
  if (answer.status === 404 && code === 'not_found' && (namesResources || call.operation.openWorld)) return null;
  if (answer.status === 400 && (code === 'invalid_state' || code === 'cursor_mismatch')) return null;
  if (answer.status === 400 && code === 'invalid_request') {
    // A value the schema allows but the service cannot use (a cursor it did not issue, an address that
    // is not the account's, switches that contradict each other, a trigger unlike any estimate): the
    // refusal names the operation's fields at fault, or the body as a whole.
    const fields = new Set([...Object.keys(schemaOf(call.operation).properties ?? {}), '(body)']);
    const named = issueFields(answer);
    if (named.length > 0 && named.every((field) => fields.has(field.split('.')[0] as string))) return null;
    return `a 400 for valid input must name fields of the operation (named ${JSON.stringify(named)})`;
  }
  if (answer.status === 429 && code === 'quota_exceeded') return null;
  // A webhook endpoint's test events and resends are bounded per hour (docs/webhooks.md).
  const manual = ['testWebhookEndpoint', 'resendWebhookDelivery'].includes(call.operation.operationId);
  if (answer.status === 429 && code === 'rate_limited' && manual) return null;
  return `${answer.status} ${code ?? ''} is not a documented answer to valid input`;
}

describe('valid input over HTTP', () => {
  let app: TestApp;
  let wire: Wire;
  let values: RealValues;
  let owner: FuzzAccount;
  let other: FuzzAccount;
  beforeAll(async () => {
    app = await startFuzzApp();
    wire = new Wire(app.url);
    values = await realValues(app);
    owner = await accountWithResources(app);
    other = await accountWithResources(app);
  }, 180_000);
  afterAll(async () => {
    await wire?.close();
    await app?.stop();
  });

  it("to a free operation is a 2xx or a documented refusal and charges nothing; another account's ids are never served", async () => {
    const hints = hintsFor(owner, values, other);
    const foreign = idsOf(other);
    // Deletions would empty the pools the other calls draw from: they have a property of their own, below.
    const free = operations.filter((operation) => isFree(operation) && !operation.destructive);
    const statuses: Record<string, number> = {};
    const reached = new Set<string>();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(...free.map((operation) => validCase(operation, hints, owner.apiKey))),
        async (call) => {
          const request = encode(call, owner.apiKey);
          const before = await ledgerState(app, owner.accountId);
          const answer = await wire.send(request);
          const after = await ledgerState(app, owner.accountId);
          const what = describeCall(call, request, answer);
          statuses[`${call.operation.operationId} ${answer.status}`] =
            (statuses[`${call.operation.operationId} ${answer.status}`] ?? 0) + 1;
          // A real resource answered: served, or refused for the state it is in (a built audience's filters).
          if ((answer.status >= 200 && answer.status < 300) || answer.body?.error?.code === 'invalid_state')
            reached.add(call.operation.operationId);
          expect(after, `a free operation charged\n  ${what}`).toEqual(before);
          // Another account's ids are answered as ids that exist nowhere (the last property holds it to that).
          const theirs = pathParameters(call.operation.path).some((name) =>
            foreign[name]?.has(String(call.input[name])),
          );
          if (theirs) expect(answer.status, `another account's resource answered\n  ${what}`).not.toBeLessThan(300);
          if (answer.status >= 200 && answer.status < 300) {
            expect(answer.body?.chargeInfo?.method, what).toBe('free');
            return;
          }
          expect(documentedRefusal(call, answer), what).toBeNull();
        },
      ),
      fuzzParameters(file, 'free operations', 3500),
    );
    // The run reached real resources, not only 404s and refused inputs. Reaching one may be a refusal of
    // its state: with some seeds every draft audience drew filters it refuses, and only built ones remained.
    const never = free.map((o) => o.operationId).filter((id) => !reached.has(id));
    expect(
      never,
      `free operations that never reached a resource: ${JSON.stringify(Object.entries(statuses).filter(([key]) => never.includes(key.split(' ')[0] as string)))}`,
    ).toEqual([]);
  }, 600_000);

  it('to a destructive operation, on a resource made for it, is a 2xx or a documented refusal; what a delete removed is gone', async () => {
    const { accountId, apiKey } = await app.createAccount({ credits: 1000 });
    const account: FuzzAccount = {
      ...owner,
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
      webhookEndpoints: [],
      webhookDeliveries: [],
      watchLists: [],
    };
    const make = async (path: string, body: Record<string, unknown>, idField: string): Promise<string> => {
      const made = await wire.send({
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
        body: JSON.stringify(body),
      });
      if (made.status !== 200)
        throw new Error(`could not make a resource at ${path}: ${made.status} ${JSON.stringify(made.body)}`);
      return String(made.body.output[idField]);
    };
    // A fresh resource of each kind a path parameter names, so that every case finds something to change.
    const makers: Record<string, () => Promise<string>> = {
      audienceId: () => make('/v1/audiences/create', { name: 'To delete' }, 'audienceId'),
      exclusionListId: () =>
        make(
          '/v1/exclusion-lists',
          { name: 'To delete', kind: 'companies', companies: [{ domain: values.domains[0] }] },
          'exclusionListId',
        ),
      savedSearchId: () =>
        make('/v1/saved-searches', { name: 'To delete', kind: 'companies', companySearchParams: {} }, 'savedSearchId'),
      webhookEndpointId: () =>
        make('/v1/webhook-endpoints', { url: fuzzWebhookUrl, events: ['export.ready'] }, 'webhookEndpointId'),
    };
    const destructive = operations.filter((operation) => isFree(operation) && operation.destructive);
    expect(destructive.length).toBeGreaterThan(0);
    const hints = hintsFor(account, values);
    let gone = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(...destructive.map((operation) => validCase(operation, hints, apiKey))),
        async (generated) => {
          const input = { ...generated.input };
          for (const name of pathParameters(generated.operation.path)) {
            const maker = makers[name];
            if (maker) input[name] = await maker();
          }
          const call = { ...generated, input };
          const request = encode(call, apiKey);
          const before = await ledgerState(app, accountId);
          const answer = await wire.send(request);
          const after = await ledgerState(app, accountId);
          const what = describeCall(call, request, answer);
          expect(after, `a free operation charged\n  ${what}`).toEqual(before);
          if (answer.status < 200 || answer.status >= 300) {
            expect(documentedRefusal(call, answer), what).toBeNull();
            return;
          }
          if (call.operation.method === 'DELETE') {
            const again = await wire.send(request);
            expect(again.status, `deleted, then found again\n  ${what}`).toBe(404);
            gone += 1;
          }
        },
      ),
      fuzzParameters(file, 'destructive operations', 150),
    );
    expect(gone).toBeGreaterThan(0);
  }, 600_000);

  it("to an operation charged now charges what chargeInfo says, at most the registry's worst case, and nothing when refused", async () => {
    const payer = await app.createAccount({ credits: 10_000_000 });
    const account: FuzzAccount = {
      ...owner,
      accountId: payer.accountId,
      apiKey: payer.apiKey,
      audiences: [],
      exports: [],
      tasks: [],
      exclusionLists: [],
      savedSearches: [],
      savedSearchRuns: [],
    };
    const hints = hintsFor(account, values);
    const now = operations.filter(chargedNow);
    let charged = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(...now.map((operation) => validCase(operation, hints, account.apiKey))),
        async (call) => {
          const request = encode(call, account.apiKey);
          const before = await ledgerState(app, account.accountId);
          const answer = await wire.send(request);
          const after = await ledgerState(app, account.accountId);
          const what = describeCall(call, request, answer);
          const taken = before.balance - after.balance;
          if (answer.status >= 200 && answer.status < 300) {
            const reported = answer.body?.chargeInfo?.creditsCharged;
            expect(taken, `charged ${taken}, chargeInfo says ${String(reported)}\n  ${what}`).toBe(reported);
            const worstCase = call.operation.credits.worstCase(call.operation.input.parse(serverInput(call)));
            if (worstCase !== null)
              expect(taken, `over the worst case ${worstCase}\n  ${what}`).toBeLessThanOrEqual(worstCase);
            expect(taken, what).toBeGreaterThanOrEqual(0);
            charged += taken;
            return;
          }
          expect(taken, `a refused call charged\n  ${what}`).toBe(0);
          expect(after.entries, what).toBe(before.entries);
          expect(documentedRefusal(call, answer), what).toBeNull();
        },
      ),
      fuzzParameters(file, 'operations charged now', 800),
    );
    expect(charged).toBeGreaterThan(0);
  }, 600_000);

  it("to an operation charged later or upfront: every ledger entry it makes belongs to an accepted call, within the call's bound", async () => {
    const payer = await accountWithResources(app, { credits: 10_000_000, buildable: 40 });
    await settleJobs(app, payer.accountId);
    const firstEntry = await lastLedgerId(app, payer.accountId);
    const start = await ledgerState(app, payer.accountId);
    // Builds of the fixture's drafts take at most their caps (3 companies + 8 prospects).
    const buildCap = 3 + 8;
    const hints: Hints = {
      ...hintsFor(payer, values),
      audienceId: fc.oneof(
        { arbitrary: fc.constantFrom(...payer.normalAudiences), weight: 3 },
        { arbitrary: fc.constantFrom(...payer.audiences), weight: 6 },
        { arbitrary: unknownId, weight: 1 },
      ),
    };
    // A watch list's checks are charged on its schedule for as long as it has items, work that never settles; they
    // have tests of their own (test/watch-lists/checks.test.ts, the reliability scenario).
    const standing = new Set([
      'createWatchList',
      'addWatchListItems',
      'addWatchListItemsFromAudience',
      'updateWatchList',
    ]);
    const later = operations.filter((operation) => chargedLater(operation) && !standing.has(operation.operationId));
    const accepted: Array<{ call: RestCase; ids: Set<string>; bound: number }> = [];
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(...later.map((operation) => validCase(operation, hints, payer.apiKey))),
        async (call) => {
          let bound: number | null = call.operation.credits.worstCase(call.operation.input.parse(serverInput(call)));
          const estimator = estimatorOf(call.operation);
          if (bound === null && estimator) {
            // Priced by its estimate (the trigger must repeat the estimate's values).
            const fields = Object.fromEntries(
              Object.entries(call.input).filter(([name]) => name in estimator.input.shape),
            );
            const estimate = await wire.send(
              encode({ operation: estimator, input: fields, auth: call.auth }, payer.apiKey),
            );
            bound = estimate.status === 200 ? (estimate.body.output.totalCredits as number) : 0;
          }
          const request = encode(call, payer.apiKey);
          const answer = await wire.send(request);
          const what = describeCall(call, request, answer);
          if (answer.status >= 200 && answer.status < 300) {
            const named = { ...call.input, ...(answer.body.output as Record<string, unknown>) };
            const ids = new Set(
              Object.entries(ledgerReferences).map(([kind, field]) => `${kind}:${String(named[field])}`),
            );
            accepted.push({ call, ids, bound: bound ?? buildCap });
            return;
          }
          expect(documentedRefusal(call, answer), what).toBeNull();
        },
      ),
      fuzzParameters(file, 'operations charged later or upfront', 200),
    );
    // The run got work accepted, of more than one kind.
    expect(new Set(accepted.map((a) => a.call.operation.operationId)).size).toBeGreaterThanOrEqual(
      Math.min(2, later.length),
    );
    await settleJobs(app, payer.accountId, 120_000);
    const entries = await app.db.pool.query<{ amount: number; reference: string | null }>(
      'SELECT amount, reference FROM credit_ledger WHERE account_id = $1 AND id > $2 ORDER BY id',
      [payer.accountId, firstEntry],
    );
    const byCall = new Map<(typeof accepted)[number], { charged: number; refunded: number }>();
    for (const entry of entries.rows) {
      const kind = entry.reference?.split(':')[0] ?? '';
      expect(
        kind in ledgerReferences,
        `a ledger reference of an unknown kind (add it to ledgerReferences): ${JSON.stringify(entry)}`,
      ).toBe(true);
      const owner_ = accepted.find((a) => a.ids.has(entry.reference ?? ''));
      expect(owner_, `a ledger entry no accepted call explains: ${JSON.stringify(entry)}`).toBeDefined();
      const sums = byCall.get(owner_ as (typeof accepted)[number]) ?? { charged: 0, refunded: 0 };
      if (entry.amount < 0) sums.charged -= entry.amount;
      else sums.refunded += entry.amount;
      byCall.set(owner_ as (typeof accepted)[number], sums);
    }
    for (const [call, sums] of byCall) {
      const what = describeCall(call.call, encode(call.call, '<key>'));
      expect(sums.charged, `over its bound ${call.bound}\n  ${what}`).toBeLessThanOrEqual(call.bound);
      expect(sums.refunded, `refunded more than it charged\n  ${what}`).toBeLessThanOrEqual(sums.charged);
    }
    const end = await ledgerState(app, payer.accountId);
    const net = entries.rows.reduce((sum, e) => sum + Number(e.amount), 0);
    expect(end.balance).toBe(start.balance + net);
    expect(end.balance).toBeGreaterThanOrEqual(0);
  }, 600_000);

  it("naming another account's resources, to any operation, is answered as ids that exist nowhere, and charges nothing", async () => {
    const theirs = idsOf(other);
    const hints: Hints = { ...hintsFor(owner, values) };
    for (const [name, ids] of Object.entries(theirs)) hints[name] = new Only(fc.constantFrom(...ids));
    // Operations whose every path parameter names a kind of resource the other account has.
    const named = operations.filter(
      (operation) =>
        withPathParameters(operation) && pathParameters(operation.path).every((name) => (theirs[name]?.size ?? 0) > 0),
    );
    expect(named.length).toBeGreaterThan(10);
    const withStrangers = fc.tuple(
      fc.oneof(...named.map((operation) => validCase(operation, hints, owner.apiKey))),
      unknownId,
    );
    let notFound = 0;
    await fc.assert(
      fc.asyncProperty(withStrangers, async ([call, stranger]) => {
        const before = await ledgerState(app, owner.accountId);
        const request = encode(call, owner.apiKey);
        const answer = await wire.send(request);
        // The same call with every id of theirs replaced by one that exists nowhere.
        const input = { ...call.input };
        for (const name of pathParameters(call.operation.path))
          if (theirs[name]?.has(String(input[name]))) input[name] = stranger;
        const control = await wire.send(encode({ ...call, input }, owner.apiKey));
        const after = await ledgerState(app, owner.accountId);
        const what = `${describeCall(call, request, answer)}\n  an id that exists nowhere: ${control.status} ${JSON.stringify(control.body).slice(0, 300)}`;
        expect(answer.status, what).toBe(control.status);
        expect(answer.body?.error?.code, what).toBe(control.body?.error?.code);
        expect(answer.status, what).toBeGreaterThanOrEqual(400);
        expect(after, what).toEqual(before);
        if (answer.status === 404) notFound += 1;
      }),
      fuzzParameters(file, "another account's ids", 400),
    );
    expect(notFound).toBeGreaterThan(0);
  }, 600_000);
});

/** The call's fields as the service's schema reads them (for the worst-case rule). */
function serverInput(call: RestCase): Record<string, unknown> {
  return serverView(call, encode(call, '<key>'));
}

async function lastLedgerId(app: TestApp, accountId: number): Promise<number> {
  const result = await app.db.pool.query<{ id: string | null }>(
    'SELECT max(id) AS id FROM credit_ledger WHERE account_id = $1',
    [accountId],
  );
  return Number(result.rows[0]?.id ?? 0);
}
