import { AppError } from '../../errors.js';
import type { Queryable } from '../../store/db.js';
import { queryFingerprint } from '../search/cursor.js';

/**
 * Pricing of audience enrichment. These rules are the contract shown by
 * estimateEnrichmentCost and charged by triggerEnrichment:
 *
 * - Scope. The prospects enriched are the audience's first `maxProspectsToEnrich` prospects in
 *   id order (all of them when omitted). The companies enriched are the distinct catalog
 *   companies of those prospects (for NORMAL and START_FROM_PROSPECTS alike), so lowering
 *   `maxProspectsToEnrich` lowers every part of the cost.
 * - Prices, per record: live company fetch 2, live profile fetch 2, work email 2, personal
 *   email 2, phone number 3 (the spec's credit table); sales-tool data 0 (free); contact
 *   validation 0 (free).
 * - Discounts (never paying twice for the same work in one audience):
 *   `liveCompany`/`liveProspect`: records an earlier run of this audience fetched live in the
 *   24 hours before the trigger are not fetched or charged again (`discounted` = true when
 *   that happened). `waterfall`: a prospect that already holds a contact type from an earlier
 *   run of this audience is not looked up or charged again for that type; `originalCredits`
 *   is the price without this, `discount` the difference, `operations` the credits per type.
 * - Charging. The estimate's `totalCredits` is charged upfront, at trigger, in the same
 *   transaction that creates the run; the trigger must repeat the values of an estimate made
 *   for the audience (and the estimate must still compute to the same total).
 * - Refunds, through the ledger, each with its own idempotency key, as the run goes: a live
 *   fetch that fails and falls back to stored data is refunded (2), as the spec prices live
 *   fetches "0 when served from stored data"; a contact type that finds nothing for a prospect
 *   is refunded (its price), as the spec charges reveals "per data type found". If the run
 *   fails, everything not yet delivered or refunded is refunded. So the final cost is what
 *   was delivered, and never more than the estimate.
 */
export const enrichmentPrices = {
  liveCompany: 2,
  liveProspect: 2,
  workEmail: 2,
  personalEmail: 2,
  phone: 3,
  salesNav: 0,
  validation: 0,
} as const;

/** How long an earlier live fetch of this audience counts as fresh (no second charge). */
export const liveFreshHours = 24;

/**
 * Planning figures for the time estimate, in seconds per unit, sized for live outside
 * providers (a run on the embedded dataset finishes much faster).
 */
const secondsPer = {
  fixed: 10,
  salesNav: 0.01,
  liveFetch: 0.5,
  cleanName: 0.001,
  contactLookup: 0.2,
  validation: 0.02,
} as const;

export interface EnrichmentTypeFlags {
  getWorkEmails: boolean;
  getPersonalEmails: boolean;
  getPhoneNumbers: boolean;
}

export interface EnrichmentOptionsInput {
  maxProspectsToEnrich?: number | undefined;
  enrichmentType?: EnrichmentTypeFlags | undefined;
  runCompanyLiveEnrichment: boolean;
  runProfileLiveEnrichment: boolean;
  runProfileSalesNav: boolean;
  runContactEnrichment: boolean;
}

/** The options with every default applied: what an estimate and its trigger are compared on. */
export interface EnrichmentOptions {
  maxProspectsToEnrich: number | null;
  enrichmentType: EnrichmentTypeFlags;
  runCompanyLiveEnrichment: boolean;
  runProfileLiveEnrichment: boolean;
  runProfileSalesNav: boolean;
  runContactEnrichment: boolean;
}

export function normalizeOptions(input: EnrichmentOptionsInput): EnrichmentOptions {
  const enrichmentType = {
    getWorkEmails: input.enrichmentType?.getWorkEmails ?? false,
    getPersonalEmails: input.enrichmentType?.getPersonalEmails ?? false,
    getPhoneNumbers: input.enrichmentType?.getPhoneNumbers ?? false,
  };
  const anyType = enrichmentType.getWorkEmails || enrichmentType.getPersonalEmails || enrichmentType.getPhoneNumbers;
  // Both mismatches are almost always a mistake that would cost money or silently do nothing.
  if (input.runContactEnrichment && !anyType) {
    throw new AppError(
      'invalid_request',
      'runContactEnrichment is true but enrichmentType selects no contact type: set getWorkEmails, getPersonalEmails or getPhoneNumbers to true.',
      {
        details: {
          issues: [
            { field: 'enrichmentType', message: 'select at least one contact type when runContactEnrichment is true' },
          ],
        },
      },
    );
  }
  if (!input.runContactEnrichment && anyType) {
    throw new AppError(
      'invalid_request',
      'enrichmentType selects contact types but runContactEnrichment is false, so none would be revealed: set runContactEnrichment to true, or drop enrichmentType.',
      {
        details: {
          issues: [
            { field: 'runContactEnrichment', message: 'must be true when enrichmentType selects a contact type' },
          ],
        },
      },
    );
  }
  return {
    maxProspectsToEnrich: input.maxProspectsToEnrich ?? null,
    enrichmentType,
    runCompanyLiveEnrichment: input.runCompanyLiveEnrichment,
    runProfileLiveEnrichment: input.runProfileLiveEnrichment,
    runProfileSalesNav: input.runProfileSalesNav,
    runContactEnrichment: input.runContactEnrichment,
  };
}

export function optionsKey(options: EnrichmentOptions): string {
  return queryFingerprint('enrichmentOptions', options);
}

/** What a run would touch and how much of it is chargeable, measured at the transaction's now(). */
export interface EnrichmentScope {
  prospects: number;
  /** person_id of the last prospect enriched (null when none). */
  prospectCapId: number | null;
  companies: number;
  liveCompaniesCharged: number;
  liveProspectsCharged: number;
  contactsCharged: { workEmail: number; personalEmail: number; phone: number };
}

export async function measureScope(
  db: Queryable,
  accountId: number,
  audienceId: number,
  options: EnrichmentOptions,
): Promise<EnrichmentScope> {
  const selected = `SELECT person_id, company_id, live_enriched_at, work_emails, personal_emails, phone_numbers
                      FROM audience_prospects WHERE account_id = $1 AND audience_id = $2
                     ORDER BY person_id LIMIT $3`;
  const params = [accountId, audienceId, options.maxProspectsToEnrich, liveFreshHours];
  const prospects = await db.query<{
    prospects: number;
    cap: number | null;
    live: number;
    work: number;
    personal: number;
    phone: number;
  }>(
    `WITH selected AS (${selected})
     SELECT count(*)::int AS prospects, max(person_id) AS cap,
            count(*) FILTER (WHERE live_enriched_at IS NULL OR live_enriched_at < now() - make_interval(hours => $4))::int AS live,
            count(*) FILTER (WHERE cardinality(work_emails) = 0)::int AS work,
            count(*) FILTER (WHERE cardinality(personal_emails) = 0)::int AS personal,
            count(*) FILTER (WHERE cardinality(phone_numbers) = 0)::int AS phone
       FROM selected`,
    params,
  );
  const companies = await db.query<{ companies: number; live: number }>(
    `WITH selected AS (${selected}),
          company_ids AS (SELECT DISTINCT s.company_id FROM selected s JOIN companies c ON c.id = s.company_id)
     SELECT count(*)::int AS companies,
            count(*) FILTER (WHERE e.live_enriched_at IS NULL OR e.live_enriched_at < now() - make_interval(hours => $4))::int AS live
       FROM company_ids ci
       LEFT JOIN audience_enriched_companies e ON e.account_id = $1 AND e.audience_id = $2 AND e.company_id = ci.company_id`,
    params,
  );
  const p = prospects.rows[0] as {
    prospects: number;
    cap: number | null;
    live: number;
    work: number;
    personal: number;
    phone: number;
  };
  const c = companies.rows[0] as { companies: number; live: number };
  return {
    prospects: p.prospects,
    prospectCapId: p.cap,
    companies: c.companies,
    liveCompaniesCharged: c.live,
    liveProspectsCharged: p.live,
    contactsCharged: { workEmail: p.work, personalEmail: p.personal, phone: p.phone },
  };
}

export interface EnrichmentEstimate {
  totalCredits: number;
  prospectsToEnrich: number;
  companiesToEnrich: number;
  breakdown: {
    salesNav: { credits: number; isFree: boolean };
    liveCompany: { credits: number; discounted: boolean };
    liveProspect: { credits: number; discounted: boolean };
    waterfall: {
      credits: number;
      originalCredits: number;
      discount: number;
      operations: { workEmail: number; personalEmail: number; phone: number };
    };
    validation: { credits: number; isFree: boolean };
  };
  timeEstimate: { totalSeconds: number; formatted: string };
}

export function priceScope(options: EnrichmentOptions, scope: EnrichmentScope): EnrichmentEstimate {
  const liveCompanies = options.runCompanyLiveEnrichment ? scope.liveCompaniesCharged : 0;
  const liveProspects = options.runProfileLiveEnrichment ? scope.liveProspectsCharged : 0;
  const contacts = options.runContactEnrichment
    ? options.enrichmentType
    : { getWorkEmails: false, getPersonalEmails: false, getPhoneNumbers: false };
  const operations = {
    workEmail: contacts.getWorkEmails ? scope.contactsCharged.workEmail * enrichmentPrices.workEmail : 0,
    personalEmail: contacts.getPersonalEmails
      ? scope.contactsCharged.personalEmail * enrichmentPrices.personalEmail
      : 0,
    phone: contacts.getPhoneNumbers ? scope.contactsCharged.phone * enrichmentPrices.phone : 0,
  };
  const waterfallCredits = operations.workEmail + operations.personalEmail + operations.phone;
  const originalCredits =
    scope.prospects *
    ((contacts.getWorkEmails ? enrichmentPrices.workEmail : 0) +
      (contacts.getPersonalEmails ? enrichmentPrices.personalEmail : 0) +
      (contacts.getPhoneNumbers ? enrichmentPrices.phone : 0));
  const breakdown = {
    salesNav: { credits: 0, isFree: true },
    liveCompany: {
      credits: liveCompanies * enrichmentPrices.liveCompany,
      discounted: options.runCompanyLiveEnrichment && scope.liveCompaniesCharged < scope.companies,
    },
    liveProspect: {
      credits: liveProspects * enrichmentPrices.liveProspect,
      discounted: options.runProfileLiveEnrichment && scope.liveProspectsCharged < scope.prospects,
    },
    waterfall: { credits: waterfallCredits, originalCredits, discount: originalCredits - waterfallCredits, operations },
    validation: { credits: 0, isFree: true },
  };
  const typesRequested =
    Number(contacts.getWorkEmails) + Number(contacts.getPersonalEmails) + Number(contacts.getPhoneNumbers);
  const seconds = Math.ceil(
    secondsPer.fixed +
      (options.runProfileSalesNav ? scope.prospects * secondsPer.salesNav : 0) +
      (liveCompanies + liveProspects) * secondsPer.liveFetch +
      scope.prospects * secondsPer.cleanName +
      (options.runContactEnrichment
        ? scope.prospects * secondsPer.contactLookup + scope.prospects * typesRequested * secondsPer.validation
        : 0),
  );
  return {
    totalCredits: breakdown.liveCompany.credits + breakdown.liveProspect.credits + waterfallCredits,
    prospectsToEnrich: scope.prospects,
    companiesToEnrich: scope.companies,
    breakdown,
    timeEstimate: { totalSeconds: seconds, formatted: formatDuration(seconds) },
  };
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `about ${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `about ${hours} hour${hours === 1 ? '' : 's'}${rest ? ` ${rest} minute${rest === 1 ? '' : 's'}` : ''}`;
}
