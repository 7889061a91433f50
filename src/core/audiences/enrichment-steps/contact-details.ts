import { profileUrlOf } from '../../network-urls.js';
import { canonicalJson } from '../../search/cursor.js';
import { normaliseEmail, normalisePhone } from '../../contacts/validation.js';
import { enrichmentPrices } from '../pricing.js';
import type { PersonForLookup } from '../../ports/contact-providers.js';
import type { FoundContacts } from '../sources.js';
import { selectedProspects, sqlBatch, type Step, type StepDeps } from './step.js';

/** Fetching Contact Details and Validating Contact Details: the paid lookups, then the free clean-up of what the audience holds. */

const contactBatch = 200;

const kinds = [
  { kind: 'workEmails', flag: 'getWorkEmails', column: 'work_emails', price: enrichmentPrices.workEmail },
  {
    kind: 'personalEmails',
    flag: 'getPersonalEmails',
    column: 'personal_emails',
    price: enrichmentPrices.personalEmail,
  },
  { kind: 'phoneNumbers', flag: 'getPhoneNumbers', column: 'phone_numbers', price: enrichmentPrices.phone },
] as const;

/**
 * Contact lookups through the source (by default the contact-provider waterfall). For each
 * prospect and requested type it does not already hold (those it holds were not charged), the
 * source is asked; a valid value found settles the type's price, nothing found refunds it.
 */
export function fetchingContacts(deps: StepDeps): Step {
  return {
    enabled: (run) => run.options.runContactEnrichment && run.prospects_to_enrich > 0,
    total: (run) => run.prospects_to_enrich,
    batch: async (run, cursor) => {
      const after = Number(cursor?.after ?? 0);
      const rows = await deps.context.db.pool.query<{
        id: number;
        first_name: string;
        last_name: string;
        company_name: string | null;
        company_domain: string | null;
        network_slug: string | null;
        work_emails: string[];
        personal_emails: string[];
        phone_numbers: string[];
      }>(
        `SELECT ap.person_id AS id, p.first_name, p.last_name, p.company_name, p.company_domain, p.network_slug,
                ap.work_emails, ap.personal_emails, ap.phone_numbers
           FROM audience_prospects ap JOIN people p ON p.id = ap.person_id
          WHERE ${selectedProspects} AND ap.person_id > $4 ORDER BY ap.person_id LIMIT $5`,
        [run.account_id, run.audience_id, run.prospect_cap_id, after, contactBatch],
      );
      const requested = kinds.filter((k) => run.options.enrichmentType[k.flag]);
      const wanted = rows.rows
        .map((row) => ({ row, types: requested.filter((k) => row[k.column].length === 0) }))
        .filter((entry) => entry.types.length > 0);
      const people: PersonForLookup[] = wanted.map(({ row }) => ({
        id: row.id,
        firstName: row.first_name,
        lastName: row.last_name,
        companyName: row.company_name,
        companyDomain: row.company_domain,
        networkSlug: row.network_slug,
        profileUrl: profileUrlOf(row.network_slug),
      }));
      const found = people.length
        ? await deps.contacts.lookup(people, run.options.enrichmentType, deps.job.signal)
        : new Map<number, FoundContacts>();
      deps.job.checkpoint();
      let settled = 0;
      let refund = 0;
      const updates: Array<{ id: number; work: string[] | null; personal: string[] | null; phone: string[] | null }> =
        [];
      for (const { row, types } of wanted) {
        const update = {
          id: row.id,
          work: null as string[] | null,
          personal: null as string[] | null,
          phone: null as string[] | null,
        };
        for (const type of types) {
          settled += type.price;
          const values = normalise(type.kind, found.get(row.id)?.[type.kind] ?? []);
          if (values.length === 0) {
            refund += type.price;
            continue;
          }
          if (type.kind === 'workEmails') update.work = values;
          else if (type.kind === 'personalEmails') update.personal = values;
          else update.phone = values;
        }
        if (update.work || update.personal || update.phone) updates.push(update);
      }
      return async (tx) => {
        if (updates.length) {
          await tx.query(
            `UPDATE audience_prospects ap SET
                work_emails = coalesce((SELECT array_agg(v) FROM jsonb_array_elements_text(u.work) v), ap.work_emails),
                personal_emails = coalesce((SELECT array_agg(v) FROM jsonb_array_elements_text(u.personal) v), ap.personal_emails),
                phone_numbers = coalesce((SELECT array_agg(v) FROM jsonb_array_elements_text(u.phone) v), ap.phone_numbers)
               FROM jsonb_to_recordset($3::jsonb) AS u(id bigint, work jsonb, personal jsonb, phone jsonb)
              WHERE ap.account_id = $1 AND ap.audience_id = $2 AND ap.person_id = u.id`,
            [run.account_id, run.audience_id, JSON.stringify(updates)],
          );
        }
        return {
          cursor: rows.rows.length < contactBatch ? null : { after: rows.rows.at(-1)?.id },
          done: rows.rows.length,
          settled,
          refund,
        };
      };
    },
  };
}

/**
 * Free: re-validates what the audience holds (values revealed by earlier runs included) with the
 * contact-enrichment rules, normalising them and dropping duplicates and invalid values.
 */
export function validatingContacts(): Step {
  return {
    enabled: (run) => run.options.runContactEnrichment && run.prospects_to_enrich > 0,
    total: (run) => run.prospects_to_enrich,
    batch: async (run, cursor) => {
      const after = Number(cursor?.after ?? 0);
      return async (tx) => {
        const rows = await tx.query<{
          id: number;
          work_emails: string[];
          personal_emails: string[];
          phone_numbers: string[];
        }>(
          `SELECT ap.person_id AS id, ap.work_emails, ap.personal_emails, ap.phone_numbers FROM audience_prospects ap
            WHERE ${selectedProspects} AND ap.person_id > $4 ORDER BY ap.person_id LIMIT $5`,
          [run.account_id, run.audience_id, run.prospect_cap_id, after, sqlBatch],
        );
        const changed = [];
        for (const row of rows.rows) {
          const work = normalise('workEmails', row.work_emails);
          const personal = normalise('personalEmails', row.personal_emails);
          const phone = normalise('phoneNumbers', row.phone_numbers);
          if (
            canonicalJson([work, personal, phone]) !==
            canonicalJson([row.work_emails, row.personal_emails, row.phone_numbers])
          ) {
            changed.push({ id: row.id, work, personal, phone });
          }
        }
        if (changed.length) {
          await tx.query(
            `UPDATE audience_prospects ap SET
                work_emails = ARRAY(SELECT jsonb_array_elements_text(u.work)),
                personal_emails = ARRAY(SELECT jsonb_array_elements_text(u.personal)),
                phone_numbers = ARRAY(SELECT jsonb_array_elements_text(u.phone))
               FROM jsonb_to_recordset($3::jsonb) AS u(id bigint, work jsonb, personal jsonb, phone jsonb)
              WHERE ap.account_id = $1 AND ap.audience_id = $2 AND ap.person_id = u.id`,
            [run.account_id, run.audience_id, JSON.stringify(changed)],
          );
        }
        return {
          cursor: rows.rows.length < sqlBatch ? null : { after: rows.rows.at(-1)?.id },
          done: rows.rows.length,
          settled: 0,
          refund: 0,
        };
      };
    },
  };
}

/** Values in their normal form (lowercase emails, phone numbers as +digits), duplicates and invalid values removed. */
function normalise(kind: keyof FoundContacts, values: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of values) {
    const value = kind === 'phoneNumbers' ? normalisePhone(raw) : normaliseEmail(raw);
    if (value) out.add(value);
  }
  return [...out];
}
