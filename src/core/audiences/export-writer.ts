import { emailStatusOf } from '../contacts/email-check.js';
import type { DbDeps, ServicesDeps } from '../deps.js';
import {
  companyColumns,
  emailOfProspect,
  prospectColumns,
  type CompanyExportRow,
  type ProspectExportRow,
} from './export-columns.js';
import { storageKeyOf, type ExportRow } from './export-row.js';
import { csvRecord, utf8ByteOrderMark } from './csv.js';

/** What writing a file takes: the database, the file storage, and the mail-domain check behind email_status. */
export type ExportWriterDeps = DbDeps & ServicesDeps<'exportStorage' | 'mailDomainChecker'>;

/** Writing an export's CSV file into export storage, a page of records at a time. */

/** The SQL condition of `onlyWithContacts`: prospects with at least one email or phone. */
export function contactFilter(onlyWithContacts: boolean): string {
  return onlyWithContacts
    ? 'AND (cardinality(ap.work_emails) > 0 OR cardinality(ap.personal_emails) > 0 OR cardinality(ap.phone_numbers) > 0)'
    : '';
}

const pageRows = 1000;

/**
 * Streams the CSV into storage page by page (keyset on catalog id), never more rows than were
 * reserved. `prospectCapId` limits a prospects export to an enrichment run's prospects.
 */
export async function writeExportFile(
  context: ExportWriterDeps,
  row: ExportRow,
  prospectCapId: number | null,
  checkpoint: () => void,
  /** Between pages: the job's pause of JOB_STEP_DELAY_MS (tests and demos that must catch an export mid-way). */
  pauseBetweenPages: () => Promise<void> = () => Promise.resolve(),
): Promise<{ rows: number; bytes: number }> {
  let rows = 0;
  const limit = row.estimated_rows;
  async function* chunks(): AsyncGenerator<string> {
    yield (row.utf8_bom ? utf8ByteOrderMark : '') + csvRecord(row.columns);
    let after = 0;
    while (rows < limit) {
      checkpoint();
      const take = Math.min(pageRows, limit - rows);
      const page =
        row.kind === 'companies'
          ? await companyPage(context, row, after, take)
          : await prospectPage(context, row, after, take, prospectCapId);
      if (page.records.length === 0) break;
      rows += page.records.length;
      after = page.lastId;
      yield page.records.join('');
      if (page.records.length < take) break;
      await pauseBetweenPages();
    }
  }
  const { bytes } = await context.services.exportStorage.write(storageKeyOf(row), chunks());
  return { rows, bytes };
}

async function companyPage(
  { db }: DbDeps,
  row: ExportRow,
  after: number,
  take: number,
): Promise<{ records: string[]; lastId: number }> {
  const result = await db.pool.query<CompanyExportRow>(
    `SELECT c.id, c.preferred_name, c.description, c.domains, c.network_primary_slug, c.network_org_id, c.standard_industries,
            c.employee_count_min, c.employee_count_max, c.city, c.state_name, c.country_code, c.total_funding_usd, c.last_funding_usd,
            c.last_funded_on, c.founded_on, c.stage, c.special_flags
       FROM audience_companies ac JOIN companies c ON c.id = ac.company_id
      WHERE ac.account_id = $1 AND ac.audience_id = $2 AND ac.company_id > $3
      ORDER BY ac.company_id LIMIT $4`,
    [row.account_id, row.audience_id, after, take],
  );
  const columns = companyColumns.filter((c) => row.columns.includes(c.name));
  return {
    records: result.rows.map((r) => csvRecord(columns.map((c) => c.value(r)))),
    lastId: result.rows.at(-1)?.id ?? after,
  };
}

async function prospectPage(
  context: ExportWriterDeps,
  row: ExportRow,
  after: number,
  take: number,
  prospectCapId: number | null,
): Promise<{ records: string[]; lastId: number }> {
  const result = await context.db.pool.query<Omit<ProspectExportRow, 'email_status'>>(
    `SELECT p.id, p.first_name, p.last_name, ap.clean_first_name, ap.clean_last_name, p.title, p.headline, p.city, p.country_code, p.country3,
            p.company_name, p.company_domain, p.company_slug, p.network_slug, p.years_experience, p.tags, p.languages,
            ap.work_emails, ap.personal_emails, ap.phone_numbers, ap.sales_tool_urn, ap.live_enriched_at
       FROM audience_prospects ap JOIN people p ON p.id = ap.person_id
      WHERE ap.account_id = $1 AND ap.audience_id = $2 AND ap.person_id > $3 AND ($5::bigint IS NULL OR ap.person_id <= $5::bigint)
            ${contactFilter(row.only_with_contacts)}
      ORDER BY ap.person_id LIMIT $4`,
    [row.account_id, row.audience_id, after, take, prospectCapId],
  );
  const columns = prospectColumns.filter((c) => row.columns.includes(c.name));
  const checksEmails = row.columns.includes('email_status');
  const records: string[] = [];
  for (const found of result.rows) {
    const prospect: ProspectExportRow = {
      ...found,
      email_status: checksEmails ? await emailStatusOf(context, emailOfProspect(found)) : 'unknown',
    };
    records.push(csvRecord(columns.map((c) => c.value(prospect))));
  }
  return {
    records,
    lastId: result.rows.at(-1)?.id ?? after,
  };
}
