import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import { createAccount } from '../../src/core/accounts.js';
import { createLogger } from '../../src/log.js';
import { openDatabase } from '../../src/store/db.js';
import { arg, openBenchDatabase, percentile, round } from '../lib.js';
import { startServiceProcess } from './service-process.js';

/**
 * Charged calls, all at once, on a balance that pays for a third of them: each call must either
 * be charged exactly what its answer says (and the answer delivered), or be refused whole with
 * 402 and charge nothing. Measured: overdrafts, the ledger's sum against the balance, and ledger
 * charges that no delivered answer accounts for. The per-account concurrency caps and rate limits
 * are lifted: what is measured is the ledger under contention, not the caps.
 */
const reduced = process.argv.includes('--ci');
const calls = Number(arg('calls', reduced ? '300' : '1000'));
const log = createLogger('warn');

const database = await openBenchDatabase({ name: 'charges', companies: 2000, people: 20_000, reuse: !reduced, log });
const service = await startServiceProcess({
  DATABASE_URL: database.url,
  DEMO_CREDITS: '0',
  ACCOUNT_CONCURRENT_REQUESTS: String(calls * 2),
  ACCOUNT_CONCURRENT_SEARCHES: String(calls * 2),
  RATE_LIMIT_SEARCH_PER_MINUTE: '10000000',
  RATE_LIMIT_HEAVY_PER_MINUTE: '10000000',
  RATE_LIMIT_STANDARD_PER_MINUTE: '10000000',
  RATE_LIMIT_STATUS_PER_MINUTE: '10000000',
  // A thousand requests queue for a handful of connections: let them wait rather than be refused 503.
  DATABASE_CONNECTION_TIMEOUT_MS: '120000',
});
const db = openDatabase(database.url, 2);
const http = new Pool(service.url, {
  connections: calls,
  pipelining: 1,
  headersTimeout: 180_000,
  bodyTimeout: 180_000,
});

interface Template {
  operation: string;
  path: string;
  body: (i: number) => Record<string, unknown>;
  /** What one successful call costs: fixed for these calls (a page that is full, a reveal attempt, a live fetch that cannot fail). */
  cost: number;
}

try {
  const slugs = await db.pool.query<{ person: string; company: string }>(
    `SELECT p.network_slug AS person, c.network_primary_slug AS company
       FROM people p JOIN companies c ON c.id = p.company_id
      WHERE p.network_slug IS NOT NULL AND c.network_primary_slug IS NOT NULL ORDER BY p.id LIMIT 200`,
  );
  const pick = (i: number) => slugs.rows[i % slugs.rows.length] as { person: string; company: string };
  const templates: Template[] = [
    {
      operation: 'companySearch',
      path: '/v1/company-search',
      body: () => ({ searchParams: {}, pageSize: 3 }),
      cost: 3,
    },
    { operation: 'peopleSearch', path: '/v1/people-search', body: () => ({ searchParams: {}, pageSize: 2 }), cost: 2 },
    {
      operation: 'revealContactSingle',
      path: '/v1/contact-details/single',
      body: (i) => ({ profileUrl: pick(i).person }),
      cost: 1,
    },
    {
      operation: 'liveEnrichCompany',
      path: '/v1/network-live-fetch/company/single',
      body: (i) => ({ type: 'slug', value: pick(i).company }),
      cost: 2,
    },
  ];
  const plan = Array.from({ length: calls }, (_, i) => ({
    i,
    template: templates[i % templates.length] as Template,
    requestId: `charge-${i}-${randomUUID()}`,
  }));
  const worstCase = plan.reduce((sum, call) => sum + call.template.cost, 0);
  const balance = Math.floor(worstCase / 3);
  const { account, apiKey } = await createAccount(db, { name: 'charges', plan: 'pro', initialCredits: balance });

  const started = Date.now();
  const answers = await Promise.all(
    plan.map(async (call) => {
      const begun = process.hrtime.bigint();
      try {
        const response = await http.request({
          method: 'POST',
          path: call.template.path,
          headers: {
            'content-type': 'application/json',
            'x-api-key': apiKey,
            'x-request-id': call.requestId,
            'idempotency-key': randomUUID(),
          },
          body: JSON.stringify(call.template.body(call.i)),
        });
        const body = (await response.body.json()) as {
          chargeInfo?: { creditsCharged?: number };
          error?: { code?: string };
        };
        return {
          call,
          status: response.statusCode,
          charged: body.chargeInfo?.creditsCharged ?? 0,
          code: body.error?.code,
          ms: Number(process.hrtime.bigint() - begun) / 1e6,
        };
      } catch (error) {
        return {
          call,
          status: 0,
          charged: 0,
          code: (error as Error).message,
          ms: Number(process.hrtime.bigint() - begun) / 1e6,
        };
      }
    }),
  );
  const wallSeconds = (Date.now() - started) / 1000;

  const statuses: Record<string, number> = {};
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  const delivered = new Map(answers.filter((a) => a.status === 200).map((a) => [a.call.requestId, a.charged]));
  const ledger = await db.pool.query<{ amount: number; reference: string | null; balance_after: number }>(
    `SELECT amount, reference, balance_after FROM credit_ledger WHERE account_id = $1 AND amount < 0 ORDER BY id`,
    [account.id],
  );
  const totals = await db.pool.query<{ ledger_sum: string; balance: string }>(
    `SELECT (SELECT coalesce(sum(amount), 0) FROM credit_ledger WHERE account_id = $1)::text AS ledger_sum,
            (SELECT balance FROM credit_balances WHERE account_id = $1)::text AS balance`,
    [account.id],
  );
  const finalBalance = Number(totals.rows[0]?.balance);
  const ledgerMinusBalance = Number(totals.rows[0]?.ledger_sum) - finalBalance;
  const overdrafts = ledger.rows.filter((e) => e.balance_after < 0).length + (finalBalance < 0 ? 1 : 0);
  // A charge is accounted for when a 200 answer with its request id was delivered, saying the same amount.
  const unaccounted = ledger.rows.filter(
    (e) => e.reference === null || delivered.get(e.reference) !== -e.amount,
  ).length;
  const charged = new Set(ledger.rows.map((e) => e.reference));
  const answeredButNotCharged = [...delivered].filter(
    ([requestId, credits]) => credits > 0 && !charged.has(requestId),
  ).length;
  const chargedTotal = -ledger.rows.reduce((sum, e) => sum + e.amount, 0);
  const latencies = answers.map((a) => a.ms).sort((a, b) => a - b);

  const lines = [
    `${calls.toLocaleString('en')} charged calls sent at once by one account over ${calls.toLocaleString('en')} connections (company search of 3 records, people search of 2,`,
    `single reveal 1, live company fetch 2: each call's cost known in advance), each with an Idempotency-Key; the balance,`,
    `${balance.toLocaleString('en')} credits, pays for a third of the ${worstCase.toLocaleString('en')} they could cost. Per-account caps and rate limits lifted;`,
    'the service in a process of its own on the embedded PostgreSQL.',
    '',
    '| measure | value |',
    '|---|---|',
    `| answers | ${JSON.stringify(statuses)} in ${round(wallSeconds, 1)} s (p50 ${round(percentile(latencies, 50))} ms, p99 ${round(percentile(latencies, 99))} ms) |`,
    `| credits charged / balance before / after | ${chargedTotal.toLocaleString('en')} / ${balance.toLocaleString('en')} / ${finalBalance.toLocaleString('en')} |`,
    `| overdrafts (ledger entries or balance below 0) | **${overdrafts}** (must be 0) |`,
    `| ledger sum minus balance | **${ledgerMinusBalance}** (must be 0) |`,
    `| charges without a delivered answer (ledger charges no 200 answer with that request id and amount accounts for) | **${unaccounted}** (must be 0) |`,
    `| answers that say they charged, without a ledger charge | **${answeredButNotCharged}** (must be 0) |`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const failures: string[] = [];
  if (overdrafts) failures.push(`${overdrafts} overdrafts`);
  if (ledgerMinusBalance) failures.push(`the ledger and the balance differ by ${ledgerMinusBalance}`);
  if (unaccounted) failures.push(`${unaccounted} charges without a delivered answer`);
  if (answeredButNotCharged) failures.push(`${answeredButNotCharged} answers charged nothing in the ledger`);
  if (chargedTotal > balance) failures.push(`charged ${chargedTotal}, more than the balance ${balance}`);
  const unexpected = Object.keys(statuses).filter((s) => s !== '200' && s !== '402');
  if (unexpected.length) failures.push(`answers other than 200 and 402: ${JSON.stringify(statuses)}`);
  if (!delivered.size || !(statuses[402] ?? 0))
    failures.push('the balance did not run out part-way: the scenario measured nothing');
  if (failures.length) {
    process.stderr.write(`FAILED: ${failures.join('; ')}\n`);
    process.exitCode = 1;
  }
} finally {
  await http.close();
  await db.close();
  await service.stop();
  await database.close();
}
