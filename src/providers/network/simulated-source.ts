import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { QueryResultRow } from 'pg';
import type { Queryable } from '../../store/db.js';
import type { CompanyMaintainedColumns, CompanyRow as StoredCompanyRow } from '../../store/tables/companies.js';
import type { PersonMaintainedColumns, PersonRow } from '../../store/tables/people.js';
import {
  NetworkSourceError,
  type CompanyRef,
  type LiveCompany,
  type LiveFundingRound,
  type WorkExperienceEntry,
  type LiveProfile,
  type NetworkSource,
  type ProfileRef,
} from '../../core/ports/network-source.js';

export interface SimulatedNetworkOptions {
  /** Share of fetches that fail, 0 to 1. */
  failureRate: number;
  /** Delay of each fetch, as a real network round trip has. */
  latencyMs: number;
  /** Replaceable for tests that need a particular failure sequence or day. */
  random?: () => number;
  now?: () => Date;
}

const dayMs = 86_400_000;

/**
 * The embedded default of the network source, for running without a network: the "network" is
 * the stored catalog as it would look now. A stored record was true when it was last written
 * (`updated_at`: the seed, an import, a live refresh); each UTC day since then, deterministically
 * from its id and the day, a little happens to it, as it does in the trade each month: a share of
 * people move to another company (some of them to its city) or are promoted; companies grow or
 * shrink a few percent a month (crossing a headcount band now and then), and a share raise a
 * round, move their headquarters or rename. The same call at the same time gives the same
 * answer; once the caller stores the refreshed record, the network has nothing newer to say until
 * the next day. Time is the caller's clock (`now`: the network clock, which runs fast with
 * NETWORK_SIMULATION_DAYS_PER_SECOND). Failures and latency are simulated as configured.
 */
export class SimulatedNetworkSource implements NetworkSource {
  readonly name = 'simulated';
  private readonly random: () => number;
  private readonly now: () => Date;
  private companyIdSpan: Promise<number> | null = null;

  constructor(
    private readonly db: Queryable,
    private readonly options: SimulatedNetworkOptions,
  ) {
    this.random = options.random ?? Math.random;
    this.now = options.now ?? (() => new Date());
  }

  async fetchCompany(ref: CompanyRef, signal?: AbortSignal): Promise<LiveCompany | null> {
    await this.roundTrip(signal);
    const row = await this.findCompany(ref);
    if (!row) return null;
    const company: LiveCompany = {
      slug: row.network_primary_slug,
      orgId: row.network_org_id,
      name: row.preferred_name,
      description: row.description,
      domains: row.domains,
      industries: row.standard_industries,
      employeeCountMin: row.employee_count_min,
      employeeCountMax: row.employee_count_max,
      city: row.city,
      stateName: row.state_name,
      countryCode: row.country_code,
      foundedOn: row.founded_on,
      latestFunding:
        row.stage || row.last_funding_usd
          ? { stage: row.stage, amountUsd: row.last_funding_usd, announcedOn: row.last_funded_on }
          : null,
    };
    const days = this.daysSince(row.updated_at);
    if (days.length === 0) return company;
    const drifted = driftHeadcount(row.id, row.employee_count_min, row.employee_count_max, days.length);
    company.employeeCountMin = drifted.min;
    company.employeeCountMax = drifted.max;
    for (const day of days) {
      const roll = unitHash(`company-event:${row.id}:${day}`);
      if (roll < monthlyShare.fundingRound / 30) {
        company.latestFunding = nextRound(row.id, company.latestFunding ?? null, day);
      } else if (roll < (monthlyShare.fundingRound + monthlyShare.companyMove) / 30) {
        const elsewhere = await this.someCompany(`company-move:${row.id}:${day}`);
        if (elsewhere && elsewhere.city !== company.city) {
          company.city = elsewhere.city;
          company.stateName = elsewhere.state_name;
          company.countryCode = elsewhere.country_code;
        }
      } else if (roll < (monthlyShare.fundingRound + monthlyShare.companyMove + monthlyShare.rename) / 30) {
        company.name = renamed(company.name, day);
      }
    }
    return company;
  }

  async fetchProfile(ref: ProfileRef, signal?: AbortSignal): Promise<LiveProfile | null> {
    await this.roundTrip(signal);
    const row = await this.findProfile(ref);
    if (!row) return null;
    const profile: LiveProfile = {
      slug: row.network_slug,
      userId: row.network_user_id,
      firstName: row.first_name,
      lastName: row.last_name,
      title: row.title,
      headline: row.headline,
      city: row.city,
      countryCode: row.country_code,
      currentCompany:
        row.company_name || row.company_slug
          ? { name: row.company_name, slug: row.company_slug, domain: row.company_domain }
          : null,
      languages: row.languages,
      education: row.education,
      workExperiences: row.work_experiences,
    };
    for (const day of this.daysSince(row.updated_at)) {
      const roll = unitHash(`person-event:${row.id}:${day}`);
      const date = new Date(day * dayMs).toISOString().slice(0, 10);
      if (roll < monthlyShare.jobChange / 30) {
        const next = await this.someCompany(`job-change:${row.id}:${day}`);
        if (!next || next.network_primary_slug === profile.currentCompany?.slug) continue;
        const company = { name: next.preferred_name, slug: next.network_primary_slug, domain: next.domains[0] ?? null };
        profile.currentCompany = company;
        // Some take a step up with the move; some move to the new company's city.
        if (unitHash(`job-change-title:${row.id}:${day}`) < 0.4)
          profile.title = promotedTitle(profile.title) ?? profile.title;
        if (next.city && unitHash(`job-change-city:${row.id}:${day}`) < 0.4) {
          profile.city = next.city;
          profile.countryCode = next.country_code;
        }
        profile.workExperiences = startPosition(profile.workExperiences, date, {
          company_name: company.name,
          company_slug: company.slug,
          company_domain: company.domain,
          title: profile.title,
        });
      } else if (roll < (monthlyShare.jobChange + monthlyShare.promotion) / 30) {
        const promoted = promotedTitle(profile.title);
        if (!promoted) continue;
        profile.headline = profile.headline.includes(profile.title)
          ? profile.headline.replace(profile.title, promoted)
          : profile.headline;
        const current = profile.workExperiences.find((p) => p.is_current);
        profile.title = promoted;
        if (current)
          profile.workExperiences = startPosition(profile.workExperiences, date, { ...current, title: promoted });
      }
    }
    return profile;
  }

  private async roundTrip(signal: AbortSignal | undefined): Promise<void> {
    if (this.options.latencyMs > 0) {
      try {
        await sleep(this.options.latencyMs, undefined, { signal });
      } catch (error) {
        throw new NetworkSourceError('timeout', 'the simulated network did not answer in time', { cause: error });
      }
    }
    if (this.options.failureRate > 0 && this.random() < this.options.failureRate) {
      throw new NetworkSourceError('unavailable', 'simulated network outage (NETWORK_SOURCE_FAILURE_RATE)');
    }
  }

  /** The UTC days after the one a record was stored in, up to today, at most ten years of them. */
  private daysSince(storedAt: Date): number[] {
    const today = Math.floor(this.now().getTime() / dayMs);
    const first = Math.max(Math.floor(storedAt.getTime() / dayMs) + 1, today - 3650);
    return Array.from({ length: Math.max(0, today - first + 1) }, (_, i) => first + i);
  }

  /** A company picked by `key` among all (a new employer, a new headquarters' city). */
  private async someCompany(key: string): Promise<OtherCompany | undefined> {
    this.companyIdSpan ??= this.db
      .query<{ top: number | null }>('SELECT max(id) AS top FROM companies')
      .then((result) => result.rows[0]?.top ?? 0);
    const top = await this.companyIdSpan;
    if (top <= 0) return undefined;
    const found = await this.db.query<OtherCompany>(
      `SELECT preferred_name, network_primary_slug, domains, city, state_name, country_code FROM companies
        WHERE id >= $1 AND network_primary_slug IS NOT NULL ORDER BY id LIMIT 1`,
      [1 + Math.floor(unitHash(key) * top)],
    );
    return found.rows[0];
  }

  private findCompany(ref: CompanyRef): Promise<CompanyRow | undefined> {
    return this.firstMatch<CompanyRow>('companies', companyColumns, [
      ['network_primary_slug', ref.slug],
      ['network_org_id', ref.orgId],
    ]);
  }

  private findProfile(ref: ProfileRef): Promise<ProfileRow | undefined> {
    return this.firstMatch<ProfileRow>('people', profileColumns, [
      ['network_slug', ref.slug],
      ['network_user_id', ref.userId],
    ]);
  }

  /** The first row matching the first of the references given, tried in order (a slug before a numeric id). */
  private async firstMatch<Row extends QueryResultRow>(
    table: 'companies' | 'people',
    columns: readonly string[],
    references: [column: string, value: string | number | null | undefined][],
  ): Promise<Row | undefined> {
    for (const [column, value] of references) {
      if (!value) continue;
      const found = await this.db.query<Row>(
        `SELECT ${columns.join(', ')} FROM ${table} WHERE ${column} = $1 ORDER BY id LIMIT 1`,
        [value],
      );
      if (found.rows[0]) return found.rows[0];
    }
    return undefined;
  }
}

/**
 * What happens in a month, as a share of people or companies: roughly what the trade sees (about
 * one person in four changes employer in a year).
 */
const monthlyShare = {
  jobChange: 0.02,
  promotion: 0.015,
  fundingRound: 0.01,
  companyMove: 0.003,
  rename: 0.002,
};

interface OtherCompany {
  preferred_name: string;
  network_primary_slug: string | null;
  domains: string[];
  city: string | null;
  state_name: string | null;
  country_code: string | null;
}

/** Positions with the current one closed on `date` and `next` opened on it. */
function startPosition(
  positions: WorkExperienceEntry[],
  date: string,
  next: Pick<WorkExperienceEntry, 'company_name' | 'company_slug' | 'company_domain' | 'title'>,
): WorkExperienceEntry[] {
  return [
    { ...next, start_date: date, end_date: null, is_current: true },
    ...positions.map((p) => (p.is_current ? { ...p, end_date: date, is_current: false } : p)),
  ];
}

const fundingLadder = ['PRE_SEED', 'SEED', 'SERIES_A', 'SERIES_B', 'SERIES_C', 'LATE_STAGE'] as const;
/** Typical size of a round at each step, in millions of US dollars (low, high). */
const roundSizeMillions: Record<(typeof fundingLadder)[number], readonly [number, number]> = {
  PRE_SEED: [0.2, 1],
  SEED: [1, 4],
  SERIES_A: [5, 20],
  SERIES_B: [15, 60],
  SERIES_C: [30, 120],
  LATE_STAGE: [50, 300],
};

/** The round after `last`: the next step of the ladder (a late-stage company raises late-stage again). */
function nextRound(id: number, last: LiveFundingRound | null, day: number): LiveFundingRound {
  const at = fundingLadder.indexOf((last?.stage ?? '') as (typeof fundingLadder)[number]);
  const stage = fundingLadder[Math.min(at + 1, fundingLadder.length - 1)] as (typeof fundingLadder)[number];
  const [low, high] = roundSizeMillions[stage];
  const millions = low + (high - low) * unitHash(`round-size:${id}:${day}`);
  return {
    stage,
    amountUsd: Math.round(millions * 10) * 100_000,
    announcedOn: new Date(day * dayMs).toISOString().slice(0, 10),
  };
}

const renameSuffixes = ['Group', 'Labs', 'Technologies', 'Holdings', 'Global'];

/** A new name: a suffix added, or the one it has dropped. */
function renamed(name: string, day: number): string {
  const suffix = renameSuffixes.find((s) => name.endsWith(` ${s}`));
  if (suffix) return name.slice(0, -suffix.length - 1);
  return `${name} ${renameSuffixes[Math.floor(unitHash(`rename:${name}:${day}`) * renameSuffixes.length)]}`;
}

/** What the simulated network reads of a stored company. */
const companyColumns = [
  'id',
  'preferred_name',
  'description',
  'domains',
  'network_primary_slug',
  'network_org_id',
  'standard_industries',
  'employee_count_min',
  'employee_count_max',
  'city',
  'state_name',
  'country_code',
  'founded_on',
  'stage',
  'last_funding_usd',
  'last_funded_on',
  'updated_at',
] as const satisfies ReadonlyArray<keyof (StoredCompanyRow & CompanyMaintainedColumns)>;
type CompanyRow = Pick<StoredCompanyRow & CompanyMaintainedColumns, (typeof companyColumns)[number]>;

/** What the simulated network reads of a stored profile. */
const profileColumns = [
  'id',
  'first_name',
  'last_name',
  'title',
  'headline',
  'city',
  'country_code',
  'company_name',
  'company_slug',
  'company_domain',
  'network_slug',
  'network_user_id',
  'languages',
  'education',
  'work_experiences',
  'updated_at',
] as const satisfies ReadonlyArray<keyof (PersonRow & PersonMaintainedColumns)>;
type ProfileRow = Pick<PersonRow & PersonMaintainedColumns, Exclude<(typeof profileColumns)[number], 'languages'>> & {
  languages: LiveProfile['languages'];
};

/** A number in [0, 1) fixed by the text. */
function unitHash(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/** The headcount bands the network shows (the last one open-ended in reality). */
const headcountBands: ReadonlyArray<readonly [number, number]> = [
  [1, 10],
  [11, 50],
  [51, 200],
  [201, 500],
  [501, 1000],
  [1001, 5000],
  [5001, 10000],
  [10001, 1000000],
];

/**
 * The network shows headcount in bands. A company's actual headcount sits somewhere in its band
 * (fixed by its id) and grows or shrinks at a steady rate of its own (-2 % to +4 % a month, fixed
 * by its id) for the days since it was stored; when that crosses an edge, the band changes. A
 * range that is not a band (imported data) is scaled by the same growth.
 */
export function driftHeadcount(
  id: number,
  min: number | null,
  max: number | null,
  days: number,
): { min: number | null; max: number | null } {
  if (min === null || days <= 0) return { min, max };
  const monthly = -0.02 + 0.06 * unitHash(`company-growth:${id}`);
  const growth = Math.pow(1 + monthly, days / 30) - 1;
  const band = headcountBands.findIndex(([low, high]) => low === min && high === max);
  if (band < 0) {
    const scale = (n: number) => Math.max(1, Math.round(n * (1 + growth)));
    return { min: scale(min), max: max === null ? null : Math.max(scale(max), scale(min)) };
  }
  const [low, high] = headcountBands[band] as readonly [number, number];
  // Log-uniform within the band: small companies are more common than large ones at any size.
  const position = unitHash(`company-size:${id}`);
  const headcount = Math.round(
    Math.exp(Math.log(low) + position * (Math.log(Math.min(high, low * 10)) - Math.log(low))) * (1 + growth),
  );
  const next = headcountBands.find(([, top]) => headcount <= top) ?? headcountBands.at(-1);
  const [newLow, newHigh] = (headcount < 1 ? headcountBands[0] : next) as readonly [number, number];
  return { min: newLow, max: newHigh };
}

const topOfLadder =
  /^(lead|principal|staff|head|director|vp|vice president|chief|founder|co-founder|owner|partner|president|managing|c[etfomi]o\b)/i;

/** The next step up of a title, or null when there is no obvious next step. */
export function promotedTitle(title: string): string | null {
  const trimmed = title.trim();
  if (!trimmed) return null;
  if (/^(senior|sr\.?)\s+/i.test(trimmed)) return trimmed.replace(/^(senior|sr\.?)\s+/i, 'Lead ');
  if (topOfLadder.test(trimmed) || /\b(manager|director|head|officer)\b/i.test(trimmed)) return null;
  return `Senior ${trimmed}`;
}
