import type { CompanyRecord } from '../../../operations/schemas/records.js';
import { COUNTRIES } from '../../../reference/countries.js';
import type { Queryable } from '../../store/db.js';
import { normaliseDomain, slugFromUrlOrSlug } from '../network-urls.js';
import { companyColumns, toCompanyRecord, type CompanyRow } from '../search/records.js';
import { collectEvidence, confidenceOf, rankCandidates, type Evidence, type MatchResult } from './confidence.js';
import { companyNameCore, domainRoot, plainName, textSimilarity } from './similarity.js';

/**
 * Companies from loose identifiers: a name with or without its legal form, a domain or any URL on
 * it, a profile URL or slug, a location. Each row finds its candidates through the indexes the
 * searches use (domains, slug, the name's trigrams), and each candidate is weighed on what agrees
 * and what disagrees; the best is the match, with a confidence from 0 to 1.
 */

export interface CompanyMatchRow {
  name?: string | undefined;
  domain?: string | undefined;
  profileUrl?: string | undefined;
  location?: string | undefined;
}

const CANDIDATES_PER_ROW = 12;
const countryNames = new Map(COUNTRIES.map((c) => [c.code2, plainName(c.name)]));

/** The domain of a row's domain field, which may be any URL on it. */
function domainOf(value: string | undefined): string | null {
  if (!value) return null;
  const domain = normaliseDomain(value);
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain) ? domain : null;
}

function locationAgrees(location: string, row: CompanyRow): boolean | null {
  const text = ` ${plainName(location)} `;
  const places = [row.city, row.state_name, row.country_code ? countryNames.get(row.country_code) : null]
    .filter((p): p is string => Boolean(p))
    .map(plainName);
  if (places.length === 0) return null;
  if (places.some((place) => text.includes(` ${place} `))) return true;
  const code = row.country_code?.toLowerCase();
  return code ? text.includes(` ${code} `) : false;
}

function weigh(row: CompanyMatchRow, keys: Keys, candidate: CompanyRow): Evidence {
  const { evidence, agree, disagree } = collectEvidence();
  if (keys.slug) {
    if (candidate.network_primary_slug === keys.slug) agree('profileUrl', 4);
    else disagree('profileUrl', 2.5);
  }
  if (keys.domain) {
    const roots = candidate.domains.map(domainRoot);
    if (candidate.domains.includes(keys.domain) || roots.includes(domainRoot(keys.domain))) agree('domain', 3.5);
    else disagree('domain', 2.5);
  }
  if (keys.core) {
    const similarity = textSimilarity(keys.core, companyNameCore(candidate.preferred_name));
    if (similarity === 1) agree('name', 3);
    else if (similarity >= 0.85) agree('name (close)', 2.5);
    else if (similarity >= 0.7) agree('name (close)', 1.5);
    else disagree('name', 2);
  }
  if (row.location) {
    const agrees = locationAgrees(row.location, candidate);
    if (agrees === true) agree('location', 0.7);
    else if (agrees === false) disagree('location', 1);
  }
  return evidence;
}

export interface CompanySummary {
  preferred_name: string;
  domains: string[];
  network_primary_slug: string | null;
}

const companySummary = (row: CompanyRow): CompanySummary => ({
  preferred_name: row.preferred_name,
  domains: row.domains,
  network_primary_slug: row.network_primary_slug,
});

interface Keys {
  domain: string | null;
  slug: string | null;
  core: string;
}

export async function matchCompanies(
  db: Queryable,
  rows: readonly CompanyMatchRow[],
): Promise<Array<MatchResult<CompanyRecord, CompanySummary>>> {
  const results: Array<MatchResult<CompanyRecord, CompanySummary>> = [];
  for (const [index, row] of rows.entries()) {
    const keys: Keys = {
      domain: domainOf(row.domain),
      slug: row.profileUrl ? slugFromUrlOrSlug(row.profileUrl, 'company') : null,
      core: row.name ? companyNameCore(row.name) : '',
    };
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (keys.domain) {
      params.push(keys.domain);
      conditions.push(`c.domains @> ARRAY[$${params.length}::text]`);
    }
    if (keys.slug) {
      params.push(keys.slug);
      conditions.push(`c.network_primary_slug = $${params.length}`);
    }
    if (keys.core.length >= 3) {
      params.push(keys.core);
      conditions.push(`c.preferred_name % $${params.length}`);
    }
    if (conditions.length === 0) {
      results.push({ index, match: null, confidence: 0, reasons: { agreed: [], disagreed: [] }, runnersUp: [] });
      continue;
    }
    // Nearest names first, so that the candidates kept are the likeliest; exact keys rank above any name.
    const order = keys.core.length >= 3 ? `similarity(c.preferred_name, $${params.length}) DESC, c.id` : 'c.id';
    const found = await db.query<CompanyRow>(
      `SELECT ${companyColumns} FROM companies c WHERE ${conditions.join(' OR ')} ORDER BY ${order} LIMIT ${CANDIDATES_PER_ROW}`,
      params,
    );
    const ranked = rankCandidates(
      found.rows.map((candidate) => ({ candidate, evidence: weigh(row, keys, candidate) })),
      (candidate) => candidate.id,
    );
    results.push(confidenceOf(index, ranked, toCompanyRecord, companySummary));
  }
  return results;
}
