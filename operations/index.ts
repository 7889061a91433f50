import type { AnyOperation } from './define.js';
import { createExclusionList } from './account/create-exclusion-list.js';
import { getCreditBalance } from './account/get-credit-balance.js';
import { listIndustries } from './account/list-industries.js';
import { listRegions } from './account/list-regions.js';
import { buildAudience } from './audiences/build-audience.js';
import { createAudience } from './audiences/create-audience.js';
import { exportCompanies } from './audiences/export-companies.js';
import { exportProspects } from './audiences/export-prospects.js';
import { getAudienceStatus } from './audiences/get-audience-status.js';
import { getExportStatus } from './audiences/get-export-status.js';
import { listAudienceCompanies } from './audiences/list-audience-companies.js';
import { listAudienceProspects } from './audiences/list-audience-prospects.js';
import { listAudiences } from './audiences/list-audiences.js';
import { updateAudienceSearchParams } from './audiences/update-audience-search-params.js';
import { pollBatchContactEnrichment } from './contacts/poll-batch-contact-enrichment.js';
import { revealContactSingle } from './contacts/reveal-contact-single.js';
import { revealContactSync } from './contacts/reveal-contact-sync.js';
import { startBatchContactEnrichment } from './contacts/start-batch-contact-enrichment.js';
import { estimateEnrichmentCost } from './enrichment/estimate-enrichment-cost.js';
import { getEnrichmentStatus } from './enrichment/get-enrichment-status.js';
import { liveEnrichCompany } from './enrichment/live-enrich-company.js';
import { liveEnrichPerson } from './enrichment/live-enrich-person.js';
import { triggerEnrichment } from './enrichment/trigger-enrichment.js';
import { companySearch } from './search/company-search.js';
import { peopleSearch } from './search/people-search.js';

/**
 * Every operation of the service, listed by hand so that adding one is a visible change.
 * Order: the audience workflow first, as agents read it, then the rest by category.
 */
export const operations: readonly AnyOperation[] = [
  companySearch,
  peopleSearch,
  createAudience,
  updateAudienceSearchParams,
  buildAudience,
  getAudienceStatus,
  estimateEnrichmentCost,
  triggerEnrichment,
  getEnrichmentStatus,
  exportCompanies,
  exportProspects,
  getExportStatus,
  listAudiences,
  listAudienceCompanies,
  listAudienceProspects,
  startBatchContactEnrichment,
  pollBatchContactEnrichment,
  revealContactSync,
  revealContactSingle,
  liveEnrichCompany,
  liveEnrichPerson,
  getCreditBalance,
  listRegions,
  listIndustries,
  createExclusionList,
];

const byId = new Map(operations.map((operation) => [operation.operationId, operation]));

export function findOperation(operationId: string): AnyOperation | undefined {
  return byId.get(operationId);
}

export {
  buildAudience,
  companySearch,
  createAudience,
  createExclusionList,
  estimateEnrichmentCost,
  exportCompanies,
  exportProspects,
  getAudienceStatus,
  getCreditBalance,
  getEnrichmentStatus,
  getExportStatus,
  listAudienceCompanies,
  listAudienceProspects,
  listAudiences,
  listIndustries,
  listRegions,
  liveEnrichCompany,
  liveEnrichPerson,
  peopleSearch,
  pollBatchContactEnrichment,
  revealContactSingle,
  revealContactSync,
  startBatchContactEnrichment,
  triggerEnrichment,
  updateAudienceSearchParams,
};
export type { AnyOperation, OperationDefinition } from './define.js';
