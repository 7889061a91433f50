/**
 * How users and agents ask for operations, with the operation each phrasing means. Some are
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
];
