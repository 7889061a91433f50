import { operations } from '../../operations/index.js';
import type { OperationCategory } from '../../operations/define.js';
import type { Queryable } from '../store/db.js';

/**
 * Where an account's credits went, read from the ledger: spend per day by operation group (for
 * the usage chart and its table), and the ledger itself, paged by id (never OFFSET) and
 * filterable by the key that made a charge and by the metered unit.
 */

export type UsageGroup = OperationCategory | 'other';

export const usageGroups: readonly { group: UsageGroup; label: string }[] = [
  { group: 'search', label: 'Search' },
  { group: 'contact', label: 'Contacts' },
  { group: 'enrichment', label: 'Enrichment' },
  { group: 'audience', label: 'Audiences' },
  { group: 'account', label: 'Account' },
  { group: 'other', label: 'Other' },
];

/** The group of each metered unit, from the operations that charge it. */
const groupOfUnit = new Map<string, UsageGroup>();
for (const operation of operations) {
  if (operation.credits.unit !== 'none' && !groupOfUnit.has(operation.credits.unit))
    groupOfUnit.set(operation.credits.unit, operation.category);
}

export function usageGroupOf(unit: string): UsageGroup {
  return groupOfUnit.get(unit) ?? 'other';
}

/** The units an account can be charged in, for a filter: every operation's, and grants. */
export function meteredUnits(): string[] {
  return [...new Set([...groupOfUnit.keys(), 'grant'])].sort();
}

export interface DailySpend {
  /** The days, oldest first, as YYYY-MM-DD (UTC), today last. */
  days: string[];
  /** Per group that spent anything in the period, credits per day (same order as days). */
  series: { group: UsageGroup; label: string; credits: number[] }[];
  total: number;
}

/** Credits charged per UTC day over the last `days` days (today included), by operation group. */
export async function dailySpend(
  db: Queryable,
  accountId: number,
  days: number,
  now = new Date(),
): Promise<DailySpend> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const dayList = Array.from({ length: days }, (_, i) =>
    new Date(today - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
  const result = await db.query<{ day: string; unit: string; credits: number }>(
    `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, unit, -sum(amount)::bigint AS credits
       FROM credit_ledger
      WHERE account_id = $1 AND amount < 0 AND created_at >= $2::timestamptz
      GROUP BY 1, 2`,
    [accountId, new Date(today - (days - 1) * 86_400_000).toISOString()],
  );
  const index = new Map(dayList.map((day, i) => [day, i]));
  const byGroup = new Map<UsageGroup, number[]>();
  let total = 0;
  for (const row of result.rows) {
    const at = index.get(row.day);
    if (at === undefined) continue;
    const group = usageGroupOf(row.unit);
    const values = byGroup.get(group) ?? new Array<number>(days).fill(0);
    values[at] = (values[at] ?? 0) + Number(row.credits);
    byGroup.set(group, values);
    total += Number(row.credits);
  }
  return {
    days: dayList,
    series: usageGroups
      .filter(({ group }) => byGroup.has(group))
      .map(({ group, label }) => ({ group, label, credits: byGroup.get(group) as number[] })),
    total,
  };
}

export interface LedgerFilter {
  apiKeyId?: number | null;
  unit?: string | null;
}

export interface LedgerEntry {
  id: number;
  at: string;
  amount: number;
  balanceAfter: number;
  unit: string;
  group: UsageGroup;
  reason: string;
  requestId: string | null;
  apiKeyId: number | null;
  keyName: string | null;
  keyPrefix: string | null;
}

/** One page of the ledger, newest first, after the entry `before`. */
export async function ledgerPage(
  db: Queryable,
  accountId: number,
  filter: LedgerFilter,
  page: { before?: number | null; limit: number },
): Promise<{ entries: LedgerEntry[]; nextBefore: number | null }> {
  const result = await db.query<{
    id: number;
    created_at: Date;
    amount: number;
    balance_after: number;
    unit: string;
    reason: string;
    reference: string | null;
    api_key_id: number | null;
    label: string | null;
    key_prefix: string | null;
  }>(
    `SELECT l.id, l.created_at, l.amount, l.balance_after, l.unit, l.reason, l.reference, l.api_key_id, k.label, k.key_prefix
       FROM credit_ledger l LEFT JOIN api_keys k ON k.account_id = l.account_id AND k.id = l.api_key_id
      WHERE l.account_id = $1 AND ($2::bigint IS NULL OR l.id < $2)
        AND ($3::bigint IS NULL OR l.api_key_id = $3) AND ($4::text IS NULL OR l.unit = $4)
      ORDER BY l.id DESC LIMIT $5`,
    [accountId, page.before ?? null, filter.apiKeyId ?? null, filter.unit || null, page.limit + 1],
  );
  const entries = result.rows.slice(0, page.limit).map((r) => ({
    id: Number(r.id),
    at: r.created_at.toISOString(),
    amount: Number(r.amount),
    balanceAfter: Number(r.balance_after),
    unit: r.unit,
    group: usageGroupOf(r.unit),
    reason: r.reason,
    requestId: r.reference,
    apiKeyId: r.api_key_id === null ? null : Number(r.api_key_id),
    keyName: r.label,
    keyPrefix: r.key_prefix,
  }));
  const last = entries.at(-1);
  return { entries, nextBefore: result.rows.length > page.limit && last ? last.id : null };
}

/** When the free plan's next monthly credits arrive: the first of next month, UTC. */
export function nextMonthlyGrant(
  plan: string,
  monthlyCredits: number,
  now = new Date(),
): { at: string; credits: number } | null {
  if (plan !== 'free' || monthlyCredits <= 0) return null;
  return {
    at: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
    credits: monthlyCredits,
  };
}
