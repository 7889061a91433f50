/**
 * The first set: how users and agents ask for operations, with the operation each phrasing means. Some are
 * vague, some misspelled, some written as an agent would paraphrase a user. search_endpoints
 * is measured on this set (top-1 and top-3 accuracy).
 */
export const intents: readonly { query: string; expected: string }[] = [
  // companySearch
  { query: 'find software companies in Germany with 50 to 200 employees', expected: 'companySearch' },
  { query: 'search for series A startups in fintech', expected: 'companySearch' },
  { query: 'list organisations by industry and headcount', expected: 'companySearch' },
  { query: 'compnay serach by funding amount', expected: 'companySearch' },
  { query: 'build a TAM list of firms headquartered in the US', expected: 'companySearch' },
  { query: 'which businesses raised more than 10M', expected: 'companySearch' },
  // peopleSearch
  { query: 'find people with the title VP of Sales', expected: 'peopleSearch' },
  { query: 'search prospects who work at stripe.com', expected: 'peopleSearch' },
  { query: 'look for engineers with 10 years of experience in France', expected: 'peopleSearch' },
  { query: 'peple search by job titel', expected: 'peopleSearch' },
  { query: 'find decision makers and employees at a company', expected: 'peopleSearch' },
  { query: 'search profiles of CTOs', expected: 'peopleSearch' },
  // createAudience
  { query: 'create a new audience', expected: 'createAudience' },
  { query: 'start a new saved list of prospects', expected: 'createAudience' },
  { query: 'make an audiance called Q3 outbound', expected: 'createAudience' },
  // updateAudienceSearchParams
  { query: 'set the filters of my audience', expected: 'updateAudienceSearchParams' },
  { query: 'update audience search parameters before building', expected: 'updateAudienceSearchParams' },
  { query: 'change the criteria of a draft audience', expected: 'updateAudienceSearchParams' },
  // buildAudience
  { query: 'build the audience', expected: 'buildAudience' },
  { query: 'run the search for my audience and fill it with companies and prospects', expected: 'buildAudience' },
  { query: 'populate audience', expected: 'buildAudience' },
  // getAudienceStatus
  { query: 'is my audience ready yet', expected: 'getAudienceStatus' },
  { query: 'check audience build status', expected: 'getAudienceStatus' },
  { query: 'poll the audience until it is NORMAL', expected: 'getAudienceStatus' },
  // estimateEnrichmentCost
  { query: 'how much will enriching the audience cost', expected: 'estimateEnrichmentCost' },
  { query: 'estimate credits for enrichment', expected: 'estimateEnrichmentCost' },
  { query: 'price quote before enriching contacts', expected: 'estimateEnrichmentCost' },
  // triggerEnrichment
  { query: 'start enrichment of the audience', expected: 'triggerEnrichment' },
  { query: 'trigger enrichment to get work emails for all prospects', expected: 'triggerEnrichment' },
  { query: 'launch the enrichment run', expected: 'triggerEnrichment' },
  // getEnrichmentStatus
  { query: 'enrichment progress', expected: 'getEnrichmentStatus' },
  { query: 'is the enrichment done', expected: 'getEnrichmentStatus' },
  { query: 'poll enrichment status percent complete', expected: 'getEnrichmentStatus' },
  // exportCompanies
  { query: 'export the companies of an audience to CSV', expected: 'exportCompanies' },
  { query: 'download audience accounts as a csv file', expected: 'exportCompanies' },
  // exportProspects
  { query: 'export prospects to csv', expected: 'exportProspects' },
  { query: 'download the leads with emails as a spreadsheet', expected: 'exportProspects' },
  { query: 'exprot people from audience', expected: 'exportProspects' },
  // getExportStatus
  { query: 'is my export ready to download', expected: 'getExportStatus' },
  { query: 'export status and download link', expected: 'getExportStatus' },
  // listAudiences
  { query: 'list all my audiences', expected: 'listAudiences' },
  { query: 'which audiences do I have', expected: 'listAudiences' },
  // listAudienceCompanies
  { query: 'show the companies in an audience', expected: 'listAudienceCompanies' },
  { query: 'browse audience companies page by page', expected: 'listAudienceCompanies' },
  // listAudienceProspects
  { query: 'show the prospects in my audience with their contacts', expected: 'listAudienceProspects' },
  { query: 'view audience members', expected: 'listAudienceProspects' },
  // startBatchContactEnrichment
  { query: 'enrich a batch of profiles with emails', expected: 'startBatchContactEnrichment' },
  { query: 'bulk contact lookup for a list of profile urls', expected: 'startBatchContactEnrichment' },
  { query: 'submit many people for phone number enrichment', expected: 'startBatchContactEnrichment' },
  // pollBatchContactEnrichment
  { query: 'poll a batch contact enrichment job by task id', expected: 'pollBatchContactEnrichment' },
  { query: 'results of my bulk email lookup task', expected: 'pollBatchContactEnrichment' },
  // revealContactSync
  { query: 'get the email and phone of one person right now', expected: 'revealContactSync' },
  { query: 'reveal contact details for a profile url', expected: 'revealContactSync' },
  { query: 'find personal email of this person immediately', expected: 'revealContactSync' },
  // revealContactSingle
  { query: 'single contact reveal, one credit per attempt', expected: 'revealContactSingle' },
  { query: 'contact-details single lookup work email and direct phone', expected: 'revealContactSingle' },
  // liveEnrichCompany
  { query: 'fetch fresh live data for one company', expected: 'liveEnrichCompany' },
  { query: 'live enrich a company by its slug', expected: 'liveEnrichCompany' },
  { query: 'refresh company info from the network', expected: 'liveEnrichCompany' },
  // liveEnrichPerson
  { query: 'live fetch a profile', expected: 'liveEnrichPerson' },
  { query: 'get the latest data of a person profile with work history', expected: 'liveEnrichPerson' },
  { query: 'refresh one persons profile live', expected: 'liveEnrichPerson' },
  // getCreditBalance
  { query: 'how many credits do I have left', expected: 'getCreditBalance' },
  { query: 'check my balance', expected: 'getCreditBalance' },
  { query: 'remaining quota on my plan', expected: 'getCreditBalance' },
  { query: 'credit ballance', expected: 'getCreditBalance' },
  // listRegions
  { query: 'which regions and countries are supported', expected: 'listRegions' },
  { query: 'list of country codes for filtering', expected: 'listRegions' },
  // listIndustries
  { query: 'what industries can I filter by', expected: 'listIndustries' },
  { query: 'industry taxonomy', expected: 'listIndustries' },
  { query: 'list industrys', expected: 'listIndustries' },
  // createExclusionList
  { query: 'exclude my existing customers from results', expected: 'createExclusionList' },
  { query: 'create a suppression list of companies', expected: 'createExclusionList' },
  { query: 'do not contact list of people', expected: 'createExclusionList' },
  // Written after the first tuning round, as a check on generalisation; kept in the set.
  { query: 'companies in london with more than 500 staff', expected: 'companySearch' },
  { query: 'who is the head of marketing at acme', expected: 'peopleSearch' },
  { query: 'saas founders in berlin', expected: 'peopleSearch' },
  { query: 'new list for my campaign', expected: 'createAudience' },
  { query: 'add company and people filters to audience 12', expected: 'updateAudienceSearchParams' },
  { query: 'kick off the audience build', expected: 'buildAudience' },
  { query: 'how far along is the build', expected: 'getAudienceStatus' },
  { query: 'cost of getting phone numbers for my audience', expected: 'estimateEnrichmentCost' },
  { query: 'go ahead and enrich audience 5', expected: 'triggerEnrichment' },
  { query: 'enrichment finished?', expected: 'getEnrichmentStatus' },
  { query: 'send me the prospects csv by email', expected: 'exportProspects' },
  { query: 'company list export', expected: 'exportCompanies' },
  { query: 'my credits', expected: 'getCreditBalance' },
  { query: 'phone number for jane doe profile', expected: 'revealContactSync' },
  { query: 'live company data by domain or slug', expected: 'liveEnrichCompany' },
  { query: 'up to date profile of a person', expected: 'liveEnrichPerson' },
  { query: 'upload 500 profile links for email finding', expected: 'startBatchContactEnrichment' },
  { query: 'supported industry slugs', expected: 'listIndustries' },
  { query: 'countries i can filter on', expected: 'listRegions' },
  { query: 'blocklist competitors', expected: 'createExclusionList' },
  // The list-building operations (issue 13), added with them.
  // companyCount
  { query: 'how many companies match these filters', expected: 'companyCount' },
  { query: 'count fintech companies in the US before buying', expected: 'companyCount' },
  { query: 'size the market: number of SaaS firms with 50-200 employees', expected: 'companyCount' },
  // peopleCount
  { query: 'how many VPs of sales are there in France', expected: 'peopleCount' },
  { query: 'count prospects matching a title filter', expected: 'peopleCount' },
  { query: 'number of leads for this persona', expected: 'peopleCount' },
  // listExclusionLists
  { query: 'show my exclusion lists', expected: 'listExclusionLists' },
  { query: 'which suppression lists do I have', expected: 'listExclusionLists' },
  // listExclusionListEntries
  { query: 'what is in exclusion list 3', expected: 'listExclusionListEntries' },
  { query: 'read the entries of a suppression list, unmatched ones too', expected: 'listExclusionListEntries' },
  // addExclusionListEntries
  { query: 'add these domains to my existing exclusion list', expected: 'addExclusionListEntries' },
  { query: 'append new customers to the do not contact list', expected: 'addExclusionListEntries' },
  // removeExclusionListEntries
  { query: 'remove acme.com from the exclusion list', expected: 'removeExclusionListEntries' },
  { query: 'take a company off the suppression list', expected: 'removeExclusionListEntries' },
  // deleteExclusionList
  { query: 'delete an exclusion list', expected: 'deleteExclusionList' },
  { query: 'drop the whole suppression list', expected: 'deleteExclusionList' },
  // createExclusionListFromAudience
  { query: 'turn the prospects of my audience into an exclusion list', expected: 'createExclusionListFromAudience' },
  {
    query: 'suppress everyone already contacted in audience 7 from future lists',
    expected: 'createExclusionListFromAudience',
  },
  // deleteAudience
  { query: 'delete audience 12', expected: 'deleteAudience' },
  { query: 'cancel the build and get rid of this audience', expected: 'deleteAudience' },
  // createSavedSearch
  { query: 'alert me every week about new fintech startups', expected: 'createSavedSearch' },
  { query: 'save this search and watch for new matches daily', expected: 'createSavedSearch' },
  { query: 'monitor for new VPs of engineering at series B companies', expected: 'createSavedSearch' },
  // listSavedSearches
  { query: 'list my saved searches', expected: 'listSavedSearches' },
  { query: 'which watches and alerts are set up', expected: 'listSavedSearches' },
  // getSavedSearch
  { query: 'show saved search 4 and when it runs next', expected: 'getSavedSearch' },
  { query: 'details of a saved search', expected: 'getSavedSearch' },
  // updateSavedSearch
  { query: 'change my saved search to run daily', expected: 'updateSavedSearch' },
  { query: 'edit the filters of a saved search', expected: 'updateSavedSearch' },
  // deleteSavedSearch
  { query: 'delete saved search', expected: 'deleteSavedSearch' },
  { query: 'stop watching, unsubscribe from this alert', expected: 'deleteSavedSearch' },
  // runSavedSearch
  { query: 'run my saved search now', expected: 'runSavedSearch' },
  { query: 'check for new matches right now', expected: 'runSavedSearch' },
  // getSavedSearchRun
  { query: 'is the saved search run finished', expected: 'getSavedSearchRun' },
  { query: 'status of run 9 of my saved search', expected: 'getSavedSearchRun' },
  // listSavedSearchRuns
  { query: 'history of past runs of a saved search', expected: 'listSavedSearchRuns' },
  { query: 'list the runs of saved search 2', expected: 'listSavedSearchRuns' },
  // listSavedSearchRunRecords
  { query: 'show the new records a saved search run found', expected: 'listSavedSearchRunRecords' },
  { query: 'what is new since the last run', expected: 'listSavedSearchRunRecords' },
  // companyTypeahead
  { query: 'autocomplete company names starting with acm', expected: 'companyTypeahead' },
  { query: 'suggest companies as the user types', expected: 'companyTypeahead' },
  // locationTypeahead
  { query: 'autocomplete city names', expected: 'locationTypeahead' },
  { query: 'how do I spell the location filter for san francisco', expected: 'locationTypeahead' },
  // listTags
  { query: 'which prospect tags exist', expected: 'listTags' },
  { query: 'allowed values for specialFlags', expected: 'listTags' },
  // listLanguages
  { query: 'list languages', expected: 'listLanguages' },
  { query: 'language proficiency levels', expected: 'listLanguages' },
  // listTimeZones
  { query: 'time zones with utc offsets', expected: 'listTimeZones' },
  { query: 'iana timezone list', expected: 'listTimeZones' },
  // listCountrySubdivisions
  { query: 'ISO 3166-2 subdivisions of Canada', expected: 'listCountrySubdivisions' },
  { query: 'provinces and state codes for a country', expected: 'listCountrySubdivisions' },
  // validateEmail
  { query: 'is this email address valid', expected: 'validateEmail' },
  { query: 'verify an email before sending, check disposable and role addresses', expected: 'validateEmail' },
  // findPersonByWorkEmail
  { query: 'who owns this work email', expected: 'findPersonByWorkEmail' },
  { query: 'reverse email lookup to a profile', expected: 'findPersonByWorkEmail' },
  // createWebhookEndpoint
  { query: 'register a webhook url for job events', expected: 'createWebhookEndpoint' },
  { query: 'get pushed when an export is ready instead of polling', expected: 'createWebhookEndpoint' },
  // listWebhookEndpoints
  { query: 'list my webhook endpoints', expected: 'listWebhookEndpoints' },
  // getWebhookEndpoint
  { query: 'show the settings of webhook endpoint 3', expected: 'getWebhookEndpoint' },
  // updateWebhookEndpoint
  { query: 'disable webhook 2 for now', expected: 'updateWebhookEndpoint' },
  // deleteWebhookEndpoint
  { query: 'delete a webhook endpoint', expected: 'deleteWebhookEndpoint' },
  // rotateWebhookEndpointSecret
  { query: 'rotate the webhook signing secret', expected: 'rotateWebhookEndpointSecret' },
  // testWebhookEndpoint
  { query: 'send a test event to my webhook', expected: 'testWebhookEndpoint' },
  // listWebhookDeliveries
  { query: 'webhook delivery attempts and status codes', expected: 'listWebhookDeliveries' },
  // resendWebhookDelivery
  { query: 'resend a failed webhook delivery', expected: 'resendWebhookDelivery' },
  // setLowBalanceThreshold
  { query: 'set the low balance threshold for credits.low', expected: 'setLowBalanceThreshold' },
];
