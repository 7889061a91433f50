import { operations } from '../../operations/index.js';
import type { OperationCategory } from '../../operations/define.js';
import { AppError } from '../errors.js';
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

/** The operation of each metered unit that only one operation charges: how an entry without its operation is named. */
const onlyOperationOfUnit = new Map<string, string | null>();
for (const operation of operations) {
  const { unit } = operation.credits;
  if (unit === 'none') continue;
  onlyOperationOfUnit.set(unit, onlyOperationOfUnit.has(unit) ? null : operation.operationId);
}

/**
 * The operation that starts the work a job charges for, by the prefix of the job's ledger reference (a job runs outside
 * any request, so its entries name no operation themselves). A saved search's runs, scheduled ones too, are
 * runSavedSearch's.
 */
const operationOfJobReference: Record<string, string> = {
  audience: 'buildAudience',
  enrichment: 'triggerEnrichment',
  batch: 'startBatchContactEnrichment',
  'saved-search-run': 'runSavedSearch',
};

/**
 * The operation a ledger entry was made for, as people call it: as recorded with the charge; else the request's, from
 * the request log; else the job's, by its reference; else the only operation that charges its unit; else null (a
 * grant, a purchase).
 */
function operationOfEntry(recorded: string | null, reference: string | null, unit: string): string | null {
  if (recorded) return recorded;
  const prefix = reference?.includes(':') ? reference.slice(0, reference.indexOf(':')) : null;
  return (prefix ? operationOfJobReference[prefix] : undefined) ?? onlyOperationOfUnit.get(unit) ?? null;
}

/** The recorded operation of an entry, or its request's from the request log (entries written before it was recorded). */
const recordedOperationSql = `COALESCE(l.operation_id, (SELECT r.operation_id FROM request_log r
   WHERE r.account_id = l.account_id AND r.request_id = l.reference ORDER BY r.id LIMIT 1))`;

/** A day as YYYY-MM-DD (UTC). */
export type IsoDay = string;

export interface SpendCell {
  day: IsoDay;
  operationId: string | null;
  unit: string;
  apiKeyId: number | null;
  keyName: string | null;
  keyPrefix: string | null;
  credits: number;
}

/**
 * Credits charged from `from` to `to` (UTC days, both included), per day, operation, unit and key: the one reading of
 * the ledger behind the dashboard's chart and getUsage. Charges only (what went out); grants, purchases and refunds
 * are the ledger's.
 */
export async function spendBreakdown(
  db: Queryable,
  accountId: number,
  range: { from: IsoDay; to: IsoDay },
): Promise<SpendCell[]> {
  const result = await db.query<{
    day: string;
    operation_id: string | null;
    job: string | null;
    unit: string;
    api_key_id: number | null;
    label: string | null;
    key_prefix: string | null;
    credits: number;
  }>(
    `SELECT e.day, e.operation_id, j.job, e.unit, e.api_key_id, k.label, k.key_prefix, sum(e.spent)::bigint AS credits
       FROM (SELECT to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, ${recordedOperationSql} AS operation_id,
                    l.reference, l.unit, l.api_key_id, -l.amount AS spent
               FROM credit_ledger l
              WHERE l.account_id = $1 AND l.amount < 0
                AND l.created_at >= $2::date AT TIME ZONE 'UTC' AND l.created_at < ($3::date + 1) AT TIME ZONE 'UTC') e
       CROSS JOIN LATERAL (SELECT CASE WHEN e.operation_id IS NULL AND position(':' in e.reference) > 0
                                       THEN split_part(e.reference, ':', 1) END AS job) j
       LEFT JOIN api_keys k ON k.account_id = $1 AND k.id = e.api_key_id
      GROUP BY e.day, e.operation_id, j.job, e.unit, e.api_key_id, k.label, k.key_prefix`,
    [accountId, range.from, range.to],
  );
  const cells = new Map<string, SpendCell>();
  for (const row of result.rows) {
    const operationId = operationOfEntry(row.operation_id, row.job === null ? null : `${row.job}:`, row.unit);
    const apiKeyId = row.api_key_id === null ? null : Number(row.api_key_id);
    const id = JSON.stringify([row.day, operationId, row.unit, apiKeyId]);
    const cell = cells.get(id);
    if (cell) cell.credits += Number(row.credits);
    else
      cells.set(id, {
        day: row.day,
        operationId,
        unit: row.unit,
        apiKeyId,
        keyName: row.label,
        keyPrefix: row.key_prefix,
        credits: Number(row.credits),
      });
  }
  return [...cells.values()].sort(
    (a, b) =>
      a.day.localeCompare(b.day) ||
      (a.operationId ?? '').localeCompare(b.operationId ?? '') ||
      a.unit.localeCompare(b.unit) ||
      (a.apiKeyId ?? 0) - (b.apiKeyId ?? 0),
  );
}

/** The UTC days from `from` to `to`, both included. */
export function daysBetween(from: IsoDay, to: IsoDay): IsoDay[] {
  const days: IsoDay[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += 86_400_000)
    days.push(new Date(at).toISOString().slice(0, 10));
  return days;
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
  const dayList = daysBetween(
    new Date(today - (days - 1) * 86_400_000).toISOString().slice(0, 10),
    new Date(today).toISOString().slice(0, 10),
  );
  const cells = await spendBreakdown(db, accountId, { from: dayList[0] as IsoDay, to: dayList.at(-1) as IsoDay });
  const index = new Map(dayList.map((day, i) => [day, i]));
  const byGroup = new Map<UsageGroup, number[]>();
  let total = 0;
  for (const cell of cells) {
    const at = index.get(cell.day);
    if (at === undefined) continue;
    const group = usageGroupOf(cell.unit);
    const values = byGroup.get(group) ?? new Array<number>(days).fill(0);
    values[at] = (values[at] ?? 0) + cell.credits;
    byGroup.set(group, values);
    total += cell.credits;
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
  /** The operation as people call it (peopleSearch); null for a grant or a purchase. */
  operationId: string | null;
  /** The metered unit (getPersonFromDb). */
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
    operation_id: string | null;
    unit: string;
    reason: string;
    reference: string | null;
    api_key_id: number | null;
    label: string | null;
    key_prefix: string | null;
  }>(
    `SELECT l.id, l.created_at, l.amount, l.balance_after, ${recordedOperationSql} AS operation_id, l.unit, l.reason,
            l.reference, l.api_key_id, k.label, k.key_prefix
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
    operationId: operationOfEntry(r.operation_id, r.reference, r.unit),
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

/** The longest range getUsage reads: a year, leap day included. */
export const maxUsageRangeDays = 366;
/** The range getUsage reads when none is given: the last 30 days, today included. */
export const defaultUsageRangeDays = 30;

export type UsageDimension = 'day' | 'operation' | 'key';

export interface UsageKey {
  keyId: string;
  name: string | null;
  /** The first characters of the key, to recognise it by; never the key. */
  prefix: string | null;
}

export interface UsageReport {
  from: IsoDay;
  to: IsoDay;
  total: number;
  byDay: { day: IsoDay; credits: number }[];
  byOperation: { operationId: string | null; unit: string; credits: number }[];
  byKey: { key: UsageKey | null; credits: number }[];
  groupBy: UsageDimension[] | null;
  rows: { day?: IsoDay; operationId?: string | null; unit?: string; key?: UsageKey | null; credits: number }[] | null;
}

function rangeError(field: 'from' | 'to', message: string): AppError {
  return new AppError('invalid_request', `${field}: ${message}`, { details: { issues: [{ field, message }] } });
}

const dayMs = 86_400_000;
const isoDayOf = (ms: number): IsoDay => new Date(ms).toISOString().slice(0, 10);

/**
 * The range asked for, with its defaults: `to` today (UTC), `from` 30 days before it, today included; refused, naming
 * the field, when `from` is after `to` or the range is longer than a year.
 */
export function usageRange(
  asked: { from?: IsoDay | undefined; to?: IsoDay | undefined },
  now = new Date(),
): {
  from: IsoDay;
  to: IsoDay;
} {
  const to = asked.to ?? isoDayOf(now.getTime());
  const from = asked.from ?? isoDayOf(Date.parse(`${to}T00:00:00Z`) - (defaultUsageRangeDays - 1) * dayMs);
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs + 1;
  if (days < 1) throw rangeError(asked.from !== undefined ? 'from' : 'to', `must not be later than to (${to})`);
  if (days > maxUsageRangeDays)
    throw rangeError(
      asked.from !== undefined ? 'from' : 'to',
      `the range from ${from} to ${to} is ${days} days; at most ${maxUsageRangeDays}`,
    );
  return { from, to };
}

/** Sums cells by the dimensions given, in the order of their first appearance. */
function sumBy<Row>(cells: SpendCell[], keyOf: (cell: SpendCell) => unknown, rowOf: (cell: SpendCell) => Row) {
  const sums = new Map<string, { row: Row; credits: number }>();
  for (const cell of cells) {
    const id = JSON.stringify(keyOf(cell));
    const sum = sums.get(id);
    if (sum) sum.credits += cell.credits;
    else sums.set(id, { row: rowOf(cell), credits: cell.credits });
  }
  return [...sums.values()].map(({ row, credits }) => ({ ...row, credits }));
}

/** Rows in order of their day, and the largest first within a day. */
const byDayThenMost = <Row extends { day?: IsoDay; credits: number }>(rows: Row[]) =>
  rows.sort((a, b) => (a.day ?? '').localeCompare(b.day ?? '') || b.credits - a.credits);

const keyOfCell = (cell: SpendCell): UsageKey | null =>
  cell.apiKeyId === null ? null : { keyId: String(cell.apiKeyId), name: cell.keyName, prefix: cell.keyPrefix };

/** Credits an account spent over a range: per day (every day of it), per operation, per key, and grouped as asked. */
export async function usageReport(
  db: Queryable,
  accountId: number,
  asked: { from?: IsoDay | undefined; to?: IsoDay | undefined; groupBy?: UsageDimension[] | undefined },
  now = new Date(),
): Promise<UsageReport> {
  const range = usageRange(asked, now);
  const cells = await spendBreakdown(db, accountId, range);
  const perDay = new Map(daysBetween(range.from, range.to).map((day) => [day, 0]));
  for (const cell of cells) perDay.set(cell.day, (perDay.get(cell.day) ?? 0) + cell.credits);
  const mostFirst = <Row extends { credits: number }>(rows: Row[]) => rows.sort((a, b) => b.credits - a.credits);
  const groupBy = asked.groupBy?.length ? [...new Set(asked.groupBy)] : null;
  return {
    ...range,
    total: cells.reduce((sum, cell) => sum + cell.credits, 0),
    byDay: [...perDay].map(([day, credits]) => ({ day, credits })),
    byOperation: mostFirst(
      sumBy(
        cells,
        (c) => [c.operationId, c.unit],
        (c) => ({ operationId: c.operationId, unit: c.unit }),
      ),
    ),
    byKey: mostFirst(
      sumBy(
        cells,
        (c) => c.apiKeyId,
        (c) => ({ key: keyOfCell(c) }),
      ),
    ),
    groupBy,
    rows: groupBy
      ? byDayThenMost(
          sumBy(
            cells,
            (c) =>
              groupBy.map((dimension) =>
                dimension === 'day' ? c.day : dimension === 'key' ? c.apiKeyId : [c.operationId, c.unit],
              ),
            (c) => ({
              ...(groupBy.includes('day') ? { day: c.day } : {}),
              ...(groupBy.includes('operation') ? { operationId: c.operationId, unit: c.unit } : {}),
              ...(groupBy.includes('key') ? { key: keyOfCell(c) } : {}),
            }),
          ),
        )
      : null,
  };
}
