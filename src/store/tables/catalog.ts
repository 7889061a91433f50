import { companiesTable } from './companies.js';
import { personContactsTable } from './person-contacts.js';
import { peopleTable } from './people.js';

/** The tables the seed and the import load, and that `npm run seed -- --reset` empties. */
export const CATALOG_TABLES = [companiesTable.name, peopleTable.name, personContactsTable.name] as const;
