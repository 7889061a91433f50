import type { AnyOperation } from './define.js';
import { createExclusionList } from './exclusion-lists/create-exclusion-list/definition.js';
import { getCreditBalance } from './account/get-credit-balance/definition.js';
import { getUsage } from './account/get-usage/definition.js';
import { listRequestLog } from './account/list-request-log/definition.js';
import { listIndustries } from './account/list-industries/definition.js';
import { listJobTitleTaxonomy } from './account/list-job-title-taxonomy/definition.js';
import { listRegions } from './account/list-regions/definition.js';
import { buildAudience } from './audiences/build-audience/definition.js';
import { createAudience } from './audiences/create-audience/definition.js';
import { exportCompanies } from './audiences/export-companies/definition.js';
import { exportProspects } from './audiences/export-prospects/definition.js';
import { getAudienceStatus } from './audiences/get-audience-status/definition.js';
import { getExportStatus } from './audiences/get-export-status/definition.js';
import { listAudienceCompanies } from './audiences/list-audience-companies/definition.js';
import { listAudienceProspects } from './audiences/list-audience-prospects/definition.js';
import { listAudiences } from './audiences/list-audiences/definition.js';
import { updateAudienceSearchParams } from './audiences/update-audience-search-params/definition.js';
import { pollBatchContactEnrichment } from './contacts/poll-batch-contact-enrichment/definition.js';
import { revealContactSingle } from './contacts/reveal-contact-single/definition.js';
import { revealContactSync } from './contacts/reveal-contact-sync/definition.js';
import { startBatchContactEnrichment } from './contacts/start-batch-contact-enrichment/definition.js';
import { estimateEnrichmentCost } from './enrichment/estimate-enrichment-cost/definition.js';
import { getEnrichmentStatus } from './enrichment/get-enrichment-status/definition.js';
import { liveEnrichCompany } from './enrichment/live-enrich-company/definition.js';
import { liveEnrichPerson } from './enrichment/live-enrich-person/definition.js';
import { triggerEnrichment } from './enrichment/trigger-enrichment/definition.js';
import { listCountrySubdivisions } from './account/list-country-subdivisions/definition.js';
import { listLanguages } from './account/list-languages/definition.js';
import { listTags } from './account/list-tags/definition.js';
import { listTimeZones } from './account/list-time-zones/definition.js';
import { deleteAudience } from './audiences/delete-audience/definition.js';
import { findPersonByWorkEmail } from './contacts/find-person-by-work-email/definition.js';
import { validateEmail } from './contacts/validate-email/definition.js';
import { addExclusionListEntries } from './exclusion-lists/add-exclusion-list-entries/definition.js';
import { createExclusionListFromAudience } from './exclusion-lists/create-exclusion-list-from-audience/definition.js';
import { deleteExclusionList } from './exclusion-lists/delete-exclusion-list/definition.js';
import { listExclusionListEntries } from './exclusion-lists/list-exclusion-list-entries/definition.js';
import { listExclusionLists } from './exclusion-lists/list-exclusion-lists/definition.js';
import { removeExclusionListEntries } from './exclusion-lists/remove-exclusion-list-entries/definition.js';
import { createSavedSearch } from './saved-searches/create-saved-search/definition.js';
import { deleteSavedSearch } from './saved-searches/delete-saved-search/definition.js';
import { getSavedSearch } from './saved-searches/get-saved-search/definition.js';
import { getSavedSearchRun } from './saved-searches/get-saved-search-run/definition.js';
import { listSavedSearchRunRecords } from './saved-searches/list-saved-search-run-records/definition.js';
import { listSavedSearchRuns } from './saved-searches/list-saved-search-runs/definition.js';
import { listSavedSearches } from './saved-searches/list-saved-searches/definition.js';
import { runSavedSearch } from './saved-searches/run-saved-search/definition.js';
import { updateSavedSearch } from './saved-searches/update-saved-search/definition.js';
import { companyCount } from './search/company-count/definition.js';
import { companyTypeahead } from './search/company-typeahead/definition.js';
import { locationTypeahead } from './search/location-typeahead/definition.js';
import { peopleCount } from './search/people-count/definition.js';
import { companySearch } from './search/company-search/definition.js';
import { peopleSearch } from './search/people-search/definition.js';
import { parseSearchQuery } from './search/parse-search-query/definition.js';
import { matchCompanies } from './matching/match-companies/definition.js';
import { matchPeople } from './matching/match-people/definition.js';
import { findSimilarCompanies } from './matching/find-similar-companies/definition.js';
import { findSimilarPeople } from './matching/find-similar-people/definition.js';
import { setLowBalanceThreshold } from './account/set-low-balance-threshold/definition.js';
import { createWebhookEndpoint } from './webhooks/create-webhook-endpoint/definition.js';
import { deleteWebhookEndpoint } from './webhooks/delete-webhook-endpoint/definition.js';
import { getWebhookEndpoint } from './webhooks/get-webhook-endpoint/definition.js';
import { listWebhookDeliveries } from './webhooks/list-webhook-deliveries/definition.js';
import { listWebhookEndpoints } from './webhooks/list-webhook-endpoints/definition.js';
import { resendWebhookDelivery } from './webhooks/resend-webhook-delivery/definition.js';
import { rotateWebhookEndpointSecret } from './webhooks/rotate-webhook-endpoint-secret/definition.js';
import { testWebhookEndpoint } from './webhooks/test-webhook-endpoint/definition.js';
import { updateWebhookEndpoint } from './webhooks/update-webhook-endpoint/definition.js';
import { createWatchList } from './watch-lists/create-watch-list/definition.js';
import { listWatchLists } from './watch-lists/list-watch-lists/definition.js';
import { getWatchList } from './watch-lists/get-watch-list/definition.js';
import { updateWatchList } from './watch-lists/update-watch-list/definition.js';
import { deleteWatchList } from './watch-lists/delete-watch-list/definition.js';
import { addWatchListItems } from './watch-lists/add-watch-list-items/definition.js';
import { addWatchListItemsFromAudience } from './watch-lists/add-watch-list-items-from-audience/definition.js';
import { removeWatchListItems } from './watch-lists/remove-watch-list-items/definition.js';
import { listWatchListItems } from './watch-lists/list-watch-list-items/definition.js';
import { estimateWatchListCost } from './watch-lists/estimate-watch-list-cost/definition.js';
import { listWatchListChanges } from './watch-lists/list-watch-list-changes/definition.js';
import { countWatchListChanges } from './watch-lists/count-watch-list-changes/definition.js';

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
  parseSearchQuery,
  matchCompanies,
  matchPeople,
  findSimilarCompanies,
  findSimilarPeople,
  startBatchContactEnrichment,
  pollBatchContactEnrichment,
  revealContactSync,
  revealContactSingle,
  validateEmail,
  findPersonByWorkEmail,
  liveEnrichCompany,
  liveEnrichPerson,
  getCreditBalance,
  getUsage,
  listRequestLog,
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
  createWatchList,
  listWatchLists,
  getWatchList,
  updateWatchList,
  deleteWatchList,
  addWatchListItems,
  addWatchListItemsFromAudience,
  removeWatchListItems,
  listWatchListItems,
  estimateWatchListCost,
  listWatchListChanges,
  countWatchListChanges,
];

const byId = new Map(operations.map((operation) => [operation.operationId, operation]));

export function findOperation(operationId: string): AnyOperation | undefined {
  return byId.get(operationId);
}

export {
  addExclusionListEntries,
  matchCompanies,
  matchPeople,
  parseSearchQuery,
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
  getUsage,
  listRequestLog,
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
  createWatchList,
  listWatchLists,
  getWatchList,
  updateWatchList,
  deleteWatchList,
  addWatchListItems,
  addWatchListItemsFromAudience,
  removeWatchListItems,
  listWatchListItems,
  estimateWatchListCost,
  listWatchListChanges,
  countWatchListChanges,
};
export type { AnyOperation, OperationDefinition } from './define.js';
