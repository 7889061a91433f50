import type { Logger } from '../../log.js';
import {
  contactKinds,
  emptyFindings,
  kindsOf,
  typesOf,
  type ContactFindings,
  type ContactKind,
  type ContactProvider,
  type ContactTypes,
  type PersonForLookup,
} from '../ports/contact-providers.js';
import type { ContactValidator } from './validation.js';

export interface WaterfallResult extends ContactFindings {
  /** Providers that failed (threw) while this person still had a type to find. */
  failedProviders: string[];
  /** True when every provider asked about this person failed: an empty result then means "unknown", not "none". */
  unavailable: boolean;
}

/** At most this many values of one type are kept per person: the best ones, in provider order. */
const maxPerType = 5;

/**
 * Asks providers in order. For each person, a type is asked of the next provider only while
 * no earlier provider produced a valid value for it; each candidate passes the validation
 * step before it counts, so a provider's invalid answer lets the waterfall go on. A failing
 * provider is skipped (and reported), never fatal. When `signal` aborts, the provider being
 * asked is told (the HTTP provider aborts its request) and `reveal` throws the signal's reason.
 */
export class ContactWaterfall {
  constructor(
    readonly providers: readonly ContactProvider[],
    private readonly validator: ContactValidator,
    private readonly log?: Logger,
  ) {}

  async reveal(
    people: readonly PersonForLookup[],
    types: ContactTypes,
    signal?: AbortSignal,
  ): Promise<Map<number, WaterfallResult>> {
    const wanted = kindsOf(types);
    const results = new Map<number, WaterfallResult>();
    const missing = new Map<number, Set<ContactKind>>();
    const asked = new Map<number, number>();
    for (const person of people) {
      results.set(person.id, { ...emptyFindings(), failedProviders: [], unavailable: false });
      if (wanted.length) missing.set(person.id, new Set(wanted));
    }
    for (const provider of this.providers) {
      if (missing.size === 0) break;
      // People missing the same types are asked together, so a vendor is only asked (and paid) for what is still missing.
      for (const group of groupByMissing(people, missing)) {
        const groupTypes = typesOf(group.kinds);
        let answer: Map<number, ContactFindings>;
        for (const person of group.people) asked.set(person.id, (asked.get(person.id) ?? 0) + 1);
        try {
          signal?.throwIfAborted();
          answer = await provider.lookup(group.people, groupTypes, signal);
        } catch (error) {
          // Stopped by the caller: not a provider failure, and no reason to ask the next one.
          if (signal?.aborted) throw signal.reason;
          this.log?.warn(
            { provider: provider.name, people: group.people.length, err: (error as Error).message },
            'contact provider failed',
          );
          for (const person of group.people) results.get(person.id)?.failedProviders.push(provider.name);
          continue;
        }
        for (const person of group.people) {
          const findings = answer.get(person.id);
          if (!findings) continue;
          await this.accept(person.id, findings, missing, results);
        }
      }
    }
    for (const [id, result] of results) {
      result.unavailable = result.failedProviders.length > 0 && result.failedProviders.length === (asked.get(id) ?? 0);
    }
    return results;
  }

  private async accept(
    personId: number,
    findings: ContactFindings,
    missing: Map<number, Set<ContactKind>>,
    results: Map<number, WaterfallResult>,
  ): Promise<void> {
    const stillMissing = missing.get(personId);
    const result = results.get(personId);
    if (!stillMissing || !result) return;
    for (const kind of contactKinds) {
      if (!stillMissing.has(kind)) continue;
      const seen = new Set<string>();
      for (const candidate of findings[kind]) {
        if (result[kind].length >= maxPerType) break;
        const value = await this.validator.validate(kind, candidate.value);
        if (!value || seen.has(value)) continue;
        seen.add(value);
        result[kind].push({ ...candidate, value });
      }
      if (result[kind].length > 0) stillMissing.delete(kind);
    }
    if (stillMissing.size === 0) missing.delete(personId);
  }
}

function groupByMissing(
  people: readonly PersonForLookup[],
  missing: Map<number, Set<ContactKind>>,
): Array<{ kinds: ContactKind[]; people: PersonForLookup[] }> {
  const groups = new Map<string, { kinds: ContactKind[]; people: PersonForLookup[] }>();
  for (const person of people) {
    const kinds = missing.get(person.id);
    if (!kinds || kinds.size === 0) continue;
    const ordered = contactKinds.filter((k) => kinds.has(k));
    const key = ordered.join(',');
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { kinds: ordered, people: [] }));
    group.people.push(person);
  }
  return [...groups.values()];
}
