import type { AnyOperation } from './define.js';
import { createExclusionList } from './account/create-exclusion-list.js';
import { getCreditBalance } from './account/get-credit-balance.js';
import { listIndustries } from './account/list-industries.js';
import { listJobTitleTaxonomy } from './account/list-job-title-taxonomy.js';
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
import { listCountrySubdivisions } from './account/list-country-subdivisions.js';
import { listLanguages } from './account/list-languages.js';
import { listTags } from './account/list-tags.js';
import { listTimeZones } from './account/list-time-zones.js';
import { deleteAudience } from './audiences/delete-audience.js';
import { findPersonByWorkEmail } from './contacts/find-person-by-work-email.js';
import { validateEmail } from './contacts/validate-email.js';
import { addExclusionListEntries } from './exclusion-lists/add-exclusion-list-entries.js';
import { createExclusionListFromAudience } from './exclusion-lists/create-exclusion-list-from-audience.js';
import { deleteExclusionList } from './exclusion-lists/delete-exclusion-list.js';
import { listExclusionListEntries } from './exclusion-lists/list-exclusion-list-entries.js';
import { listExclusionLists } from './exclusion-lists/list-exclusion-lists.js';
import { removeExclusionListEntries } from './exclusion-lists/remove-exclusion-list-entries.js';
import { createSavedSearch } from './saved-searches/create-saved-search.js';
import { deleteSavedSearch } from './saved-searches/delete-saved-search.js';
import { getSavedSearch } from './saved-searches/get-saved-search.js';
import { getSavedSearchRun } from './saved-searches/get-saved-search-run.js';
import { listSavedSearchRunRecords } from './saved-searches/list-saved-search-run-records.js';
import { listSavedSearchRuns } from './saved-searches/list-saved-search-runs.js';
import { listSavedSearches } from './saved-searches/list-saved-searches.js';
import { runSavedSearch } from './saved-searches/run-saved-search.js';
import { updateSavedSearch } from './saved-searches/update-saved-search.js';
import { companyCount } from './search/company-count.js';
import { companyTypeahead } from './search/company-typeahead.js';
import { locationTypeahead } from './search/location-typeahead.js';
import { peopleCount } from './search/people-count.js';
import { companySearch } from './search/company-search.js';
import { peopleSearch } from './search/people-search.js';
import { setLowBalanceThreshold } from './account/set-low-balance-threshold.js';
import { createWebhookEndpoint } from './webhooks/create-webhook-endpoint.js';
import { deleteWebhookEndpoint } from './webhooks/delete-webhook-endpoint.js';
import { getWebhookEndpoint } from './webhooks/get-webhook-endpoint.js';
import { listWebhookDeliveries } from './webhooks/list-webhook-deliveries.js';
import { listWebhookEndpoints } from './webhooks/list-webhook-endpoints.js';
import { resendWebhookDelivery } from './webhooks/resend-webhook-delivery.js';
import { rotateWebhookEndpointSecret } from './webhooks/rotate-webhook-endpoint-secret.js';
import { testWebhookEndpoint } from './webhooks/test-webhook-endpoint.js';
import { updateWebhookEndpoint } from './webhooks/update-webhook-endpoint.js';

/**
 * Every operation of the service, listed by hand so that adding one is a visible change.
 * Order: the audience workflow first, as agents read it, then the rest by category.
 */
export const operations: readonly AnyOperation[] = [
  companySearch,
  peopleSearch,
  companyCount,
  peopleCount,
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
  deleteAudience,
  createSavedSearch,
  listSavedSearches,
  getSavedSearch,
  updateSavedSearch,
  deleteSavedSearch,
  runSavedSearch,
  getSavedSearchRun,
  listSavedSearchRuns,
  listSavedSearchRunRecords,
  companyTypeahead,
  locationTypeahead,
  startBatchContactEnrichment,
  pollBatchContactEnrichment,
  revealContactSync,
  revealContactSingle,
  validateEmail,
  findPersonByWorkEmail,
  liveEnrichCompany,
  liveEnrichPerson,
  getCreditBalance,
  listRegions,
  listIndustries,
  listJobTitleTaxonomy,
  listTags,
  listLanguages,
  listTimeZones,
  listCountrySubdivisions,
  createExclusionList,
  listExclusionLists,
  listExclusionListEntries,
  addExclusionListEntries,
  removeExclusionListEntries,
  deleteExclusionList,
  createExclusionListFromAudience,
  createWebhookEndpoint,
  listWebhookEndpoints,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookEndpointSecret,
  testWebhookEndpoint,
  listWebhookDeliveries,
  resendWebhookDelivery,
  setLowBalanceThreshold,
];

const byId = new Map(operations.map((operation) => [operation.operationId, operation]));

export function findOperation(operationId: string): AnyOperation | undefined {
  return byId.get(operationId);
}

export {
  addExclusionListEntries,
  companyCount,
  companyTypeahead,
  createExclusionListFromAudience,
  createSavedSearch,
  deleteAudience,
  deleteExclusionList,
  deleteSavedSearch,
  findPersonByWorkEmail,
  getSavedSearch,
  getSavedSearchRun,
  listCountrySubdivisions,
  listExclusionListEntries,
  listExclusionLists,
  listLanguages,
  listSavedSearchRunRecords,
  listSavedSearchRuns,
  listSavedSearches,
  listTags,
  listTimeZones,
  locationTypeahead,
  peopleCount,
  removeExclusionListEntries,
  runSavedSearch,
  updateSavedSearch,
  validateEmail,
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
  listJobTitleTaxonomy,
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
  createWebhookEndpoint,
  listWebhookEndpoints,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookEndpointSecret,
  testWebhookEndpoint,
  listWebhookDeliveries,
  resendWebhookDelivery,
  setLowBalanceThreshold,
};
export type { AnyOperation, OperationDefinition } from './define.js';
