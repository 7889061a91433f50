import type { PersonForLookup } from '../ports/contact-providers.js';
import type { EnrichmentTypeFlags } from './pricing.js';

/**
 * What audience enrichment needs from the outside world, as two small interfaces: a source of
 * contact points (emails, phones) and a live source of company and profile records. The
 * implementations over the contact-provider waterfall and the network source are in
 * src/core/contacts/audience-sources.ts; tests register failing ones on the context.
 */

export interface FoundContacts {
  workEmails: string[];
  personalEmails: string[];
  phoneNumbers: string[];
}

export interface AudienceContactSource {
  readonly name: string;
  /** Contacts of the types asked, per person id; a person missing from the map found nothing. Throws when the lookup itself failed. */
  lookup(
    people: readonly PersonForLookup[],
    types: EnrichmentTypeFlags,
    signal?: AbortSignal,
  ): Promise<Map<number, FoundContacts>>;
}

export interface AudienceLiveSource {
  readonly name: string;
  /** Refreshes the catalog record from the live network: true when live data was applied, false when the stored record stands. */
  refreshCompany(companyId: number, signal?: AbortSignal): Promise<boolean>;
  refreshPerson(personId: number, signal?: AbortSignal): Promise<boolean>;
}
