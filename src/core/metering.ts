import type { Principal } from './principal.js';
import { grantMonthlyFreeCredits } from './accounts.js';
import { cappedSpendingKey, charge, chargeAlone, type LedgerEntryInput } from './credits.js';
import type { DbConfigDeps, DbDeps } from './deps.js';

/**
 * Charges `count` credits for what a request returns; throws insufficient_credits (and charges
 * nothing) when the balance is short. An entry with an idempotency key (from the request's
 * Idempotency-Key) is applied once, however often the request is run.
 */
export async function chargeForRecords(
  context: DbDeps,
  principal: Principal,
  count: number,
  entry: LedgerEntryInput,
): Promise<number> {
  if (count === 0) return 0;
  // A keyed entry is looked up under a lock before it is applied, and a capped key's spend is
  // raised with the charge: both need a transaction.
  if (entry.idempotencyKey === undefined && !cappedSpendingKey(principal.accountId))
    await chargeAlone(context.db.pool, principal.accountId, count, entry);
  else await context.db.transaction((tx) => charge(tx, principal.accountId, count, entry));
  return count;
}

/**
 * The free plan's credits for the current month, granted before the first request of the month
 * that reads or spends them. The operation runner asks for every operation, so none can forget
 * it; the grant is idempotent in the ledger (safe under concurrent first requests, and across
 * instances), and the accounts this instance has seen granted this month spare the query on later
 * calls. One instance per runner: nothing is shared through the module.
 */
export class MonthlyGrants {
  private month = '';
  private readonly granted = new Set<number>();

  constructor(private readonly context: DbConfigDeps) {}

  async ensure(principal: Principal, now = new Date()): Promise<void> {
    if (principal.plan !== 'free') return;
    const month = now.toISOString().slice(0, 7);
    if (month !== this.month) {
      this.month = month;
      this.granted.clear();
    }
    if (this.granted.has(principal.accountId)) return;
    await this.context.db.transaction((tx) =>
      grantMonthlyFreeCredits(
        tx,
        principal.accountId,
        principal.plan,
        this.context.config.FREE_PLAN_MONTHLY_CREDITS,
        now,
      ),
    );
    // A grant for a month that has since ended says nothing about the new one.
    if (month === this.month) this.granted.add(principal.accountId);
  }
}
