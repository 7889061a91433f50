import type { Queryable } from '../../store/db.js';
import type { ContactTypes, PersonForLookup } from '../ports/contact-providers.js';
import { profileUrlOf } from '../network-urls.js';
import type { WaterfallResult } from './waterfall.js';
import type { DbDeps, ServicesDeps } from '../deps.js';

/** What one person's reveal produced: validated values, best first, at most 5 per type. */
export interface RevealedContacts {
  workEmails: string[];
  personalEmails: string[];
  phoneNumbers: string[];
}

/** People per waterfall pass: keeps each provider request and the memory of one pass bounded. */
const chunkSize = 500;

/**
 * Reveals contact details of catalog people, for audience enrichment and any other caller
 * that pays for contacts its own way: this function charges NOTHING and records nothing.
 *
 * - `personIds`: catalog ids (`people.id`); duplicates are looked up once.
 * - `types`: the API's enrichmentType flags; only those types are looked up and returned
 *   (the others come back as empty arrays).
 * - Returns one entry per id that exists in the catalog; ids not in the catalog are absent
 *   from the map. An empty array means the type was not found (or was not asked for).
 * - Each type is looked up through the provider waterfall (dataset → HTTP vendor when
 *   configured → work-email pattern guess) until a provider has a valid value, and every
 *   value has passed validation (syntax; the email domain can receive mail). Emails are
 *   lowercased; phone numbers are E.164 when the country code is known.
 * - Price with `contactTypePrices` (operations/contacts/reveal-contact-sync/definition.ts): a type counts
 *   as found when its array is non-empty.
 * - A provider outage does not throw: the affected types simply come back empty (use
 *   `revealContactDetails` to tell "none" from "could not ask"). Database errors do throw.
 * - Work: one catalog query and at most one request per provider per 500 people.
 */
export async function revealContacts(
  context: DbDeps & ServicesDeps<'contactWaterfall'>,
  personIds: readonly number[],
  types: ContactTypes,
  options: { signal?: AbortSignal } = {},
): Promise<Map<number, RevealedContacts>> {
  const detailed = await revealContactDetails(context, personIds, types, options);
  const plain = new Map<number, RevealedContacts>();
  for (const [id, result] of detailed) {
    plain.set(id, {
      workEmails: result.workEmails.map((c) => c.value),
      personalEmails: result.personalEmails.map((c) => c.value),
      phoneNumbers: result.phoneNumbers.map((c) => c.value),
    });
  }
  return plain;
}

/** As `revealContacts`, with each value's provider and confidence, and the providers that failed per person. */
export async function revealContactDetails(
  context: DbDeps & ServicesDeps<'contactWaterfall'>,
  personIds: readonly number[],
  types: ContactTypes,
  options: { signal?: AbortSignal } = {},
): Promise<Map<number, WaterfallResult>> {
  const { contactWaterfall } = context.services;
  const unique = [...new Set(personIds)];
  const results = new Map<number, WaterfallResult>();
  for (let start = 0; start < unique.length; start += chunkSize) {
    const people = await loadPeopleForLookup(context.db.pool, unique.slice(start, start + chunkSize));
    const chunk = await contactWaterfall.reveal(people, types, options.signal);
    for (const [id, result] of chunk) results.set(id, result);
  }
  return results;
}

export async function loadPeopleForLookup(db: Queryable, personIds: readonly number[]): Promise<PersonForLookup[]> {
  if (personIds.length === 0) return [];
  const rows = await db.query<{
    id: number;
    first_name: string;
    last_name: string;
    company_name: string | null;
    company_domain: string | null;
    network_slug: string | null;
  }>(
    `SELECT id, first_name, last_name, company_name, company_domain, network_slug FROM people WHERE id = ANY($1::bigint[]) ORDER BY id`,
    [personIds],
  );
  return rows.rows.map((r) => ({
    id: r.id,
    firstName: r.first_name,
    lastName: r.last_name,
    companyName: r.company_name,
    companyDomain: r.company_domain?.toLowerCase() ?? null,
    networkSlug: r.network_slug,
    profileUrl: profileUrlOf(r.network_slug),
  }));
}
