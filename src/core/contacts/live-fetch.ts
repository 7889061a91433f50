import type { CompanyRecord, ProfileRecord } from '../../../operations/schemas/records.js';
import type { Principal } from '../principal.js';
import type { DbConfigDeps, LogDeps, ServicesDeps } from '../deps.js';
import { AppError } from '../../errors.js';
import type { Queryable } from '../../store/db.js';
import type { Logger } from '../../log.js';
import { NetworkSourceError, type CompanyRef, type NetworkSource, type ProfileRef } from '../ports/network-source.js';
import { charge, getBalance, requestEntry, type ChargeOrigin } from '../credits.js';
import { toCompanyRecord, toProfileRecord, type ProfileDetailOptions } from '../search/records.js';
import {
  companyRowFromLive,
  findStoredCompany,
  findStoredProfile,
  profileRowFromLive,
  refreshCompany,
  refreshProfile,
} from './live-records.js';
import { parseCompanyIdentifier, parsePersonIdentifier, type CompanyIdentifierType } from './identifiers.js';

/**
 * Live enrichment: fetch one company or profile from the professional network, store the
 * fresh data in the catalog and charge for it; when the live fetch fails, answer from the
 * catalog for free. The price of a live fetch (2 credits) is charged in the same transaction
 * that stores the refreshed record, so neither happens without the other.
 */
export const liveFetchPrice = 2;
const liveMessage = `Live data: ${liveFetchPrice} credits charged.`;

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
  // Unknown to the catalog: a numeric reference asks the network by id, not as a slug made of digits.
  const liveRef: CompanyRef = stored
    ? { slug: stored.network_primary_slug, orgId: stored.network_org_id }
    : ref.orgId
      ? { orgId: ref.orgId }
      : ref;
  const outcome = await chargedFetch(context, principal, origin, log, {
    ref: liveRef.slug || liveRef.orgId,
    fetch: (source, signal) => source.fetchCompany(liveRef, signal),
    entry: ['liveEnrichCompany', 'live company fetch'],
    store: async (tx, live) =>
      stored
        ? toCompanyRecord(await refreshCompany(tx, stored, live))
        : { ...toCompanyRecord(companyRowFromLive(live)), last_sort_key: '' },
  });
  if (outcome.status === 'live') {
    return {
      found: true,
      source: 'live',
      fetchedAt: new Date().toISOString(),
      company: outcome.data,
      creditsCharged: liveFetchPrice,
      message: liveMessage,
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
  const liveRef: ProfileRef = stored
    ? { slug: stored.network_slug, userId: stored.network_user_id }
    : ref.userId
      ? { userId: ref.userId }
      : ref;
  const outcome = await chargedFetch(context, principal, origin, log, {
    ref: liveRef.slug || liveRef.userId,
    fetch: (source, signal) => source.fetchProfile(liveRef, signal),
    entry: ['liveEnrichPerson', 'live profile fetch'],
    store: async (tx, live) =>
      stored
        ? toProfileRecord(await refreshProfile(tx, stored.id, live), details)
        : { ...toProfileRecord(profileRowFromLive(live), details), last_sort_key: '' },
  });
  if (outcome.status === 'live') {
    return {
      found: true,
      source: 'live',
      fetchedAt: new Date().toISOString(),
      profile: outcome.data,
      creditsCharged: liveFetchPrice,
      message: liveMessage,
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
  const ref: CompanyRef = { slug: stored.network_primary_slug, orgId: stored.network_org_id };
  return storeFromNetwork(
    context,
    log,
    signal,
    ref.slug || ref.orgId,
    (source, s) => source.fetchCompany(ref, s),
    (live) => refreshCompany(context.db.pool, stored, live),
  );
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
  const ref: ProfileRef = { slug: stored.network_slug, userId: stored.network_user_id };
  return storeFromNetwork(
    context,
    log,
    signal,
    ref.slug || ref.userId,
    (source, s) => source.fetchProfile(ref, s),
    (live) => refreshProfile(context.db.pool, personId, live),
  );
}

/** The uncharged refresh both kinds share: true when live data came and was stored. */
async function storeFromNetwork<Live>(
  context: LiveFetchDeps,
  log: Logger,
  signal: AbortSignal | undefined,
  ref: unknown,
  fetch: (source: NetworkSource, signal: AbortSignal) => Promise<Live | null>,
  store: (live: Live) => Promise<unknown>,
): Promise<boolean> {
  const { networkSource } = context.services;
  const outcome = await fetchLive(context, log, networkSource, (s) => fetch(networkSource, s), ref, signal);
  // A caller that gave up (a job stopping) hears so, rather than "nothing new".
  signal?.throwIfAborted();
  if (outcome.status !== 'live') return false;
  await store(outcome.data);
  return true;
}

/**
 * What a live fetch of a company and of a profile share: the balance is checked before the network
 * is asked, and live data is charged for in the transaction that stores it, so neither happens
 * without the other. `live` carries the record as stored; the other outcomes charged nothing.
 */
async function chargedFetch<Live, Stored>(
  context: LiveFetchDeps,
  principal: Principal,
  origin: ChargeOrigin,
  log: Logger,
  fetch: {
    /** The network's reference; none (empty) means there is nothing to ask for. */
    ref: unknown;
    fetch: (source: NetworkSource, signal: AbortSignal) => Promise<Live | null>;
    /** The ledger entry's unit and reason. */
    entry: [unit: string, reason: string];
    store: (tx: Queryable, live: Live) => Promise<Stored>;
  },
): Promise<LiveOutcome<Stored>> {
  await requireLiveFetchBalance(context, principal);
  const { networkSource } = context.services;
  const outcome = await fetchLive(
    context,
    log,
    networkSource,
    (signal) => fetch.fetch(networkSource, signal),
    fetch.ref,
  );
  if (outcome.status !== 'live') return outcome;
  const data = await context.db.transaction(async (tx) => {
    await charge(tx, principal.accountId, liveFetchPrice, requestEntry(origin, ...fetch.entry));
    return fetch.store(tx, outcome.data);
  });
  return { status: 'live', data };
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
