import type { CompanySearchParams, PeopleSearchParams } from '../../../operations/schemas/filters.js';
import { AppError } from '../../errors.js';
import type { Database, Queryable } from '../../store/db.js';
import { requireExclusionLists } from '../exclusion-lists.js';
import {
  audienceColumns,
  requireAudience,
  type AudienceRow,
  type AudienceStatus,
  type CreationMethod,
} from './record.js';
import type { CursorCodec } from '../search/cursor.js';
import { storedCompanyParams, storedPeopleParams } from '../search/stored-filters.js';

/**
 * The audience state machine (SPEC "Audience status"):
 *
 *   (none) --create--> DRAFT --set filters--> DRAFT --build--> BUILDING --success--> NORMAL
 *                                                                  \-----failure--> FAILED
 *
 * Filters change only while DRAFT; build needs filters and a DRAFT audience; enrichment and
 * exports need NORMAL (the build itself: build.ts). Every call in the wrong state is refused with `invalid_state` and a
 * message saying what the audience is doing and what to do next. An audience of another
 * account does not exist for the caller (404), never 403.
 */

export interface AudienceSummary {
  audienceId: string;
  name: string;
  status: AudienceStatus;
  creationMethod: CreationMethod;
  audienceSearchLogicId: string;
  numCompanies: number;
  numProspects: number;
  createdAt: string;
}

export function summarize(row: AudienceRow): AudienceSummary {
  return {
    audienceId: String(row.id),
    name: row.name,
    status: row.status,
    creationMethod: row.creation_method,
    audienceSearchLogicId: String(row.search_logic_id),
    numCompanies: row.num_companies,
    numProspects: row.num_prospects,
    createdAt: row.created_at.toISOString(),
  };
}

/** What getAudienceStatus answers, and the audience webhook events carry. */
export function audienceStatusView(row: AudienceRow) {
  return {
    ...summarize(row),
    failureReason: row.failure_reason,
    builtAt: row.built_at?.toISOString() ?? null,
    buildWorstCaseCredits: buildWorstCase(row),
    // Counted only when getAudienceStatus answers for a DRAFT audience (estimateBuild in build.ts): an event never is.
    buildExpectedCredits: null as number | null,
  };
}

/** The most a build of the audience's filters can charge: its caps (companies are searched for NORMAL audiences only). */
function buildWorstCase(row: AudienceRow): number {
  if (!row.filters_set_at) return 0;
  return (row.creation_method === 'NORMAL' ? row.max_companies : 0) + row.max_prospects;
}

export async function createAudience(
  db: Queryable,
  accountId: number,
  input: { name: string; creationMethod: CreationMethod },
): Promise<AudienceRow> {
  const result = await db.query<AudienceRow>(
    `INSERT INTO audiences (account_id, name, creation_method) VALUES ($1, $2, $3) RETURNING ${audienceColumns}`,
    [accountId, input.name, input.creationMethod],
  );
  return result.rows[0] as AudienceRow;
}

export interface SearchParamsInput {
  companySearchParams?: CompanySearchParams | undefined;
  prospectSearchParams?: PeopleSearchParams | undefined;
  maxCompanies: number;
  maxProspects: number;
  companyExclusionListIDs?: string[] | undefined;
  prospectExclusionListIDs?: string[] | undefined;
}

/** Stores the filters (a full replacement: what is not given is cleared or back to its default). Only while DRAFT. */
export async function setSearchParams(
  db: Database,
  accountId: number,
  audienceId: string,
  input: SearchParamsInput,
): Promise<AudienceRow> {
  return db.transaction(async (tx) => {
    const audience = await requireAudience(tx, accountId, audienceId, true);
    if (audience.status !== 'DRAFT') throw filtersFrozen(audience);
    if (audience.creation_method === 'START_FROM_PROSPECTS' && input.companySearchParams !== undefined) {
      throw new AppError(
        'invalid_request',
        'companySearchParams applies only to NORMAL audiences; this audience is START_FROM_PROSPECTS and searches prospects only. ' +
          'Remove companySearchParams, or create a NORMAL audience to filter companies first.',
        {
          details: {
            issues: [{ field: 'companySearchParams', message: 'not used by START_FROM_PROSPECTS audiences' }],
          },
        },
      );
    }
    if (audience.creation_method === 'START_FROM_PROSPECTS' && input.prospectSearchParams === undefined) {
      throw new AppError(
        'invalid_request',
        'A START_FROM_PROSPECTS audience is built from prospectSearchParams alone: give prospectSearchParams.',
        {
          details: {
            issues: [{ field: 'prospectSearchParams', message: 'required for START_FROM_PROSPECTS audiences' }],
          },
        },
      );
    }
    if (audience.creation_method === 'NORMAL' && input.companySearchParams === undefined) {
      throw new AppError(
        'invalid_request',
        'A NORMAL audience searches companies first, then prospects within them: give companySearchParams ({} selects every company, up to maxCompanies). ' +
          'To search prospects only, create a START_FROM_PROSPECTS audience.',
        { details: { issues: [{ field: 'companySearchParams', message: 'required for NORMAL audiences' }] } },
      );
    }
    // Another account's list is a 404 here, at once, rather than a failed build later.
    const companyLists = await requireExclusionLists(
      tx,
      accountId,
      input.companyExclusionListIDs,
      'companies',
      'companyExclusionListIDs',
    );
    const prospectLists = await requireExclusionLists(
      tx,
      accountId,
      input.prospectExclusionListIDs,
      'prospects',
      'prospectExclusionListIDs',
    );
    const updated = await tx.query<AudienceRow>(
      `UPDATE audiences SET company_search_params = $3, prospect_search_params = $4, max_companies = $5, max_prospects = $6,
              company_exclusion_list_ids = $7, prospect_exclusion_list_ids = $8, filters_set_at = now()
        WHERE account_id = $1 AND id = $2 RETURNING ${audienceColumns}`,
      [
        accountId,
        audience.id,
        input.companySearchParams === undefined ? null : JSON.stringify(input.companySearchParams),
        input.prospectSearchParams === undefined ? null : JSON.stringify(input.prospectSearchParams),
        input.maxCompanies,
        input.maxProspects,
        companyLists,
        prospectLists,
      ],
    );
    return updated.rows[0] as AudienceRow;
  });
}

/** The audience must be NORMAL for enrichment, exports and listings of its records. */
function filtersFrozen(audience: AudienceRow): AppError {
  const why: Record<Exclude<AudienceStatus, 'DRAFT'>, string> = {
    BUILDING: 'it is BUILDING with the filters it has',
    NORMAL: 'it is already built (NORMAL)',
    FAILED: 'its build FAILED',
  };
  return new AppError(
    'invalid_state',
    `The filters of audience ${audience.id} can no longer change: ${why[audience.status as Exclude<AudienceStatus, 'DRAFT'>]}. ` +
      'Filters change only while DRAFT; to use different filters, create a new audience (createAudience).',
    { details: { status: audience.status } },
  );
}

export function buildRefused(audience: AudienceRow): AppError {
  const messages: Record<Exclude<AudienceStatus, 'DRAFT'>, string> = {
    BUILDING: `Audience ${audience.id} is already BUILDING: poll getAudienceStatus every 30 to 60 seconds until it is NORMAL.`,
    NORMAL: `Audience ${audience.id} is already built (NORMAL). A build runs once; to build with other filters, create a new audience.`,
    FAILED:
      `Audience ${audience.id} FAILED${audience.failure_reason ? ` (${audience.failure_reason})` : ''} and cannot be built again: ` +
      'create a new audience with the same filters.',
  };
  return new AppError('invalid_state', messages[audience.status as Exclude<AudienceStatus, 'DRAFT'>], {
    details: { status: audience.status },
  });
}

/**
 * The stored filters, re-read through their schemas (they were validated when stored). Filters
 * stored before a rule tightened (an empty list, which restricts to nothing) are refused with
 * invalid_request naming the field (core/search/stored-filters.ts), never read as no filter.
 */
export function storedFilters(audience: AudienceRow): {
  company: CompanySearchParams | null;
  prospect: PeopleSearchParams | null;
} {
  const nextStep =
    audience.status === 'DRAFT'
      ? `Set the filters again with updateAudienceSearchParams (PATCH /v1/audiences/${audience.id}/search-params), then build.`
      : 'Create a new audience with filters that list at least one value in each list.';
  return {
    company: audience.company_search_params
      ? storedCompanyParams(audience.company_search_params, 'companySearchParams', nextStep)
      : null,
    prospect: audience.prospect_search_params
      ? storedPeopleParams(audience.prospect_search_params, 'prospectSearchParams', nextStep)
      : null,
  };
}

export async function listAudiences(
  db: Queryable,
  cursors: CursorCodec,
  accountId: number,
  query: { pageSize: number; cursor?: string | null | undefined },
): Promise<{ data: AudienceSummary[]; nextCursor: string | null }> {
  const pages = cursors.scope(accountId, 'listAudiences', { accountId });
  const before = pages.decode(query.cursor);
  const result = await db.query<AudienceRow>(
    `SELECT ${audienceColumns} FROM audiences WHERE account_id = $1 AND ($2::bigint = 0 OR id < $2)
      ORDER BY id DESC LIMIT $3`,
    [accountId, before, query.pageSize + 1],
  );
  const { rows, nextCursor } = pages.page(result.rows, query.pageSize, (row) => row.id);
  return {
    data: rows.map(summarize),
    nextCursor,
  };
}
