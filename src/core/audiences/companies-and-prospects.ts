import type { CompanyRecord, ProfileRecord } from '../../../operations/schemas/records.js';
import type { Queryable } from '../../store/db.js';
import type { CursorCodec } from '../search/cursor.js';
import {
  companyColumns,
  profileColumns,
  toCompanyRecord,
  toProfileRecord,
  type CompanyRow,
  type ProfileRow,
} from '../search/records.js';
import { requireAudience, requireBuilt } from './record.js';

/**
 * Paging through a built audience's records, keyset by catalog id. Records are read from the
 * catalog at read time (so live enrichment shows), contacts from the audience's own rows.
 * Cursors are bound to the audience: a cursor of one audience is refused on another.
 */

export interface ProspectContacts {
  workEmails: string[];
  personalEmails: string[];
  phoneNumbers: string[];
}

export async function listAudienceCompanies(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: { audienceId: string; pageSize: number; cursor?: string | null | undefined },
): Promise<{ data: CompanyRecord[]; nextCursor: string | null }> {
  const audience = await requireAudience(db, accountId, query.audienceId);
  requireBuilt(audience, 'list the companies of');
  const pages = cursors.scope(accountId, 'audienceCompanies', { audienceId: audience.id });
  const after = pages.decode(query.cursor);
  const result = await db.query<CompanyRow>(
    `SELECT ${companyColumns} FROM audience_companies ac JOIN companies c ON c.id = ac.company_id
      WHERE ac.account_id = $1 AND ac.audience_id = $2 AND ac.company_id > $3
      ORDER BY ac.company_id LIMIT $4`,
    [accountId, audience.id, after, query.pageSize + 1],
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => row.id);
  return {
    data: rows.map(toCompanyRecord),
    nextCursor,
  };
}

export async function listAudienceProspects(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: { audienceId: string; pageSize: number; cursor?: string | null | undefined },
): Promise<{ data: Array<ProfileRecord & { contacts: ProspectContacts }>; nextCursor: string | null }> {
  const audience = await requireAudience(db, accountId, query.audienceId);
  requireBuilt(audience, 'list the prospects of');
  const pages = cursors.scope(accountId, 'audienceProspects', { audienceId: audience.id });
  const after = pages.decode(query.cursor);
  const result = await db.query<
    ProfileRow & { work_emails: string[]; personal_emails: string[]; phone_numbers: string[] }
  >(
    `SELECT ${profileColumns({})}, ap.work_emails, ap.personal_emails, ap.phone_numbers
       FROM audience_prospects ap JOIN people p ON p.id = ap.person_id
      WHERE ap.account_id = $1 AND ap.audience_id = $2 AND ap.person_id > $3
      ORDER BY ap.person_id LIMIT $4`,
    [accountId, audience.id, after, query.pageSize + 1],
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => row.id);
  return {
    data: rows.map((row) => ({
      ...toProfileRecord(row, {}),
      contacts: { workEmails: row.work_emails, personalEmails: row.personal_emails, phoneNumbers: row.phone_numbers },
    })),
    nextCursor,
  };
}
