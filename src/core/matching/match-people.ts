import type { ProfileRecord } from '../../../operations/schemas/records.js';
import { NICKNAMES } from '../../../reference/nicknames.js';
import { PERSONAL_EMAIL_DOMAINS } from '../../../reference/company-names.js';
import type { Queryable } from '../../store/db.js';
import { normaliseDomain, profileUrlOf, slugFromUrlOrSlug } from '../network-urls.js';
import { profileColumns, toProfileRecord, type ProfileRow } from '../search/records.js';
import { titleMatches } from '../titles/normalise.js';
import { collectEvidence, confidenceOf, rankCandidates, type Evidence, type MatchResult } from './confidence.js';
import { companyNameCore, domainRoot, plainName, textSimilarity } from './similarity.js';

/**
 * People from loose identifiers: a name (or first and last), a company by name or domain, an email
 * (work or personal), a profile URL or slug, a phone, with location and title as hints. Candidates
 * come through indexes (profile slug, contact emails and phones, the current company, the name);
 * each is weighed as companies are, and a person who has moved on from the company of the row is
 * still found, by name, the old company counting as a past one.
 */

export interface PersonMatchRow {
  name?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  companyName?: string | undefined;
  companyDomain?: string | undefined;
  email?: string | undefined;
  profileUrl?: string | undefined;
  phone?: string | undefined;
  location?: string | undefined;
  title?: string | undefined;
}

export interface PersonSummary {
  first_name: string;
  last_name: string;
  company_name: string | null;
  profile_url: string | null;
}

type Candidate = ProfileRow & {
  id: number;
  work_experiences: Array<{ company_name: string; company_domain: string | null }>;
};

const personalDomains = new Set(PERSONAL_EMAIL_DOMAINS.map((d) => d.domain));
const CANDIDATES_PER_KEY = 25;

/** The given names a written first name may stand for: itself, and what a nickname is short for (and back). */
const formalNames = new Map<string, Set<string>>();
for (const [nickname, names] of Object.entries(NICKNAMES)) {
  for (const name of names) {
    formalNames.set(nickname, (formalNames.get(nickname) ?? new Set()).add(name));
    formalNames.set(name, (formalNames.get(name) ?? new Set()).add(nickname));
  }
}

interface Keys {
  first: string;
  last: string;
  /** The names as written, lowercased with their accents, as the catalog's index holds them. */
  writtenFirst: string;
  writtenLast: string;
  slug: string | null;
  email: string | null;
  phoneDigits: string | null;
  companyDomain: string | null;
  companyCore: string;
}

function keysOf(row: PersonMatchRow): Keys {
  let first = row.firstName ? plainName(row.firstName) : '';
  let last = row.lastName ? plainName(row.lastName) : '';
  if (row.name && !(first && last)) {
    const words = plainName(row.name).split(' ');
    first ||= words[0] ?? '';
    last ||= words.slice(1).join(' ');
  }
  const email = row.email ? row.email.trim().toLowerCase() : null;
  const emailDomain = email?.split('@')[1];
  const workDomain = emailDomain && !personalDomains.has(emailDomain) ? emailDomain : null;
  const digits = row.phone?.replace(/\D/g, '') ?? '';
  const written = (row.name ?? '').trim().toLowerCase().split(/\s+/);
  return {
    first,
    last,
    writtenFirst: (row.firstName ?? written[0] ?? '').trim().toLowerCase(),
    writtenLast: (row.lastName ?? written.slice(1).join(' ')).trim().toLowerCase(),
    slug: row.profileUrl ? slugFromUrlOrSlug(row.profileUrl, 'in') : null,
    email,
    phoneDigits: digits.length >= 7 ? digits : null,
    companyDomain: row.companyDomain ? normaliseDomain(row.companyDomain) : workDomain,
    companyCore: row.companyName ? companyNameCore(row.companyName) : '',
  };
}

function firstNameAgrees(written: string, actual: string): 'same' | 'nickname' | 'close' | 'no' {
  if (written === actual) return 'same';
  if (formalNames.get(written)?.has(actual)) return 'nickname';
  if (textSimilarity(written, actual) >= 0.8 || (written.length === 1 && actual.startsWith(written))) return 'close';
  return 'no';
}

function weigh(row: PersonMatchRow, keys: Keys, candidate: Candidate, contacts: Set<string>): Evidence {
  const { evidence, agree, disagree } = collectEvidence();
  if (keys.slug) {
    if (candidate.network_slug === keys.slug) agree('profileUrl', 4);
    else disagree('profileUrl', 2.5);
  }
  if (keys.email) {
    if (contacts.has(`${candidate.id}:${keys.email}`)) agree('email', 4);
  }
  if (keys.phoneDigits) {
    if (contacts.has(`${candidate.id}:${keys.phoneDigits}`)) agree('phone', 3.5);
  }
  if (keys.last) {
    const last = plainName(candidate.last_name);
    if (last === keys.last) agree('lastName', 1.5);
    else if (textSimilarity(last, keys.last) >= 0.8) agree('lastName (close)', 1);
    else disagree('lastName', 2);
  }
  if (keys.first) {
    const agreement = firstNameAgrees(keys.first, plainName(candidate.first_name));
    if (agreement === 'same') agree('firstName', 1.5);
    else if (agreement === 'nickname') agree('firstName (nickname)', 1.3);
    else if (agreement === 'close') agree('firstName (close)', 0.8);
    else disagree('firstName', 1.5);
  }
  if (keys.companyDomain || keys.companyCore) {
    const atCompany = (name: string | null, domain: string | null) =>
      Boolean(
        (keys.companyDomain && domain && domainRoot(domain) === domainRoot(keys.companyDomain)) ||
        (keys.companyCore && name && textSimilarity(companyNameCore(name), keys.companyCore) >= 0.85),
      );
    if (atCompany(candidate.company_name, candidate.company_domain)) agree('company', 2);
    else if ((candidate.work_experiences ?? []).some((w) => atCompany(w.company_name, w.company_domain)))
      agree('company (past)', 0.8);
    else disagree('company', 1);
  }
  if (row.location) {
    const text = ` ${plainName(row.location)} `;
    const places = [candidate.city, candidate.country3, candidate.country_code].filter((p): p is string => Boolean(p));
    if (places.some((place) => text.includes(` ${plainName(place)} `))) agree('location', 0.5);
    else disagree('location', 0.7);
  }
  if (row.title) {
    if (titleMatches(row.title, candidate.title)) agree('title', 0.5);
  }
  return evidence;
}

const summary = (row: Candidate): PersonSummary => ({
  first_name: row.first_name,
  last_name: row.last_name,
  company_name: row.company_name,
  profile_url: profileUrlOf(row.network_slug),
});

export async function matchPeople(
  db: Queryable,
  rows: readonly PersonMatchRow[],
): Promise<Array<MatchResult<ProfileRecord, PersonSummary>>> {
  const columns = `${profileColumns({ getDetailedWorkExperience: true })}`;
  const results: Array<MatchResult<ProfileRecord, PersonSummary>> = [];
  for (const [index, row] of rows.entries()) {
    const keys = keysOf(row);
    const conditions: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    // Each key reads its own candidates through its index, so that a common last name cannot crowd out
    // the person the company or the email points to.
    const firsts = [...new Set([keys.first, keys.writtenFirst, ...(formalNames.get(keys.first) ?? [])])].filter(
      Boolean,
    );
    const lasts = [...new Set([keys.last, keys.writtenLast])].filter(Boolean);
    if (keys.slug) conditions.push(`p.network_slug = ${param(keys.slug)}`);
    if (keys.email)
      conditions.push(
        `p.id IN (SELECT person_id FROM person_contacts WHERE lower(value) = ${param(keys.email)} AND kind IN ('work_email', 'personal_email'))`,
      );
    if ((keys.companyDomain || keys.companyCore) && (keys.last || firsts.length)) {
      const names = [
        lasts.length ? `lower(p.last_name) = ANY(${param(lasts)})` : null,
        firsts.length ? `lower(p.first_name) = ANY(${param(firsts)})` : null,
      ].filter(Boolean);
      const company = keys.companyDomain
        ? `c.domains @> ARRAY[${param(keys.companyDomain)}::text]`
        : `lower(c.preferred_name) = ${param(keys.companyCore)} OR c.preferred_name % ${param(keys.companyCore)}`;
      conditions.push(
        `p.company_id IN (SELECT c.id FROM companies c WHERE ${company} LIMIT 5) AND (${names.join(' OR ')})`,
      );
    }
    if (lasts.length) {
      const last = param(lasts);
      if (firsts.length)
        conditions.push(`lower(p.last_name) = ANY(${last}) AND lower(p.first_name) = ANY(${param(firsts)})`);
      conditions.push(`lower(p.last_name) = ANY(${last})`);
    }
    if (conditions.length === 0) {
      results.push({ index, match: null, confidence: 0, reasons: { agreed: [], disagreed: [] }, runnersUp: [] });
      continue;
    }
    const found = await db.query<Candidate>(
      conditions
        .map((condition) => `(SELECT ${columns} FROM people p WHERE ${condition} LIMIT ${CANDIDATES_PER_KEY})`)
        .join(' UNION ALL '),
      params,
    );
    const contacts = new Set<string>();
    if (found.rows.length && (keys.email || keys.phoneDigits)) {
      const points = await db.query<{ person_id: string; value: string; kind: string }>(
        `SELECT person_id::text, value, kind FROM person_contacts WHERE person_id = ANY($1::bigint[])`,
        [found.rows.map((r) => r.id)],
      );
      for (const point of points.rows) {
        contacts.add(
          `${point.person_id}:${point.kind === 'phone' ? point.value.replace(/\D/g, '') : point.value.toLowerCase()}`,
        );
      }
    }
    const ranked = rankCandidates(
      found.rows.map((candidate) => ({ candidate, evidence: weigh(row, keys, candidate, contacts) })),
      (candidate) => candidate.id,
    );
    results.push(confidenceOf(index, ranked, (candidate) => toProfileRecord(candidate, {}), summary));
  }
  return results;
}
