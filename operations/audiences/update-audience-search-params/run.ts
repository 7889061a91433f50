import { updateAudienceSearchParams } from './definition.js';
import * as audiences from '../../../src/core/audiences/audiences.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(updateAudienceSearchParams, async (input, { context, principal }) => {
  const row = await audiences.setSearchParams(context.db, principal.accountId, input.audienceId, input);
  return {
    output: {
      audienceId: String(row.id),
      audienceSearchLogicId: String(row.search_logic_id),
      companySearchParams: row.company_search_params,
      prospectSearchParams: row.prospect_search_params,
      maxCompanies: row.max_companies,
      maxProspects: row.max_prospects,
      companyExclusionListIDs: row.company_exclusion_list_ids.map(String),
      prospectExclusionListIDs: row.prospect_exclusion_list_ids.map(String),
    },
  };
});
