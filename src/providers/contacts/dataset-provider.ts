import type { Queryable } from '../../store/db.js';
import {
  emptyFindings,
  kindsOf,
  type ContactFindings,
  type ContactKind,
  type ContactProvider,
  type ContactTypes,
  type PersonForLookup,
} from '../../core/ports/contact-providers.js';

const kindColumn: Record<ContactKind, string> = {
  workEmails: 'work_email',
  personalEmails: 'personal_email',
  phoneNumbers: 'phone',
};
const kindOfColumn = new Map(Object.entries(kindColumn).map(([kind, column]) => [column, kind as ContactKind]));

/**
 * The contact points of our own dataset (`person_contacts`): seen in use, so high confidence.
 * One query per lookup, whatever the number of people.
 */
export class DatasetContactProvider implements ContactProvider {
  readonly name = 'dataset';

  constructor(private readonly db: Queryable) {}

  async lookup(
    people: readonly PersonForLookup[],
    types: ContactTypes,
    signal?: AbortSignal,
  ): Promise<Map<number, ContactFindings>> {
    signal?.throwIfAborted();
    const kinds = kindsOf(types);
    const found = new Map<number, ContactFindings>();
    if (people.length === 0 || kinds.length === 0) return found;
    const rows = await this.db.query<{ person_id: number; kind: string; value: string }>(
      `SELECT person_id, kind, value FROM person_contacts
        WHERE person_id = ANY($1::bigint[]) AND kind = ANY($2::text[])
        ORDER BY person_id, kind, value`,
      [people.map((p) => p.id), kinds.map((k) => kindColumn[k])],
    );
    for (const row of rows.rows) {
      const kind = kindOfColumn.get(row.kind);
      if (!kind) continue;
      let findings = found.get(row.person_id);
      if (!findings) found.set(row.person_id, (findings = emptyFindings()));
      findings[kind].push({ value: row.value, confidence: 'high', provider: this.name });
    }
    return found;
  }
}
