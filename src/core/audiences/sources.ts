import type { Queryable } from '../../store/db.js';
import type { EnrichmentTypeFlags } from './pricing.js';

/**
 * What audience enrichment needs from the outside world, as two small interfaces: a source of
 * contact points (emails, phones) and a live source of company and profile records.
 */

export interface ContactPerson {
  id: number;
  firstName: string;
  lastName: string;
  companyName: string | null;
  companyDomain: string | null;
  networkSlug: string | null;
  profileUrl: string | null;
}

export interface FoundContacts {
  workEmails: string[];
  personalEmails: string[];
  phoneNumbers: string[];
}

export interface AudienceContactSource {
  readonly name: string;
  /** Contacts of the types asked, per person id; a person missing from the map found nothing. Throws when the lookup itself failed. */
  lookup(people: readonly ContactPerson[], types: EnrichmentTypeFlags, signal?: AbortSignal): Promise<Map<number, FoundContacts>>;
}

export interface AudienceLiveSource {
  readonly name: string;
  /** Refreshes the catalog record from the live network: true when live data was applied, false when the stored record stands. */
  refreshCompany(companyId: number, signal?: AbortSignal): Promise<boolean>;
  refreshPerson(personId: number, signal?: AbortSignal): Promise<boolean>;
}

const kindColumn = { workEmails: 'work_email', personalEmails: 'personal_email', phoneNumbers: 'phone' } as const;

/** The contact points stored in the dataset (`person_contacts`): one query per batch of people. */
export function datasetContactSource(db: Queryable): AudienceContactSource {
  return {
    name: 'dataset',
    async lookup(people, types) {
      const kinds = (Object.keys(kindColumn) as Array<keyof FoundContacts>).filter(
        (kind) => types[({ workEmails: 'getWorkEmails', personalEmails: 'getPersonalEmails', phoneNumbers: 'getPhoneNumbers' } as const)[kind]],
      );
      const found = new Map<number, FoundContacts>();
      if (people.length === 0 || kinds.length === 0) return found;
      const rows = await db.query<{ person_id: number; kind: string; value: string }>(
        `SELECT person_id, kind, value FROM person_contacts
          WHERE person_id = ANY($1::bigint[]) AND kind = ANY($2::text[]) ORDER BY person_id, kind, value`,
        [people.map((p) => p.id), kinds.map((k) => kindColumn[k])],
      );
      for (const row of rows.rows) {
        const kind = kinds.find((k) => kindColumn[k] === row.kind);
        if (!kind) continue;
        let entry = found.get(row.person_id);
        if (!entry) found.set(row.person_id, (entry = { workEmails: [], personalEmails: [], phoneNumbers: [] }));
        entry[kind].push(row.value);
      }
      return found;
    },
  };
}

/** When no live network source is configured: every record is served from stored data (and refunded). */
export const storedDataOnly: AudienceLiveSource = {
  name: 'stored-data-only',
  refreshCompany: async () => false,
  refreshPerson: async () => false,
};

/** Format checks of the validation step: what cannot be an address or a dialable number is dropped. */
export function isPlausibleContact(kind: keyof FoundContacts, value: string): boolean {
  if (kind === 'phoneNumbers') {
    const digits = value.replace(/\D/g, '');
    return /^\+?[\d\s().-]+$/.test(value.trim()) && digits.length >= 7 && digits.length <= 15;
  }
  return /^[^\s@,;<>"]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,}$/i.test(value.trim()) && value.length <= 254;
}
