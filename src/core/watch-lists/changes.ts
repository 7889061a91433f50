import { defaultHeadcountChangeThreshold, type ChangeKind } from '../../../operations/schemas/watch-lists.js';
import type { WebhookEventType } from '../../../operations/schemas/webhooks.js';
import type { Queryable } from '../../store/db.js';
import type { LiveCompany, LiveProfile } from '../ports/network-source.js';
import type { CursorCodec } from '../search/cursor.js';
import { networkUrlOf, requireWatchList } from './watch-lists.js';

/**
 * What a check keeps of a live record (the item's snapshot), and the changes between two
 * snapshots. A change is judged on what the live source answered, never on anything else.
 */

export interface PersonSnapshot {
  company: { name: string | null; slug: string | null; domain: string | null } | null;
  title: string;
  location: { city: string | null; countryCode: string | null };
}

export interface CompanySnapshot {
  name: string;
  domain: string | null;
  headcount: { min: number | null; max: number | null };
  headquarters: { city: string | null; stateName: string | null; countryCode: string | null };
  /** Undefined when the source says nothing of funding (then no funding change is judged). */
  latestFunding?: { stage: string | null; amountUsd: number | null; announcedOn: string | null } | null;
}

export type Snapshot = PersonSnapshot | CompanySnapshot;

export interface DetectedChange {
  kind: ChangeKind;
  before: unknown;
  after: unknown;
}

export function personSnapshot(profile: LiveProfile): PersonSnapshot {
  return {
    company: profile.currentCompany
      ? { name: profile.currentCompany.name, slug: profile.currentCompany.slug, domain: profile.currentCompany.domain }
      : null,
    title: profile.title,
    location: { city: profile.city, countryCode: profile.countryCode },
  };
}

export function companySnapshot(company: LiveCompany): CompanySnapshot {
  return {
    name: company.name,
    domain: company.domains[0] ?? null,
    headcount: { min: company.employeeCountMin, max: company.employeeCountMax },
    headquarters: { city: company.city, stateName: company.stateName, countryCode: company.countryCode },
    ...(company.latestFunding === undefined ? {} : { latestFunding: company.latestFunding }),
  };
}

const sameCompany = (a: PersonSnapshot['company'], b: PersonSnapshot['company']) =>
  (a?.slug ?? a?.domain ?? a?.name?.toLowerCase() ?? null) === (b?.slug ?? b?.domain ?? b?.name?.toLowerCase() ?? null);

export function personChanges(before: PersonSnapshot, after: PersonSnapshot): DetectedChange[] {
  const changes: DetectedChange[] = [];
  if (!sameCompany(before.company, after.company))
    changes.push({
      kind: 'job_changed',
      before: { company: before.company, title: before.title },
      after: { company: after.company, title: after.title },
    });
  else if (before.title.trim() !== after.title.trim())
    changes.push({ kind: 'title_changed', before: before.title, after: after.title });
  if (
    (before.location.city ?? '') !== (after.location.city ?? '') ||
    before.location.countryCode !== after.location.countryCode
  )
    changes.push({ kind: 'location_changed', before: before.location, after: after.location });
  return changes;
}

/** The middle of a headcount range, the number a threshold is a share of. */
function headcountOf(range: CompanySnapshot['headcount']): number | null {
  if (range.min === null) return null;
  return range.max === null ? range.min : (range.min + range.max) / 2;
}

export function companyChanges(
  before: CompanySnapshot,
  after: CompanySnapshot,
  thresholdPercent: number | null,
): DetectedChange[] {
  const changes: DetectedChange[] = [];
  const funding = (f: CompanySnapshot['latestFunding']) => (f ? `${f.stage}|${f.amountUsd}|${f.announcedOn}` : null);
  if (
    after.latestFunding &&
    before.latestFunding !== undefined &&
    funding(before.latestFunding) !== funding(after.latestFunding)
  )
    changes.push({ kind: 'funding_raised', before: before.latestFunding ?? null, after: after.latestFunding });
  const was = headcountOf(before.headcount);
  const is = headcountOf(after.headcount);
  const threshold = (thresholdPercent ?? defaultHeadcountChangeThreshold) / 100;
  if (was !== null && is !== null && was > 0 && Math.abs(is - was) / was >= threshold)
    changes.push({ kind: 'headcount_changed', before: before.headcount, after: after.headcount });
  const hq = (h: CompanySnapshot['headquarters']) =>
    `${h.city ?? ''}|${h.stateName ?? ''}|${h.countryCode ?? ''}`.toLowerCase();
  if (hq(before.headquarters) !== hq(after.headquarters))
    changes.push({ kind: 'moved', before: before.headquarters, after: after.headquarters });
  if (before.name !== after.name || (before.domain !== after.domain && after.domain !== null))
    changes.push({
      kind: 'renamed',
      before: { name: before.name, domain: before.domain },
      after: { name: after.name, domain: after.domain },
    });
  return changes;
}

/** The webhook event a change kind is announced with, where it has one. */
export const changeEvents: Partial<Record<ChangeKind, WebhookEventType>> = {
  job_changed: 'person.job_changed',
  title_changed: 'person.title_changed',
  funding_raised: 'company.funding_raised',
  headcount_changed: 'company.headcount_changed',
  moved: 'company.moved',
};

export interface ChangeRow {
  id: number;
  watch_list_id: number;
  item_id: number;
  check_id: number;
  kind: ChangeKind;
  before: unknown;
  after: unknown;
  detected_at: Date;
  input: string | null;
  catalog_id: number | null;
  ref_slug: string | null;
}

export function changeView(kind: 'people' | 'companies', row: ChangeRow) {
  return {
    changeId: String(row.id),
    watchListId: String(row.watch_list_id),
    itemId: String(row.item_id),
    item: {
      input: row.input ?? '',
      catalogId: row.catalog_id === null ? '' : String(row.catalog_id),
      networkUrl: networkUrlOf(kind, row.ref_slug),
    },
    kind: row.kind,
    before: row.before,
    after: row.after,
    detectedAt: row.detected_at.toISOString(),
    checkId: String(row.check_id),
  };
}

export interface ChangeQuery {
  watchListId: string;
  kind?: ChangeKind | undefined;
  detectedAfter?: string | undefined;
  detectedBefore?: string | undefined;
}

const changeFilter = `c.account_id = $1 AND c.watch_list_id = $2 AND ($3::text IS NULL OR c.kind = $3)
   AND ($4::timestamptz IS NULL OR c.detected_at >= $4) AND ($5::timestamptz IS NULL OR c.detected_at < $5)`;

// As Dates: PostgreSQL refuses a UTC offset beyond ±15:59, which ISO 8601 (and so the schema) allows.
const instant = (time: string | undefined): Date | null => (time === undefined ? null : new Date(time));

function filterValues(accountId: number, listId: number, query: ChangeQuery) {
  return [accountId, listId, query.kind ?? null, instant(query.detectedAfter), instant(query.detectedBefore)];
}

/** Changes of a list, newest first. Items removed since keep their changes (with item fields as stored). */
export async function listWatchListChanges(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: ChangeQuery & { pageSize: number; cursor?: string | null | undefined },
) {
  const list = await requireWatchList(db, accountId, query.watchListId);
  const pages = cursors.scope(accountId, 'listWatchListChanges', {
    list: list.id,
    kind: query.kind ?? null,
    after: query.detectedAfter ?? null,
    before: query.detectedBefore ?? null,
  });
  const before = pages.decode(query.cursor);
  const result = await db.query<ChangeRow>(
    `SELECT c.id, c.watch_list_id, c.item_id, c.check_id, c.kind, c.before, c.after, c.detected_at,
            i.input, i.catalog_id, i.ref_slug
       FROM watch_list_changes c
       LEFT JOIN watch_list_items i ON i.account_id = c.account_id AND i.watch_list_id = c.watch_list_id AND i.id = c.item_id
      WHERE ${changeFilter} AND ($6::bigint = 0 OR c.id < $6)
      ORDER BY c.id DESC LIMIT $7`,
    [...filterValues(accountId, list.id, query), before, query.pageSize + 1],
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => row.id);
  return { data: rows.map((row) => changeView(list.kind, row)), nextCursor };
}

export async function countWatchListChanges(db: Queryable, accountId: number, query: ChangeQuery) {
  const list = await requireWatchList(db, accountId, query.watchListId);
  const result = await db.query<{ kind: ChangeKind; n: number }>(
    `SELECT c.kind, count(*)::int AS n FROM watch_list_changes c WHERE ${changeFilter} GROUP BY c.kind ORDER BY c.kind`,
    filterValues(accountId, list.id, query),
  );
  const byKind = Object.fromEntries(result.rows.map((row) => [row.kind, row.n]));
  return { watchListId: String(list.id), total: result.rows.reduce((sum, row) => sum + row.n, 0), byKind };
}

/**
 * Changes of a list by week (weeks starting on Monday, UTC, on the network clock that stamps them), the `weeks` weeks up to
 * the one holding `now`, oldest first; a week without changes is there with zero.
 */
export async function changesByWeek(db: Queryable, accountId: number, watchListId: number, weeks: number, now: Date) {
  const result = await db.query<{ week_of: string; total: number; by_kind: Record<string, number> | null }>(
    `WITH weeks AS (
       SELECT generate_series(date_trunc('week', $3::timestamptz AT TIME ZONE 'UTC') - ($4::int - 1) * interval '1 week',
                              date_trunc('week', $3::timestamptz AT TIME ZONE 'UTC'), interval '1 week') AS week),
     counted AS (
       SELECT date_trunc('week', detected_at AT TIME ZONE 'UTC') AS week, kind, count(*)::int AS n
         FROM watch_list_changes
        WHERE account_id = $1 AND watch_list_id = $2
          AND detected_at >= (date_trunc('week', $3::timestamptz AT TIME ZONE 'UTC') - ($4::int - 1) * interval '1 week') AT TIME ZONE 'UTC'
        GROUP BY 1, 2)
     SELECT to_char(w.week, 'YYYY-MM-DD') AS week_of, coalesce(sum(c.n), 0)::int AS total, jsonb_object_agg(c.kind, c.n) FILTER (WHERE c.kind IS NOT NULL) AS by_kind
       FROM weeks w LEFT JOIN counted c ON c.week = w.week
      GROUP BY w.week ORDER BY w.week`,
    [accountId, watchListId, now, weeks],
  );
  return result.rows.map((row) => ({
    weekOf: row.week_of,
    total: row.total,
    byKind: row.by_kind ?? {},
  }));
}

/** A change's before and after as a person reads them: a job as its title at its company, other values as their parts. */
export function describeChange(kind: string, before: unknown, after: unknown): string {
  const job = (value: unknown) => {
    const { company, title } = (value ?? {}) as { company?: { name?: string | null } | null; title?: string };
    return `${title ?? ''} at ${company?.name ?? 'no company'}`;
  };
  const parts = (value: unknown): string => {
    if (value === null || value === undefined) return '—';
    if (typeof value !== 'object') return String(value);
    return Object.values(value as Record<string, unknown>)
      .filter((v) => v !== null && v !== undefined)
      .map(parts)
      .join(', ');
  };
  const show = kind === 'job_changed' ? job : parts;
  return `${show(before)} → ${show(after)}`;
}
