import { AppError } from '../../errors.js';
import { findAccountRow, type Queryable } from '../../store/db.js';

/** An audience's row, how to read it, and the check of its state that other audience work needs. */

export type AudienceStatus = 'DRAFT' | 'BUILDING' | 'NORMAL' | 'FAILED';
export type CreationMethod = 'NORMAL' | 'START_FROM_PROSPECTS';

export interface AudienceRow {
  account_id: number;
  id: number;
  name: string;
  creation_method: CreationMethod;
  status: AudienceStatus;
  search_logic_id: number;
  company_search_params: Record<string, unknown> | null;
  prospect_search_params: Record<string, unknown> | null;
  max_companies: number;
  max_prospects: number;
  company_exclusion_list_ids: number[];
  prospect_exclusion_list_ids: number[];
  filters_set_at: Date | null;
  num_companies: number;
  num_prospects: number;
  build_credits: number | null;
  failure_reason: string | null;
  created_at: Date;
  built_at: Date | null;
}

export const audienceColumns = `account_id, id, name, creation_method, status, search_logic_id, company_search_params,
  prospect_search_params, max_companies, max_prospects, company_exclusion_list_ids, prospect_exclusion_list_ids, filters_set_at, num_companies, num_prospects, build_credits,
  failure_reason, created_at, built_at`;

/** The audience, or 404 when it does not exist for this account. `forUpdate` locks it in the caller's transaction. */
export async function requireAudience(
  db: Queryable,
  accountId: number,
  audienceId: string | number,
  forUpdate = false,
): Promise<AudienceRow> {
  const row = await findAudience(db, accountId, audienceId, forUpdate);
  if (!row) {
    throw new AppError(
      'not_found',
      `Audience ${audienceId} not found. Check the audienceId returned by createAudience (listAudiences lists yours).`,
    );
  }
  return row;
}

/** The audience, or null when it does not exist (or was deleted): jobs working on one stop quietly then. */
export async function findAudience(
  db: Queryable,
  accountId: number,
  audienceId: string | number,
  forUpdate = false,
): Promise<AudienceRow | null> {
  return findAccountRow<AudienceRow>(db, 'audiences', audienceColumns, accountId, Number(audienceId), forUpdate);
}

export function requireBuilt(audience: AudienceRow, action: string): void {
  if (audience.status === 'NORMAL') return;
  const next: Record<Exclude<AudienceStatus, 'NORMAL'>, string> = {
    DRAFT:
      'it has not been built yet: set its filters with updateAudienceSearchParams, build it with buildAudience, and poll getAudienceStatus until NORMAL',
    BUILDING: 'it is still BUILDING: poll getAudienceStatus every 30 to 60 seconds until it is NORMAL, then try again',
    FAILED: `its build FAILED${audience.failure_reason ? ` (${audience.failure_reason})` : ''}: create a new audience`,
  };
  throw new AppError(
    'invalid_state',
    `Cannot ${action} audience ${audience.id} while it is ${audience.status}; ${next[audience.status]}.`,
    {
      details: { status: audience.status },
    },
  );
}
