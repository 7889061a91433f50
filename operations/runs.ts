import type { BoundHandler } from '../src/runner/handler.js';
import { run as getCreditBalance } from './account/get-credit-balance/run.js';
import { run as getUsage } from './account/get-usage/run.js';
import { run as listRequestLog } from './account/list-request-log/run.js';
import { run as listCountrySubdivisions } from './account/list-country-subdivisions/run.js';
import { run as listIndustries } from './account/list-industries/run.js';
import { run as listLanguages } from './account/list-languages/run.js';
import { run as listRegions } from './account/list-regions/run.js';
import { run as listJobTitleTaxonomy } from './account/list-job-title-taxonomy/run.js';
import { run as listTags } from './account/list-tags/run.js';
import { run as listTimeZones } from './account/list-time-zones/run.js';
import { run as setLowBalanceThreshold } from './account/set-low-balance-threshold/run.js';
import { run as buildAudience } from './audiences/build-audience/run.js';
import { run as createAudience } from './audiences/create-audience/run.js';
import { run as deleteAudience } from './audiences/delete-audience/run.js';
import { run as exportCompanies } from './audiences/export-companies/run.js';
import { run as exportProspects } from './audiences/export-prospects/run.js';
import { run as getAudienceStatus } from './audiences/get-audience-status/run.js';
import { run as getExportStatus } from './audiences/get-export-status/run.js';
import { run as listAudienceCompanies } from './audiences/list-audience-companies/run.js';
import { run as listAudienceProspects } from './audiences/list-audience-prospects/run.js';
import { run as listAudiences } from './audiences/list-audiences/run.js';
import { run as updateAudienceSearchParams } from './audiences/update-audience-search-params/run.js';
import { run as findPersonByWorkEmail } from './contacts/find-person-by-work-email/run.js';
import { run as pollBatchContactEnrichment } from './contacts/poll-batch-contact-enrichment/run.js';
import { run as revealContactSingle } from './contacts/reveal-contact-single/run.js';
import { run as revealContactSync } from './contacts/reveal-contact-sync/run.js';
import { run as startBatchContactEnrichment } from './contacts/start-batch-contact-enrichment/run.js';
import { run as validateEmail } from './contacts/validate-email/run.js';
import { run as estimateEnrichmentCost } from './enrichment/estimate-enrichment-cost/run.js';
import { run as getEnrichmentStatus } from './enrichment/get-enrichment-status/run.js';
import { run as liveEnrichCompany } from './enrichment/live-enrich-company/run.js';
import { run as liveEnrichPerson } from './enrichment/live-enrich-person/run.js';
import { run as triggerEnrichment } from './enrichment/trigger-enrichment/run.js';
import { run as addExclusionListEntries } from './exclusion-lists/add-exclusion-list-entries/run.js';
import { run as createExclusionList } from './exclusion-lists/create-exclusion-list/run.js';
import { run as createExclusionListFromAudience } from './exclusion-lists/create-exclusion-list-from-audience/run.js';
import { run as deleteExclusionList } from './exclusion-lists/delete-exclusion-list/run.js';
import { run as listExclusionListEntries } from './exclusion-lists/list-exclusion-list-entries/run.js';
import { run as listExclusionLists } from './exclusion-lists/list-exclusion-lists/run.js';
import { run as removeExclusionListEntries } from './exclusion-lists/remove-exclusion-list-entries/run.js';
import { run as createSavedSearch } from './saved-searches/create-saved-search/run.js';
import { run as deleteSavedSearch } from './saved-searches/delete-saved-search/run.js';
import { run as getSavedSearch } from './saved-searches/get-saved-search/run.js';
import { run as getSavedSearchRun } from './saved-searches/get-saved-search-run/run.js';
import { run as listSavedSearchRunRecords } from './saved-searches/list-saved-search-run-records/run.js';
import { run as listSavedSearchRuns } from './saved-searches/list-saved-search-runs/run.js';
import { run as listSavedSearches } from './saved-searches/list-saved-searches/run.js';
import { run as runSavedSearch } from './saved-searches/run-saved-search/run.js';
import { run as updateSavedSearch } from './saved-searches/update-saved-search/run.js';
import { run as companyCount } from './search/company-count/run.js';
import { run as companySearch } from './search/company-search/run.js';
import { run as companyTypeahead } from './search/company-typeahead/run.js';
import { run as locationTypeahead } from './search/location-typeahead/run.js';
import { run as peopleCount } from './search/people-count/run.js';
import { run as peopleSearch } from './search/people-search/run.js';
import { run as parseSearchQuery } from './search/parse-search-query/run.js';
import { run as matchCompanies } from './matching/match-companies/run.js';
import { run as matchPeople } from './matching/match-people/run.js';
import { run as findSimilarCompanies } from './matching/find-similar-companies/run.js';
import { run as findSimilarPeople } from './matching/find-similar-people/run.js';
import { run as createWebhookEndpoint } from './webhooks/create-webhook-endpoint/run.js';
import { run as deleteWebhookEndpoint } from './webhooks/delete-webhook-endpoint/run.js';
import { run as getWebhookEndpoint } from './webhooks/get-webhook-endpoint/run.js';
import { run as listWebhookDeliveries } from './webhooks/list-webhook-deliveries/run.js';
import { run as listWebhookEndpoints } from './webhooks/list-webhook-endpoints/run.js';
import { run as resendWebhookDelivery } from './webhooks/resend-webhook-delivery/run.js';
import { run as rotateWebhookEndpointSecret } from './webhooks/rotate-webhook-endpoint-secret/run.js';
import { run as testWebhookEndpoint } from './webhooks/test-webhook-endpoint/run.js';
import { run as updateWebhookEndpoint } from './webhooks/update-webhook-endpoint/run.js';
import { run as createWatchList } from './watch-lists/create-watch-list/run.js';
import { run as listWatchLists } from './watch-lists/list-watch-lists/run.js';
import { run as getWatchList } from './watch-lists/get-watch-list/run.js';
import { run as updateWatchList } from './watch-lists/update-watch-list/run.js';
import { run as deleteWatchList } from './watch-lists/delete-watch-list/run.js';
import { run as addWatchListItems } from './watch-lists/add-watch-list-items/run.js';
import { run as addWatchListItemsFromAudience } from './watch-lists/add-watch-list-items-from-audience/run.js';
import { run as removeWatchListItems } from './watch-lists/remove-watch-list-items/run.js';
import { run as listWatchListItems } from './watch-lists/list-watch-list-items/run.js';
import { run as estimateWatchListCost } from './watch-lists/estimate-watch-list-cost/run.js';
import { run as listWatchListChanges } from './watch-lists/list-watch-list-changes/run.js';
import { run as countWatchListChanges } from './watch-lists/count-watch-list-changes/run.js';

/**
 * The function that runs each operation, in the order of `operations` (index.ts). Each is written
 * in run.ts beside the operation's definition.ts; the composition root (src/app.ts) hands this table
 * to the runner, and test/unit/api/registry.test.ts fails when an operation has no run.
 */
export const runs: readonly BoundHandler[] = [
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
