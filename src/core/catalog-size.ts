import type { Queryable } from '../store/db.js';

/** How many companies and people this instance's catalog holds. */
export interface CatalogSize {
  companies: number;
  people: number;
  /** False when read from PostgreSQL's planner statistics because no seed or import has counted yet. */
  counted: boolean;
}

/** Counts the catalog and keeps the count (after a seed or an import): one scan of each table. */
export async function refreshCatalogSize(db: Queryable): Promise<CatalogSize> {
  const result = await db.query<{ companies: string; people: string }>(
    `INSERT INTO catalog_size (singleton, companies, people, counted_at)
     SELECT true, (SELECT count(*) FROM companies), (SELECT count(*) FROM people), now()
     ON CONFLICT (singleton) DO UPDATE SET companies = EXCLUDED.companies, people = EXCLUDED.people, counted_at = now()
     RETURNING companies, people`,
  );
  const row = result.rows[0] as { companies: string; people: string };
  return { companies: Number(row.companies), people: Number(row.people), counted: true };
}

/**
 * The kept count; before any seed or import counted, the planner's estimate (a catalog loaded by
 * other means), and null when PostgreSQL has none either. One small read.
 */
export async function readCatalogSize(db: Queryable): Promise<CatalogSize | null> {
  const kept = await db.query<{ companies: string; people: string }>('SELECT companies, people FROM catalog_size');
  const row = kept.rows[0];
  if (row) return { companies: Number(row.companies), people: Number(row.people), counted: true };
  const estimated = await db.query<{ relname: string; reltuples: number }>(
    `SELECT relname, reltuples::float8 AS reltuples FROM pg_class
      WHERE relname IN ('companies', 'people') AND relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')`,
  );
  const of = (name: string) => estimated.rows.find((r) => r.relname === name)?.reltuples ?? -1;
  if (of('companies') < 0 || of('people') < 0) return null;
  return { companies: Math.round(of('companies')), people: Math.round(of('people')), counted: false };
}

/** The size as it is read, kept a minute per process: the surfaces that state it are read often. */
export class CatalogSizeCache {
  private cached: { size: CatalogSize | null; expiresAt: number } | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<CatalogSize | null> {
    if (this.cached && this.cached.expiresAt > this.now()) return this.cached.size;
    let size: CatalogSize | null;
    try {
      size = await readCatalogSize(this.db);
    } catch {
      // A description is no reason to fail a request: it then says the size is unknown.
      size = null;
    }
    this.cached = { size, expiresAt: this.now() + this.ttlMs };
    return size;
  }
}

/** Rounded as people read a catalog's size: 1,000 exactly, 10,000,000 as "10 million". */
export function formatCount(count: number): string {
  if (count >= 1_000_000) {
    const millions = count / 1_000_000;
    return `${millions >= 100 ? Math.round(millions) : Number(millions.toPrecision(3))} million`;
  }
  return count.toLocaleString('en-US');
}

/** One sentence for descriptions, search_endpoints, llms.txt and openapi.json. */
export function catalogSentence(size: CatalogSize | null): string {
  if (!size) return "This instance's catalog size is not known yet (no seed or import has counted it).";
  const about = size.counted ? '' : 'about ';
  return `This instance's catalog holds ${about}${formatCount(size.companies)} companies and ${about}${formatCount(size.people)} people profiles.`;
}
