import {
  emptyFindings,
  type ContactFindings,
  type ContactProvider,
  type ContactTypes,
  type PersonForLookup,
} from '../../core/ports/contact-providers.js';

/**
 * Guesses a work email from the most common corporate pattern, first.last@domain. A guess
 * is only as good as the pattern, so it is marked low confidence and the waterfall asks this
 * provider last; the validation step still checks the address can receive mail.
 */
export class PatternEmailProvider implements ContactProvider {
  readonly name = 'pattern';

  async lookup(
    people: readonly PersonForLookup[],
    types: ContactTypes,
    signal?: AbortSignal,
  ): Promise<Map<number, ContactFindings>> {
    signal?.throwIfAborted();
    const found = new Map<number, ContactFindings>();
    if (!types.getWorkEmails) return found;
    for (const person of people) {
      const address = guessWorkEmail(person);
      if (!address) continue;
      const findings = emptyFindings();
      findings.workEmails.push({ value: address, confidence: 'low', provider: this.name });
      found.set(person.id, findings);
    }
    return found;
  }
}

export function guessWorkEmail(
  person: Pick<PersonForLookup, 'firstName' | 'lastName' | 'companyDomain'>,
): string | null {
  const first = localPart(person.firstName);
  const last = localPart(person.lastName);
  const domain = person.companyDomain?.trim().toLowerCase();
  if (!first || !last || !domain) return null;
  return `${first}.${last}@${domain}`;
}

/** "José María" → "josemaria", "O'Neil-Smith" → "oneilsmith": what mail systems commonly make of names. */
function localPart(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[øœæ]/g, (c) => ({ ø: 'o', œ: 'oe', æ: 'ae' })[c] ?? '')
    .replace(/[^a-z0-9]/g, '');
}
