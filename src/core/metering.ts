import type { Principal } from '../auth/api-keys.js';
import type { AppContext } from '../context.js';
import { grantMonthlyFreeCredits } from './accounts.js';
import { charge, type LedgerEntryInput } from './credits.js';

const grantedMonths = new Set<string>();

/**
 * Charges `count` credits for what a request returns, in one transaction with the free plan's
 * monthly grant. Throws insufficient_credits (and charges nothing) when the balance is short.
 */
export async function chargeForRecords(app: AppContext, principal: Principal, count: number, entry: LedgerEntryInput): Promise<number> {
  await ensureMonthlyGrant(app, principal);
  if (count === 0) return 0;
  await app.db.transaction((tx) => charge(tx, principal.accountId, count, entry));
  return count;
}

/** The grant is idempotent in the ledger; the in-memory set only spares the query on later calls. */
export async function ensureMonthlyGrant(app: AppContext, principal: Principal): Promise<void> {
  if (principal.plan !== 'free') return;
  const key = `${principal.accountId}:${new Date().toISOString().slice(0, 7)}`;
  if (grantedMonths.has(key)) return;
  await app.db.transaction((tx) => grantMonthlyFreeCredits(tx, principal.accountId, principal.plan, app.config.FREE_PLAN_MONTHLY_CREDITS));
  grantedMonths.add(key);
}
