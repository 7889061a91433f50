/**
 * Contact-data providers: outside vendors (or our own dataset) that know the emails and phone
 * numbers of people. They are tried in order as a waterfall (see waterfall.ts).
 */

/** Which contact types to look for; the names are those of the API's enrichmentType. */
export interface ContactTypes {
  getWorkEmails: boolean;
  getPersonalEmails: boolean;
  getPhoneNumbers: boolean;
}

export type ContactKind = 'workEmails' | 'personalEmails' | 'phoneNumbers';

export const contactKinds: readonly ContactKind[] = ['workEmails', 'personalEmails', 'phoneNumbers'];

export const typeFlagOf: Record<ContactKind, keyof ContactTypes> = {
  workEmails: 'getWorkEmails',
  personalEmails: 'getPersonalEmails',
  phoneNumbers: 'getPhoneNumbers',
};

export function kindsOf(types: ContactTypes): ContactKind[] {
  return contactKinds.filter((kind) => types[typeFlagOf[kind]]);
}

export function typesOf(kinds: Iterable<ContactKind>): ContactTypes {
  const set = new Set(kinds);
  return {
    getWorkEmails: set.has('workEmails'),
    getPersonalEmails: set.has('personalEmails'),
    getPhoneNumbers: set.has('phoneNumbers'),
  };
}

/** What a provider is told about a person: enough to find them, nothing more. */
export interface PersonForLookup {
  /** Catalog id; providers answer keyed by it. */
  id: number;
  firstName: string;
  lastName: string;
  companyName: string | null;
  /** The current employer's domain, lowercase. */
  companyDomain: string | null;
  networkSlug: string | null;
  profileUrl: string | null;
}

/**
 * `high`: the provider has seen the value in use; `medium`: a vendor's match without proof;
 * `low`: derived (a guessed address pattern). Consumers may rank or filter by it.
 */
export type Confidence = 'high' | 'medium' | 'low';

export interface ContactPoint {
  value: string;
  confidence: Confidence;
  /** Name of the provider that supplied it. */
  provider: string;
}

export interface ContactFindings {
  workEmails: ContactPoint[];
  personalEmails: ContactPoint[];
  phoneNumbers: ContactPoint[];
}

export const emptyFindings = (): ContactFindings => ({ workEmails: [], personalEmails: [], phoneNumbers: [] });

export interface ContactProvider {
  readonly name: string;
  /**
   * Looks up many people at once (vendors price and throttle per request, and audience
   * enrichment asks for thousands). Answers only for the types asked; a person missing from
   * the map, or an empty list, means not found. Throws when the lookup itself failed.
   */
  lookup(
    people: readonly PersonForLookup[],
    types: ContactTypes,
    signal?: AbortSignal,
  ): Promise<Map<number, ContactFindings>>;
}
