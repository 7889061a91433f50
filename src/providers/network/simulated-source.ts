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
 * The embedded default of the network source, for running without a network: the "network"
 * is the stored catalog as it would look today. A record not refreshed since the start of the
 * current UTC day has drifted (headcount up or down a few percent; for some people a
 * promotion), deterministically from its id and the day, so the same call on the same day
 * gives the same answer. Once the caller stores the refreshed record, the network has nothing
 * newer to say until the next day. Failures and latency are simulated as configured.
 */
export class SimulatedNetworkSource implements NetworkSource {
  readonly name = 'simulated';
  private readonly random: () => number;
  private readonly now: () => Date;

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
    };
    if (this.refreshedToday(row.live_fetched_at)) return company;
    const drifted = driftHeadcount(row.id, row.employee_count_min, row.employee_count_max, this.day());
    company.employeeCountMin = drifted.min;
    company.employeeCountMax = drifted.max;
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
    if (this.refreshedToday(row.live_fetched_at)) return profile;
    const promoted = unitHash(`profile:${row.id}:${this.day()}`) < 0.25 ? promotedTitle(row.title) : null;
    if (!promoted) return profile;
    const today = this.now().toISOString().slice(0, 10);
    profile.title = promoted;
    profile.headline = row.headline.includes(row.title) ? row.headline.replace(row.title, promoted) : row.headline;
    const current = row.work_experiences.find((p) => p.is_current);
    if (current) {
      profile.workExperiences = [
        { ...current, title: promoted, start_date: today, end_date: null, is_current: true },
        ...row.work_experiences.map((p) => (p === current ? { ...p, end_date: today, is_current: false } : p)),
      ];
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

  private day(): number {
    return Math.floor(this.now().getTime() / dayMs);
  }

  private refreshedToday(at: Date | null): boolean {
    return at !== null && at.getTime() >= this.day() * dayMs;
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
  'live_fetched_at',
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
  'live_fetched_at',
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
 * The network shows headcount in bands. A company's actual headcount sits somewhere in its
 * band (fixed by its id) and grows or shrinks a few percent (-3 % to +8 %, by id and day); when
 * that crosses an edge, the band changes. A range that is not a band (imported data) is
 * scaled by the same growth.
 */
export function driftHeadcount(
  id: number,
  min: number | null,
  max: number | null,
  day: number,
): { min: number | null; max: number | null } {
  if (min === null) return { min, max };
  const growth = -0.03 + 0.11 * unitHash(`company:${id}:${day}`);
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
