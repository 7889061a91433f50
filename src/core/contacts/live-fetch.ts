import type { CompanyRecord, ProfileRecord } from '../../../operations/schemas/records.js';
import type { Principal } from '../keys.js';
import type { DbConfigDeps, LogDeps, ServicesDeps } from '../deps.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../log.js';
import {
  NetworkSourceError,
  type CompanyRef,
  type LiveCompany,
  type LiveProfile,
  type NetworkSource,
  type ProfileRef,
} from '../ports/network-source.js';
import { alpha3FromAlpha2 } from '../../../reference/iso-countries.js';
import type { Queryable } from '../../store/db.js';
import { charge, getBalance, requestEntry, type ChargeOrigin } from '../credits.js';
import { tldOf } from '../network-urls.js';
import {
  companyColumns,
  profileColumns,
  toCompanyRecord,
  toProfileRecord,
  type CompanyRow,
  type ProfileDetailOptions,
  type ProfileRow,
} from '../search/records.js';
import { parseCompanyIdentifier, parsePersonIdentifier, type CompanyIdentifierType } from './identifiers.js';

/**
 * Live enrichment: fetch one company or profile from the professional network, store the
 * fresh data in the catalog and charge for it; when the live fetch fails, answer from the
 * catalog for free. The price of a live fetch (2 credits) is charged in the same transaction
 * that stores the refreshed record, so neither happens without the other.
 */
export const liveFetchPrice = 2;

export interface LiveCompanyResult {
  found: true;
  source: 'live' | 'stored';
  fetchedAt: string;
  company: CompanyRecord;
  creditsCharged: number;
  message: string;
}

export interface LiveProfileResult {
  found: boolean;
  source: 'live' | 'stored' | null;
  fetchedAt: string;
  profile: ProfileRecord | null;
  creditsCharged: number;
  message: string;
}

type LiveOutcome<T> = { status: 'live'; data: T } | { status: 'absent' } | { status: 'failed'; reason: string };

interface StoredCompanyRow extends CompanyRow {
  tlds: string[];
  fetched_at: Date;
}

interface StoredProfileRow extends ProfileRow {
  network_user_id: number | null;
  fetched_at: Date;
}

/** What refreshing catalog records from the network needs: less than a whole context, so the audience source can be built before it. */
export type LiveFetchDeps = DbConfigDeps & LogDeps & ServicesDeps<'networkSource'>;

export async function liveFetchCompany(
  context: LiveFetchDeps,
  principal: Principal,
  input: { type: CompanyIdentifierType; value: string },
  origin: ChargeOrigin,
  log: Logger,
): Promise<LiveCompanyResult> {
  const ref = parseCompanyIdentifier(input.type, input.value);
  const stored = await findStoredCompany(context.db.pool, ref);
  await requireLiveFetchBalance(context, principal);
  // Unknown to the catalog: a numeric reference asks the network by id, not as a slug made of digits.
  const liveRef: CompanyRef = stored
    ? { slug: stored.network_primary_slug, orgId: stored.network_org_id }
    : ref.orgId
      ? { orgId: ref.orgId }
      : ref;
  const { networkSource } = context.services;
  const outcome = await fetchLive(
    context,
    log,
    networkSource,
    (signal) => networkSource.fetchCompany(liveRef, signal),
    liveRef.slug || liveRef.orgId,
  );

  if (outcome.status === 'live') {
    const live = outcome.data;
    const record = await context.db.transaction(async (tx) => {
      await charge(
        tx,
        principal.accountId,
        liveFetchPrice,
        requestEntry(origin, 'liveEnrichCompany', 'live company fetch'),
      );
      if (!stored) return { ...toCompanyRecord(companyRowFromLive(live)), last_sort_key: '' };
      return toCompanyRecord(await refreshCompany(tx, stored, live));
    });
    return {
      found: true,
      source: 'live',
      fetchedAt: new Date().toISOString(),
      company: record,
      creditsCharged: liveFetchPrice,
      message: `Live data: ${liveFetchPrice} credits charged.`,
    };
  }
  if (!stored) {
    const why =
      outcome.status === 'failed'
        ? ' The live fetch failed and no stored record exists; retrying later may find it.'
        : '';
    throw new AppError('not_found', `Company not found for ${input.type} "${input.value}".${why}`, {
      details: {
        type: input.type,
        value: input.value,
        liveFetch: outcome.status === 'failed' ? 'failed' : 'not_found',
      },
    });
  }
  return {
    found: true,
    source: 'stored',
    fetchedAt: stored.fetched_at.toISOString(),
    company: toCompanyRecord(stored),
    creditsCharged: 0,
    message: storedMessage(outcome),
  };
}

export async function liveFetchProfile(
  context: LiveFetchDeps,
  principal: Principal,
  input: { identifier: string } & ProfileDetailOptions,
  origin: ChargeOrigin,
  log: Logger,
): Promise<LiveProfileResult> {
  const ref = parsePersonIdentifier(input.identifier, 'identifier');
  const details: ProfileDetailOptions = {
    getDetailedEducation: input.getDetailedEducation,
    getDetailedWorkExperience: input.getDetailedWorkExperience,
  };
  const stored = await findStoredProfile(context.db.pool, ref);
  await requireLiveFetchBalance(context, principal);
  const liveRef: ProfileRef = stored
    ? { slug: stored.network_slug, userId: stored.network_user_id }
    : ref.userId
      ? { userId: ref.userId }
      : ref;
  const { networkSource } = context.services;
  const outcome = await fetchLive(
    context,
    log,
    networkSource,
    (signal) => networkSource.fetchProfile(liveRef, signal),
    liveRef.slug || liveRef.userId,
  );

  if (outcome.status === 'live') {
    const live = outcome.data;
    const record = await context.db.transaction(async (tx) => {
      await charge(
        tx,
        principal.accountId,
        liveFetchPrice,
        requestEntry(origin, 'liveEnrichPerson', 'live profile fetch'),
      );
      if (!stored) return { ...toProfileRecord(profileRowFromLive(live), details), last_sort_key: '' };
      return toProfileRecord(await refreshProfile(tx, stored.id, live), details);
    });
    return {
      found: true,
      source: 'live',
      fetchedAt: new Date().toISOString(),
      profile: record,
      creditsCharged: liveFetchPrice,
      message: `Live data: ${liveFetchPrice} credits charged.`,
    };
  }
  if (!stored) {
    return {
      found: false,
      source: null,
      fetchedAt: new Date().toISOString(),
      profile: null,
      creditsCharged: 0,
      message:
        outcome.status === 'failed'
          ? 'The live fetch failed and no stored profile exists; nothing was charged. Retrying later may find it.'
          : 'No such profile on the network or in stored data; nothing was charged.',
    };
  }
  return {
    found: true,
    source: 'stored',
    fetchedAt: stored.fetched_at.toISOString(),
    profile: toProfileRecord(stored, details),
    creditsCharged: 0,
    message: storedMessage(outcome),
  };
}

/**
 * Refreshes one catalog company from the network without charging anyone: for callers that
 * priced the work themselves (audience enrichment charges upfront). True when live data was
 * stored; false when the network had nothing or failed, and the stored record stands.
 */
export async function refreshCompanyFromNetwork(
  context: LiveFetchDeps,
  companyId: number,
  log: Logger,
  signal?: AbortSignal,
): Promise<boolean> {
  const stored = await findStoredCompany(context.db.pool, { serviceId: companyId });
  if (!stored) return false;
  const { networkSource } = context.services;
  const ref: CompanyRef = { slug: stored.network_primary_slug, orgId: stored.network_org_id };
  const outcome = await fetchLive(
    context,
    log,
    networkSource,
    (s) => networkSource.fetchCompany(ref, s),
    ref.slug || ref.orgId,
    signal,
  );
  // A caller that gave up (a job stopping) hears so, rather than "nothing new".
  signal?.throwIfAborted();
  if (outcome.status !== 'live') return false;
  await refreshCompany(context.db.pool, stored, outcome.data);
  return true;
}

/** As refreshCompanyFromNetwork, for one catalog person. */
export async function refreshPersonFromNetwork(
  context: LiveFetchDeps,
  personId: number,
  log: Logger,
  signal?: AbortSignal,
): Promise<boolean> {
  const row = await context.db.pool.query<{ network_slug: string | null; network_user_id: number | null }>(
    'SELECT network_slug, network_user_id FROM people WHERE id = $1',
    [personId],
  );
  const stored = row.rows[0];
  if (!stored) return false;
  const { networkSource } = context.services;
  const ref: ProfileRef = { slug: stored.network_slug, userId: stored.network_user_id };
  const outcome = await fetchLive(
    context,
    log,
    networkSource,
    (s) => networkSource.fetchProfile(ref, s),
    ref.slug || ref.userId,
    signal,
  );
  signal?.throwIfAborted();
  if (outcome.status !== 'live') return false;
  await refreshProfile(context.db.pool, personId, outcome.data);
  return true;
}

function storedMessage(outcome: LiveOutcome<unknown>): string {
  return outcome.status === 'failed'
    ? 'The live fetch failed: stored data returned, nothing charged.'
    : 'Not found on the network now: stored data returned, nothing charged.';
}

/** A refusal before the network is asked when the balance cannot pay for a successful fetch: a caller who cannot pay should not wait for one. */
async function requireLiveFetchBalance(context: LiveFetchDeps, principal: Principal): Promise<void> {
  const balance = await getBalance(context.db.pool, principal.accountId);
  if (balance < liveFetchPrice) {
    throw new AppError(
      'insufficient_credits',
      `A live fetch needs ${liveFetchPrice} credits and the balance is ${balance}. Nothing was charged.`,
      {
        details: { required: liveFetchPrice, balance },
      },
    );
  }
}

/**
 * Runs one fetch under NETWORK_SOURCE_TIMEOUT_MS whatever the adapter does with its signal,
 * and reduces every way it can go wrong to "failed": the caller then answers from stored data.
 */
async function fetchLive<T>(
  context: Pick<DbConfigDeps, 'config'>,
  log: Logger,
  source: NetworkSource,
  fetch: (signal: AbortSignal) => Promise<T | null>,
  ref: unknown,
  callerSignal?: AbortSignal,
): Promise<LiveOutcome<T>> {
  if (!ref) return { status: 'absent' };
  const timeoutMs = context.config.NETWORK_SOURCE_TIMEOUT_MS;
  const controller = new AbortController();
  const forwardAbort = () => controller.abort();
  if (callerSignal?.aborted) controller.abort();
  // Removed again below: a job's signal outlives thousands of fetches.
  callerSignal?.addEventListener('abort', forwardAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new NetworkSourceError('timeout', `no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    const data = await Promise.race([fetch(controller.signal), deadline]);
    return data === null ? { status: 'absent' } : { status: 'live', data };
  } catch (error) {
    const reason = (error as Error).message;
    if (error instanceof NetworkSourceError)
      log.warn({ source: source.name, kind: error.kind, reason }, 'live fetch failed; answering from stored data');
    else
      log.error(
        { source: source.name, err: error },
        'live fetch raised an unexpected error; answering from stored data',
      );
    return { status: 'failed', reason };
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', forwardAbort);
  }
}

async function findStoredCompany(
  db: Queryable,
  ref: CompanyRef & { serviceId?: number },
): Promise<StoredCompanyRow | undefined> {
  const select = `SELECT ${companyColumns}, c.tlds, coalesce(c.live_fetched_at, c.updated_at) AS fetched_at FROM companies c`;
  if (ref.orgId) {
    const byOrg = await db.query<StoredCompanyRow>(`${select} WHERE c.network_org_id = $1 ORDER BY c.id LIMIT 1`, [
      ref.orgId,
    ]);
    if (byOrg.rows[0]) return byOrg.rows[0];
  }
  if (ref.slug) {
    const bySlug = await db.query<StoredCompanyRow>(
      `${select} WHERE c.network_primary_slug = $1 ORDER BY c.id LIMIT 1`,
      [ref.slug],
    );
    if (bySlug.rows[0]) return bySlug.rows[0];
  }
  if (ref.serviceId) {
    const byId = await db.query<StoredCompanyRow>(`${select} WHERE c.id = $1`, [ref.serviceId]);
    return byId.rows[0];
  }
  return undefined;
}

async function findStoredProfile(db: Queryable, ref: ProfileRef): Promise<StoredProfileRow | undefined> {
  const select = `SELECT ${profileColumns({ getDetailedEducation: true, getDetailedWorkExperience: true })}, p.network_user_id,
    coalesce(p.live_fetched_at, p.updated_at) AS fetched_at FROM people p`;
  if (ref.userId) {
    const byId = await db.query<StoredProfileRow>(`${select} WHERE p.network_user_id = $1 ORDER BY p.id LIMIT 1`, [
      ref.userId,
    ]);
    if (byId.rows[0]) return byId.rows[0];
  }
  if (ref.slug) {
    const bySlug = await db.query<StoredProfileRow>(`${select} WHERE p.network_slug = $1 ORDER BY p.id LIMIT 1`, [
      ref.slug,
    ]);
    return bySlug.rows[0];
  }
  return undefined;
}

/** Live values replace stored ones; what the network does not say (null, empty) leaves the stored value. */
async function refreshCompany(db: Queryable, stored: StoredCompanyRow, live: LiveCompany): Promise<CompanyRow> {
  // A company keeps its earlier domains (they still redirect); the live website comes first.
  const domains = [...new Set([...live.domains, ...stored.domains])];
  const tlds = [...new Set([...stored.tlds, ...live.domains.map(tldOf)])];
  const result = await db.query<CompanyRow>(
    `UPDATE companies c SET
       preferred_name = $2,
       description = coalesce($3, c.description),
       domains = $4,
       tlds = $5,
       network_primary_slug = coalesce($6, c.network_primary_slug),
       network_org_id = coalesce($7, c.network_org_id),
       standard_industries = CASE WHEN cardinality($8::text[]) > 0 THEN $8::text[] ELSE c.standard_industries END,
       employee_count_min = CASE WHEN $9::integer IS NULL THEN c.employee_count_min ELSE $9::integer END,
       employee_count_max = CASE WHEN $9::integer IS NULL THEN c.employee_count_max ELSE $10::integer END,
       city = coalesce($11, c.city),
       state_name = coalesce($12, c.state_name),
       country_code = coalesce($13, c.country_code),
       founded_on = coalesce($14::date, c.founded_on),
       updated_at = now(),
       live_fetched_at = now()
     WHERE c.id = $1
     RETURNING ${companyColumns}`,
    [
      stored.id,
      live.name,
      live.description,
      domains,
      tlds,
      live.slug,
      live.orgId,
      live.industries,
      live.employeeCountMin,
      live.employeeCountMax,
      live.city,
      live.stateName,
      live.countryCode,
      live.foundedOn,
    ],
  );
  return result.rows[0] as CompanyRow;
}

async function refreshProfile(db: Queryable, personId: number, live: LiveProfile): Promise<ProfileRow> {
  const company = live.currentCompany;
  const result = await db.query<ProfileRow>(
    `UPDATE people p SET
       first_name = $2,
       last_name = $3,
       title = $4,
       headline = $5,
       city = coalesce($6, p.city),
       country_code = coalesce($7, p.country_code),
       country3 = coalesce($8, p.country3),
       company_name = $9,
       company_slug = $10,
       company_domain = $11,
       company_id = CASE WHEN $10::text IS NOT DISTINCT FROM p.company_slug AND $9::text IS NOT DISTINCT FROM p.company_name THEN p.company_id
                         WHEN $10::text IS NULL THEN NULL
                         ELSE (SELECT c.id FROM companies c WHERE c.network_primary_slug = $10::text ORDER BY c.id LIMIT 1) END,
       network_slug = coalesce($12, p.network_slug),
       network_user_id = coalesce($13, p.network_user_id),
       languages = CASE WHEN jsonb_array_length($14::jsonb) > 0 THEN $14::jsonb ELSE p.languages END,
       education = CASE WHEN jsonb_array_length($15::jsonb) > 0 THEN $15::jsonb ELSE p.education END,
       degree_types = CASE WHEN jsonb_array_length($15::jsonb) > 0
         THEN ARRAY(SELECT DISTINCT e->>'degree_type' FROM jsonb_array_elements($15::jsonb) e WHERE e->>'degree_type' IS NOT NULL)
         ELSE p.degree_types END,
       schools = CASE WHEN jsonb_array_length($15::jsonb) > 0
         THEN ARRAY(SELECT DISTINCT e->>'school' FROM jsonb_array_elements($15::jsonb) e WHERE e->>'school' IS NOT NULL)
         ELSE p.schools END,
       work_experiences = CASE WHEN jsonb_array_length($16::jsonb) > 0 THEN $16::jsonb ELSE p.work_experiences END,
       updated_at = now(),
       live_fetched_at = now()
     WHERE p.id = $1
     RETURNING ${profileColumns({ getDetailedEducation: true, getDetailedWorkExperience: true })}`,
    [
      personId,
      live.firstName,
      live.lastName,
      live.title,
      live.headline,
      live.city,
      live.countryCode,
      live.countryCode ? (alpha3FromAlpha2(live.countryCode) ?? null) : null,
      company?.name ?? null,
      company?.slug ?? null,
      company?.domain ?? null,
      live.slug,
      live.userId,
      JSON.stringify(live.languages),
      JSON.stringify(live.education),
      JSON.stringify(live.workExperiences),
    ],
  );
  return result.rows[0] as ProfileRow;
}

/** A company the catalog does not hold: shown as the network has it, not stored (catalog ids come from imports). */
function companyRowFromLive(live: LiveCompany): CompanyRow {
  return {
    id: 0,
    preferred_name: live.name,
    description: live.description ?? '',
    domains: live.domains,
    network_primary_slug: live.slug,
    network_org_id: live.orgId,
    standard_industries: live.industries,
    employee_count_min: live.employeeCountMin,
    employee_count_max: live.employeeCountMax,
    city: live.city,
    state_name: live.stateName,
    country_code: live.countryCode,
    total_funding_usd: null,
    last_funding_usd: null,
    last_funded_on: null,
    founded_on: live.foundedOn,
    stage: null,
    special_flags: [],
  };
}

function profileRowFromLive(live: LiveProfile): ProfileRow {
  return {
    id: 0,
    first_name: live.firstName,
    last_name: live.lastName,
    title: live.title,
    headline: live.headline,
    city: live.city,
    country_code: live.countryCode,
    country3: live.countryCode ? (alpha3FromAlpha2(live.countryCode) ?? null) : null,
    company_name: live.currentCompany?.name ?? null,
    company_slug: live.currentCompany?.slug ?? null,
    company_domain: live.currentCompany?.domain ?? null,
    network_slug: live.slug,
    years_experience: null,
    tags: [],
    languages: live.languages,
    education: live.education,
    work_experiences: live.workExperiences,
  };
}
