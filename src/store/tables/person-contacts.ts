import { defineTable } from './define-table.js';

export type ContactKind = 'work_email' | 'personal_email' | 'phone';

/** A row of `person_contacts`: one email address or phone number known for a person. */
export interface PersonContactRow {
  person_id: number;
  kind: ContactKind;
  value: string;
  /** Where it came from: 'dataset' (the seed) or 'import'. */
  source: string;
}

export const personContactsTable = defineTable<PersonContactRow>(
  'person_contacts',
  { person_id: 'bigint', kind: 'text', value: 'text', source: 'text' },
  {},
);
