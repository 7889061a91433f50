/**
 * The generalisation set of search_endpoints: how people and agents ask for each operation, written
 * before the ranker was changed for issue 13, in five styles, without looking at the ranker's answers:
 *   terse      a few words, as typed into a search box
 *   verbose    a whole sentence or two of context
 *   quoted     a user's request as an agent passes it on
 *   non-native English with the mistakes of a non-native writer
 *   unseen     words that appear in no operation's title, summary, description or keywords
 * The split into a tuning set (which the ranker's authors may look at) and a held-out set (which is
 * only ever scored) is fixed by the text of each query: see split.ts.
 */
export type Style = 'terse' | 'verbose' | 'quoted' | 'non-native' | 'unseen';

export interface Phrasing {
  query: string;
  expected: string;
  style: Style;
}

export const phrasings: readonly Phrasing[] = [
  // companySearch
  { query: 'b2b saas companies in the nordics', expected: 'companySearch', style: 'terse' },
  {
    query: 'I am building a target account list and need logistics firms in Spain and Portugal with 200 to 1000 staff',
    expected: 'companySearch',
    style: 'verbose',
  },
  {
    query: 'User: "get me a list of German medtech startups that raised a Series B"',
    expected: 'companySearch',
    style: 'quoted',
  },
  { query: 'i search enterprises of insurance sector in italy', expected: 'companySearch', style: 'non-native' },
  { query: 'shops selling outdoor gear, mid-sized, US west coast', expected: 'companySearch', style: 'unseen' },
  { query: 'companies founded after 2018 with more than 20M raised', expected: 'companySearch', style: 'terse' },
  { query: 'pull up organisations whose description mentions kubernetes', expected: 'companySearch', style: 'verbose' },
  { query: 'which vendors make payroll software in canada', expected: 'companySearch', style: 'unseen' },
  // peopleSearch
  { query: 'heads of procurement at french retailers', expected: 'peopleSearch', style: 'terse' },
  {
    query:
      'Find me the people running data engineering teams at fintechs in London, ideally with 8+ years in the job market',
    expected: 'peopleSearch',
    style: 'verbose',
  },
  {
    query: 'The user asked: "who are the CFOs at companies like stripe.com and adyen.com?"',
    expected: 'peopleSearch',
    style: 'quoted',
  },
  {
    query: 'i need persons which are working as recruiter in netherlands',
    expected: 'peopleSearch',
    style: 'non-native',
  },
  { query: 'stanford alumni now doing product management', expected: 'peopleSearch', style: 'unseen' },
  { query: 'senior devops folks who speak german', expected: 'peopleSearch', style: 'unseen' },
  { query: 'chief revenue officers in australia', expected: 'peopleSearch', style: 'terse' },
  {
    query: 'employees of acme.com with the word partnerships in their title',
    expected: 'peopleSearch',
    style: 'verbose',
  },
  // companyCount
  { query: 'how many saas companies are there in france', expected: 'companyCount', style: 'terse' },
  {
    query:
      'Before we buy anything, tell me roughly how big the market of US dental clinics with 10-50 employees is in number of firms',
    expected: 'companyCount',
    style: 'verbose',
  },
  {
    query: 'User: "how many fintech companies in germany match, just the number please"',
    expected: 'companyCount',
    style: 'quoted',
  },
  {
    query: 'number of enterprises matching my filters without paying for them',
    expected: 'companyCount',
    style: 'non-native',
  },
  { query: 'size of my ICP in firms, no records', expected: 'companyCount', style: 'unseen' },
  // peopleCount
  { query: 'how many marketing directors in spain', expected: 'peopleCount', style: 'terse' },
  {
    query: 'I want to know the number of people with a VP Sales title in the UK before I pull any profiles',
    expected: 'peopleCount',
    style: 'verbose',
  },
  {
    query: 'The user wants: "tell me how many CTOs work at series A startups, no need to list them"',
    expected: 'peopleCount',
    style: 'quoted',
  },
  { query: 'how much persons have title engineer in poland', expected: 'peopleCount', style: 'non-native' },
  { query: 'headcount of nurses matching these criteria, just the figure', expected: 'peopleCount', style: 'unseen' },
  // createAudience
  { query: 'new audience', expected: 'createAudience', style: 'terse' },
  {
    query: 'I want to start putting together a list of prospects for our Q4 outbound campaign, called EMEA Q4',
    expected: 'createAudience',
    style: 'verbose',
  },
  { query: 'User: "set up a fresh audience named Healthcare CIOs"', expected: 'createAudience', style: 'quoted' },
  { query: 'make please one new audience for my campagne', expected: 'createAudience', style: 'non-native' },
  { query: 'open a blank draft for a target group', expected: 'createAudience', style: 'unseen' },
  // updateAudienceSearchParams
  { query: 'set audience filters', expected: 'updateAudienceSearchParams', style: 'terse' },
  {
    query:
      'The audience I just created is still a draft; I need to tell it to take software companies in Germany and only VPs',
    expected: 'updateAudienceSearchParams',
    style: 'verbose',
  },
  {
    query: 'User: "limit audience 42 to 200 companies and 1000 prospects max"',
    expected: 'updateAudienceSearchParams',
    style: 'quoted',
  },
  {
    query: 'how i put the criterias on my audience before it is build',
    expected: 'updateAudienceSearchParams',
    style: 'non-native',
  },
  { query: 'configure who goes into the draft segment', expected: 'updateAudienceSearchParams', style: 'unseen' },
  // buildAudience
  { query: 'build audience', expected: 'buildAudience', style: 'terse' },
  {
    query: 'My audience has its filters now, so go and actually collect the companies and the people into it',
    expected: 'buildAudience',
    style: 'verbose',
  },
  { query: 'User: "ok, generate the audience now"', expected: 'buildAudience', style: 'quoted' },
  {
    query: 'please to fill my audience with the results of the filters',
    expected: 'buildAudience',
    style: 'non-native',
  },
  { query: 'materialise the draft segment', expected: 'buildAudience', style: 'unseen' },
  // getAudienceStatus
  { query: 'audience status', expected: 'getAudienceStatus', style: 'terse' },
  {
    query:
      'I started building the audience a minute ago and want to know whether it has finished and how many companies it got',
    expected: 'getAudienceStatus',
    style: 'verbose',
  },
  { query: 'User: "is my audience done building yet?"', expected: 'getAudienceStatus', style: 'quoted' },
  { query: 'the audience build, it is finish or still going?', expected: 'getAudienceStatus', style: 'non-native' },
  { query: 'did the segment build fail', expected: 'getAudienceStatus', style: 'unseen' },
  { query: 'has the list finished populating', expected: 'getAudienceStatus', style: 'unseen' },
  // estimateEnrichmentCost
  { query: 'enrichment cost estimate', expected: 'estimateEnrichmentCost', style: 'terse' },
  {
    query:
      'Before I commit to anything I would like to know how many credits it would take to get work emails for everyone in audience 9',
    expected: 'estimateEnrichmentCost',
    style: 'verbose',
  },
  {
    query: 'User: "what will it cost to add phone numbers to my audience?"',
    expected: 'estimateEnrichmentCost',
    style: 'quoted',
  },
  {
    query: 'how expensive is to enrich my audience, i want know before',
    expected: 'estimateEnrichmentCost',
    style: 'non-native',
  },
  {
    query: 'ballpark the spend for appending contact data to the segment',
    expected: 'estimateEnrichmentCost',
    style: 'unseen',
  },
  // triggerEnrichment
  { query: 'run enrichment on audience', expected: 'triggerEnrichment', style: 'terse' },
  {
    query:
      'The user saw the estimate and agreed, so start the enrichment of audience 12 with work emails and phones now',
    expected: 'triggerEnrichment',
    style: 'verbose',
  },
  { query: 'User: "yes, go ahead and enrich the audience"', expected: 'triggerEnrichment', style: 'quoted' },
  {
    query: 'begin the enrichment for my audience please, the price is ok for me',
    expected: 'triggerEnrichment',
    style: 'non-native',
  },
  { query: 'kick off contact appending for the whole segment', expected: 'triggerEnrichment', style: 'unseen' },
  // getEnrichmentStatus
  { query: 'enrichment status', expected: 'getEnrichmentStatus', style: 'terse' },
  {
    query: 'I triggered enrichment on the audience a while ago; which step is it on and how far along is it?',
    expected: 'getEnrichmentStatus',
    style: 'verbose',
  },
  { query: 'User: "has the enrichment finished?"', expected: 'getEnrichmentStatus', style: 'quoted' },
  { query: 'the enrichment is still running or it is finish?', expected: 'getEnrichmentStatus', style: 'non-native' },
  { query: 'did the contact appending fail', expected: 'getEnrichmentStatus', style: 'unseen' },
  // exportCompanies
  { query: 'export audience companies csv', expected: 'exportCompanies', style: 'terse' },
  {
    query: 'I need the accounts from my audience in a file I can import into Salesforce, companies only',
    expected: 'exportCompanies',
    style: 'verbose',
  },
  { query: 'User: "send me the company list of the audience as a CSV"', expected: 'exportCompanies', style: 'quoted' },
  { query: 'i want download the firms of my audience in excel', expected: 'exportCompanies', style: 'non-native' },
  { query: 'dump the organisations of the segment to a sheet', expected: 'exportCompanies', style: 'unseen' },
  // exportProspects
  { query: 'export prospects', expected: 'exportProspects', style: 'terse' },
  {
    query:
      'Now that the enrichment is done, give me a CSV of all the people in the audience with their emails, only those that have contacts',
    expected: 'exportProspects',
    style: 'verbose',
  },
  { query: 'User: "download the leads from audience 7"', expected: 'exportProspects', style: 'quoted' },
  {
    query: 'i want the persons of my audience in a file for import in hubspot',
    expected: 'exportProspects',
    style: 'non-native',
  },
  { query: 'dump the individuals in the segment to a sheet', expected: 'exportProspects', style: 'unseen' },
  // getExportStatus
  { query: 'export download link', expected: 'getExportStatus', style: 'terse' },
  {
    query: 'I asked for an export of the audience a moment ago; is the file ready and where do I download it?',
    expected: 'getExportStatus',
    style: 'verbose',
  },
  { query: 'User: "is my CSV ready?"', expected: 'getExportStatus', style: 'quoted' },
  { query: 'where i find the link of my export, it is ready?', expected: 'getExportStatus', style: 'non-native' },
  { query: 'did the file generation fail', expected: 'getExportStatus', style: 'unseen' },
  // listAudiences
  { query: 'my audiences', expected: 'listAudiences', style: 'terse' },
  {
    query: 'Show me every audience I have created on this account so far, with their states',
    expected: 'listAudiences',
    style: 'verbose',
  },
  { query: 'User: "what lists have I built already?"', expected: 'listAudiences', style: 'quoted' },
  { query: 'which audiences i have made before', expected: 'listAudiences', style: 'non-native' },
  { query: 'overview of all my segments', expected: 'listAudiences', style: 'unseen' },
  // listAudienceCompanies
  { query: 'companies in audience', expected: 'listAudienceCompanies', style: 'terse' },
  {
    query: 'I do not want a file; just let me page through the companies that ended up in audience 3',
    expected: 'listAudienceCompanies',
    style: 'verbose',
  },
  { query: 'User: "which accounts made it into my audience?"', expected: 'listAudienceCompanies', style: 'quoted' },
  { query: 'show me the firms inside of my audience', expected: 'listAudienceCompanies', style: 'non-native' },
  { query: 'peek at the organisations of the segment', expected: 'listAudienceCompanies', style: 'unseen' },
  // listAudienceProspects
  { query: 'prospects in audience', expected: 'listAudienceProspects', style: 'terse' },
  {
    query: 'Let me look at the people in audience 3 with the emails the enrichment found, without exporting anything',
    expected: 'listAudienceProspects',
    style: 'verbose',
  },
  { query: 'User: "who is in my audience?"', expected: 'listAudienceProspects', style: 'quoted' },
  {
    query: 'show me the persons inside of my audience with they emails',
    expected: 'listAudienceProspects',
    style: 'non-native',
  },
  { query: 'peek at the individuals of the segment', expected: 'listAudienceProspects', style: 'unseen' },
  // deleteAudience
  { query: 'delete audience', expected: 'deleteAudience', style: 'terse' },
  {
    query: 'I made a mistake with audience 14 and want it gone completely, including its exports',
    expected: 'deleteAudience',
    style: 'verbose',
  },
  { query: 'User: "throw away that audience, I do not need it anymore"', expected: 'deleteAudience', style: 'quoted' },
  { query: 'how i can remove one audience that i dont use', expected: 'deleteAudience', style: 'non-native' },
  { query: 'trash the segment and halt its build', expected: 'deleteAudience', style: 'unseen' },
  // createSavedSearch
  { query: 'alert me on new companies matching', expected: 'createSavedSearch', style: 'terse' },
  {
    query:
      'Every Monday I want to hear about new VPs of Marketing in Germany that show up, without rerunning the search myself',
    expected: 'createSavedSearch',
    style: 'verbose',
  },
  {
    query: 'User: "watch for new fintech startups in France and tell me weekly"',
    expected: 'createSavedSearch',
    style: 'quoted',
  },
  {
    query: 'i want be notified each day when new leads appear for my filter',
    expected: 'createSavedSearch',
    style: 'non-native',
  },
  { query: 'set up a recurring prospect feed', expected: 'createSavedSearch', style: 'unseen' },
  // listSavedSearches
  { query: 'my saved searches', expected: 'listSavedSearches', style: 'terse' },
  {
    query: 'Show me all the searches I have asked the service to watch, with how often each one runs',
    expected: 'listSavedSearches',
    style: 'verbose',
  },
  { query: 'User: "which alerts do I have set up?"', expected: 'listSavedSearches', style: 'quoted' },
  { query: 'list of all my watch searches please', expected: 'listSavedSearches', style: 'non-native' },
  { query: 'overview of my recurring feeds', expected: 'listSavedSearches', style: 'unseen' },
  // getSavedSearch
  { query: 'saved search details', expected: 'getSavedSearch', style: 'terse' },
  {
    query: 'I want to read the filters and the schedule of saved search 5, and when it runs next',
    expected: 'getSavedSearch',
    style: 'verbose',
  },
  { query: 'User: "what does my fintech alert look for exactly?"', expected: 'getSavedSearch', style: 'quoted' },
  {
    query: 'show me the settings of one saved search, when is next run',
    expected: 'getSavedSearch',
    style: 'non-native',
  },
  { query: 'inspect a single watch definition', expected: 'getSavedSearch', style: 'unseen' },
  // updateSavedSearch
  { query: 'change saved search schedule to weekly', expected: 'updateSavedSearch', style: 'terse' },
  {
    query: 'My saved search for CTOs runs daily, which is too often; make it weekly and rename it CTO watch',
    expected: 'updateSavedSearch',
    style: 'verbose',
  },
  { query: 'User: "pause my fintech alert, set it to manual"', expected: 'updateSavedSearch', style: 'quoted' },
  { query: 'i need modify the filters of my saved search', expected: 'updateSavedSearch', style: 'non-native' },
  { query: 'tweak the cadence of a watch', expected: 'updateSavedSearch', style: 'unseen' },
  // deleteSavedSearch
  { query: 'delete saved search', expected: 'deleteSavedSearch', style: 'terse' },
  {
    query: 'I no longer need the weekly alert on new CFOs; remove it and stop its runs',
    expected: 'deleteSavedSearch',
    style: 'verbose',
  },
  { query: 'User: "unsubscribe me from that company alert"', expected: 'deleteSavedSearch', style: 'quoted' },
  { query: 'how i stop and remove a saved search forever', expected: 'deleteSavedSearch', style: 'non-native' },
  { query: 'get rid of a watch', expected: 'deleteSavedSearch', style: 'unseen' },
  // runSavedSearch
  { query: 'run saved search now', expected: 'runSavedSearch', style: 'terse' },
  {
    query: 'I do not want to wait for Monday: check saved search 8 right now for anything new since last time',
    expected: 'runSavedSearch',
    style: 'verbose',
  },
  { query: 'User: "refresh my alert and see what is new"', expected: 'runSavedSearch', style: 'quoted' },
  { query: 'execute my saved search one time manually please', expected: 'runSavedSearch', style: 'non-native' },
  { query: 'fire the watch immediately', expected: 'runSavedSearch', style: 'unseen' },
  // getSavedSearchRun
  { query: 'saved search run status', expected: 'getSavedSearchRun', style: 'terse' },
  {
    query: 'I started a run of my saved search; has that run completed, and how many new records did it turn up?',
    expected: 'getSavedSearchRun',
    style: 'verbose',
  },
  { query: 'User: "is the alert run finished?"', expected: 'getSavedSearchRun', style: 'quoted' },
  { query: 'the run of saved search, it is finish or fail?', expected: 'getSavedSearchRun', style: 'non-native' },
  { query: 'did the watch execution crash', expected: 'getSavedSearchRun', style: 'unseen' },
  // listSavedSearchRuns
  { query: 'saved search run history', expected: 'listSavedSearchRuns', style: 'terse' },
  {
    query: 'Show me every past run of saved search 3 with how many new records each one found and what each cost',
    expected: 'listSavedSearchRuns',
    style: 'verbose',
  },
  { query: 'User: "when did my alert run before?"', expected: 'listSavedSearchRuns', style: 'quoted' },
  { query: 'list of previous runs of my saved search', expected: 'listSavedSearchRuns', style: 'non-native' },
  { query: 'timeline of executions of a watch', expected: 'listSavedSearchRuns', style: 'unseen' },
  // listSavedSearchRunRecords
  { query: 'new records from saved search run', expected: 'listSavedSearchRunRecords', style: 'terse' },
  {
    query: 'The last run of my saved search found 12 new companies; I want to see which ones they are',
    expected: 'listSavedSearchRunRecords',
    style: 'verbose',
  },
  { query: 'User: "show me what my alert found this week"', expected: 'listSavedSearchRunRecords', style: 'quoted' },
  {
    query: 'i want see the new matches that the run of saved search has found',
    expected: 'listSavedSearchRunRecords',
    style: 'non-native',
  },
  {
    query: 'fresh hits surfaced by the latest watch execution',
    expected: 'listSavedSearchRunRecords',
    style: 'unseen',
  },
  // companyTypeahead
  { query: 'autocomplete company name', expected: 'companyTypeahead', style: 'terse' },
  {
    query: 'The user has typed "Micro" into a field and I want to suggest matching company names with their domains',
    expected: 'companyTypeahead',
    style: 'verbose',
  },
  {
    query: 'User: "what is the domain of the company called Acme Robotics?"',
    expected: 'companyTypeahead',
    style: 'quoted',
  },
  { query: 'complete the name of company when i start to write it', expected: 'companyTypeahead', style: 'non-native' },
  { query: 'resolve a partial firm name to its id', expected: 'companyTypeahead', style: 'unseen' },
  // locationTypeahead
  { query: 'autocomplete city', expected: 'locationTypeahead', style: 'terse' },
  {
    query: 'The user typed "San Fr" as a location and I need to know the exact filter values for that city',
    expected: 'locationTypeahead',
    style: 'verbose',
  },
  { query: 'User: "how do I spell the state of Bavaria in a filter?"', expected: 'locationTypeahead', style: 'quoted' },
  { query: 'suggestion of places when i type the begin of name', expected: 'locationTypeahead', style: 'non-native' },
  { query: 'match a partial town name to its filter value', expected: 'locationTypeahead', style: 'unseen' },
  // startBatchContactEnrichment
  { query: 'bulk email finder for profile list', expected: 'startBatchContactEnrichment', style: 'terse' },
  {
    query: 'I have 300 profile URLs in a spreadsheet and want emails and phones for all of them, in the background',
    expected: 'startBatchContactEnrichment',
    style: 'verbose',
  },
  {
    query: 'User: "find emails for these 50 LinkedIn-style profile links"',
    expected: 'startBatchContactEnrichment',
    style: 'quoted',
  },
  {
    query: 'i have many profiles, i want get the contacts of all in one time',
    expected: 'startBatchContactEnrichment',
    style: 'non-native',
  },
  {
    query: 'mass lookup of phone numbers for a pile of people',
    expected: 'startBatchContactEnrichment',
    style: 'unseen',
  },
  // pollBatchContactEnrichment
  { query: 'batch contact job results', expected: 'pollBatchContactEnrichment', style: 'terse' },
  {
    query:
      'I submitted a batch of profiles for contact enrichment and got a taskId; I want its progress and the emails found so far',
    expected: 'pollBatchContactEnrichment',
    style: 'verbose',
  },
  { query: 'User: "is the bulk email lookup done?"', expected: 'pollBatchContactEnrichment', style: 'quoted' },
  {
    query: 'how i see the results of my batch of contacts',
    expected: 'pollBatchContactEnrichment',
    style: 'non-native',
  },
  { query: 'check on the mass phone lookup', expected: 'pollBatchContactEnrichment', style: 'unseen' },
  // revealContactSync
  { query: 'email and phone of this profile', expected: 'revealContactSync', style: 'terse' },
  {
    query: "I have one person's profile URL and need their personal email and mobile number right now, not in a batch",
    expected: 'revealContactSync',
    style: 'verbose',
  },
  { query: 'User: "get me Jane Doe\'s cell number from her profile"', expected: 'revealContactSync', style: 'quoted' },
  { query: 'i want the contacts of one person immediately', expected: 'revealContactSync', style: 'non-native' },
  { query: "unlock a single individual's mobile and personal address", expected: 'revealContactSync', style: 'unseen' },
  // revealContactSingle
  { query: 'cheap single contact lookup', expected: 'revealContactSingle', style: 'terse' },
  {
    query: 'I only need one try at a work email plus a direct dial for this profile, at the lowest price',
    expected: 'revealContactSingle',
    style: 'verbose',
  },
  {
    query: 'User: "just one attempt at the work email and direct line for this guy, 1 credit"',
    expected: 'revealContactSingle',
    style: 'quoted',
  },
  {
    query: 'one time try to get work mail and direct phone for 1 credit',
    expected: 'revealContactSingle',
    style: 'non-native',
  },
  { query: 'budget one-shot business address plus desk line', expected: 'revealContactSingle', style: 'unseen' },
  // validateEmail
  { query: 'validate email address', expected: 'validateEmail', style: 'terse' },
  {
    query: 'Before I send this campaign I want to know whether john@acme.com will bounce or is a throwaway address',
    expected: 'validateEmail',
    style: 'verbose',
  },
  { query: 'User: "is sales@example.com a real mailbox?"', expected: 'validateEmail', style: 'quoted' },
  { query: 'check if this mail is good or fake before i send', expected: 'validateEmail', style: 'non-native' },
  { query: 'will this inbox accept messages', expected: 'validateEmail', style: 'unseen' },
  // findPersonByWorkEmail
  { query: 'who owns this work email', expected: 'findPersonByWorkEmail', style: 'terse' },
  {
    query: 'I got a reply from j.smith@globex.com and want to know who that is: name, title and company',
    expected: 'findPersonByWorkEmail',
    style: 'verbose',
  },
  { query: 'User: "find the person behind anna@initech.com"', expected: 'findPersonByWorkEmail', style: 'quoted' },
  {
    query: 'i have email of someone, i want know his name and his job',
    expected: 'findPersonByWorkEmail',
    style: 'non-native',
  },
  { query: 'put a face to a corporate address', expected: 'findPersonByWorkEmail', style: 'unseen' },
  // liveEnrichCompany
  { query: 'live company data', expected: 'liveEnrichCompany', style: 'terse' },
  {
    query:
      'The stored record of this company looks old; pull its current headcount and details straight from the network',
    expected: 'liveEnrichCompany',
    style: 'verbose',
  },
  {
    query: 'User: "get the latest info on acme-corp from the network"',
    expected: 'liveEnrichCompany',
    style: 'quoted',
  },
  { query: 'i want actual informations of one company, not old', expected: 'liveEnrichCompany', style: 'non-native' },
  { query: 'up-to-the-minute firmographics for a single firm', expected: 'liveEnrichCompany', style: 'unseen' },
  // liveEnrichPerson
  { query: 'live profile fetch', expected: 'liveEnrichPerson', style: 'terse' },
  {
    query:
      'This person may have changed jobs; fetch their current profile from the network with work history and education',
    expected: 'liveEnrichPerson',
    style: 'verbose',
  },
  { query: 'User: "refresh jane-doe\'s profile, I think she moved"', expected: 'liveEnrichPerson', style: 'quoted' },
  {
    query: 'i want actual informations of one person profile, not old',
    expected: 'liveEnrichPerson',
    style: 'non-native',
  },
  {
    query: 'current employer and career history of an individual, straight from the source',
    expected: 'liveEnrichPerson',
    style: 'unseen',
  },
  // getCreditBalance
  { query: 'credit balance', expected: 'getCreditBalance', style: 'terse' },
  {
    query: 'Before I start a big job I want to know how many credits my account still has and which plan it is on',
    expected: 'getCreditBalance',
    style: 'verbose',
  },
  { query: 'User: "how much budget do I have left?"', expected: 'getCreditBalance', style: 'quoted' },
  { query: 'how many credit rest on my account', expected: 'getCreditBalance', style: 'non-native' },
  { query: 'what is in my wallet', expected: 'getCreditBalance', style: 'terse' },
  { query: 'am I running out of funds', expected: 'getCreditBalance', style: 'unseen' },
  // listRegions
  { query: 'supported countries', expected: 'listRegions', style: 'terse' },
  {
    query: 'I need the list of country codes and world regions that the location filters accept',
    expected: 'listRegions',
    style: 'verbose',
  },
  { query: 'User: "which countries can I filter on?"', expected: 'listRegions', style: 'quoted' },
  { query: 'list of the countrys and regions availables', expected: 'listRegions', style: 'non-native' },
  { query: 'valid nation codes', expected: 'listRegions', style: 'unseen' },
  // listIndustries
  { query: 'industry list', expected: 'listIndustries', style: 'terse' },
  {
    query: 'I need the exact industry slugs I can put in industriesV2, with their names',
    expected: 'listIndustries',
    style: 'verbose',
  },
  { query: 'User: "what sectors does the database know?"', expected: 'listIndustries', style: 'quoted' },
  { query: 'which industrys exist for the filter', expected: 'listIndustries', style: 'non-native' },
  { query: 'valid line-of-business values', expected: 'listIndustries', style: 'unseen' },
  // listTags
  { query: 'prospect tags', expected: 'listTags', style: 'terse' },
  {
    query:
      'Which values does the tags filter take, and which funding stages and special flags can I filter companies by?',
    expected: 'listTags',
    style: 'verbose',
  },
  { query: 'User: "what funding stages can I filter on?"', expected: 'listTags', style: 'quoted' },
  { query: 'which tag i can use for filter the persons', expected: 'listTags', style: 'non-native' },
  { query: 'allowed persona markers', expected: 'listTags', style: 'unseen' },
  // listLanguages
  { query: 'languages list', expected: 'listLanguages', style: 'terse' },
  {
    query:
      'I want to filter people by the languages they speak; which language names and proficiency levels are valid?',
    expected: 'listLanguages',
    style: 'verbose',
  },
  {
    query: 'User: "can I find people who speak Japanese fluently? what values do I use?"',
    expected: 'listLanguages',
    style: 'quoted',
  },
  { query: 'which languages the profiles can have', expected: 'listLanguages', style: 'non-native' },
  { query: 'tongues a person may list', expected: 'listLanguages', style: 'unseen' },
  // listTimeZones
  { query: 'time zones', expected: 'listTimeZones', style: 'terse' },
  {
    query:
      "I want to schedule calls in the prospect's local time, so I need the list of time zones with their UTC offsets",
    expected: 'listTimeZones',
    style: 'verbose',
  },
  { query: 'User: "what is the current offset of America/Chicago?"', expected: 'listTimeZones', style: 'quoted' },
  { query: 'list of the hour zones of the world', expected: 'listTimeZones', style: 'non-native' },
  { query: 'clock offsets by area', expected: 'listTimeZones', style: 'unseen' },
  // listCountrySubdivisions
  { query: 'provinces of one country with their codes', expected: 'listCountrySubdivisions', style: 'terse' },
  {
    query: 'I need the ISO 3166-2 codes of all the provinces of Canada',
    expected: 'listCountrySubdivisions',
    style: 'verbose',
  },
  { query: 'User: "what are the German Bundesländer codes?"', expected: 'listCountrySubdivisions', style: 'quoted' },
  {
    query: 'list of provinces inside one country with codes',
    expected: 'listCountrySubdivisions',
    style: 'non-native',
  },
  { query: 'administrative divisions of Mexico', expected: 'listCountrySubdivisions', style: 'unseen' },
  // createExclusionList
  { query: 'create exclusion list', expected: 'createExclusionList', style: 'terse' },
  {
    query: 'Here are our 200 current customers by domain; make sure they never show up in my searches',
    expected: 'createExclusionList',
    style: 'verbose',
  },
  {
    query: 'User: "never show me competitors acme.com and globex.com again"',
    expected: 'createExclusionList',
    style: 'quoted',
  },
  {
    query: 'i want make a list of companies to not see them in results',
    expected: 'createExclusionList',
    style: 'non-native',
  },
  { query: 'new ignore list for accounts we already own', expected: 'createExclusionList', style: 'unseen' },
  // listExclusionLists
  { query: 'my exclusion lists', expected: 'listExclusionLists', style: 'terse' },
  {
    query: 'Show me all the suppression lists on this account with how many entries each has',
    expected: 'listExclusionLists',
    style: 'verbose',
  },
  { query: 'User: "which do-not-contact lists do we have?"', expected: 'listExclusionLists', style: 'quoted' },
  { query: 'which lists of exclusion i have already', expected: 'listExclusionLists', style: 'non-native' },
  { query: 'overview of my ignore lists', expected: 'listExclusionLists', style: 'unseen' },
  // listExclusionListEntries
  { query: 'exclusion list entries', expected: 'listExclusionListEntries', style: 'terse' },
  {
    query: 'I want to see what is inside exclusion list 4, especially the entries that matched nothing',
    expected: 'listExclusionListEntries',
    style: 'verbose',
  },
  {
    query: 'User: "which companies are on our do-not-contact list?"',
    expected: 'listExclusionListEntries',
    style: 'quoted',
  },
  { query: 'show me the content of my list of exclusion', expected: 'listExclusionListEntries', style: 'non-native' },
  { query: 'what sits in the ignore list', expected: 'listExclusionListEntries', style: 'unseen' },
  // addExclusionListEntries
  { query: 'add to exclusion list', expected: 'addExclusionListEntries', style: 'terse' },
  {
    query: 'We signed three new customers this week; put their domains on our existing customer exclusion list',
    expected: 'addExclusionListEntries',
    style: 'verbose',
  },
  {
    query: 'User: "also suppress initech.com from now on, in the list we already have"',
    expected: 'addExclusionListEntries',
    style: 'quoted',
  },
  {
    query: 'i need put more companies in my exclusion list that exist',
    expected: 'addExclusionListEntries',
    style: 'non-native',
  },
  { query: 'append accounts to the ignore list', expected: 'addExclusionListEntries', style: 'unseen' },
  // removeExclusionListEntries
  { query: 'remove entry from exclusion list', expected: 'removeExclusionListEntries', style: 'terse' },
  {
    query: 'Globex churned, so they are a prospect again: take them off our customer exclusion list',
    expected: 'removeExclusionListEntries',
    style: 'verbose',
  },
  {
    query: 'User: "stop suppressing acme.com, we can contact them again"',
    expected: 'removeExclusionListEntries',
    style: 'quoted',
  },
  {
    query: 'i want take out one company from my list of exclusion',
    expected: 'removeExclusionListEntries',
    style: 'non-native',
  },
  { query: 'whitelist an account that was ignored', expected: 'removeExclusionListEntries', style: 'unseen' },
  // deleteExclusionList
  { query: 'delete exclusion list', expected: 'deleteExclusionList', style: 'terse' },
  {
    query: 'The old 2023 customer suppression list is obsolete; delete the whole list with all its entries',
    expected: 'deleteExclusionList',
    style: 'verbose',
  },
  { query: 'User: "get rid of the competitors blocklist entirely"', expected: 'deleteExclusionList', style: 'quoted' },
  { query: 'how i erase a exclusion list complete', expected: 'deleteExclusionList', style: 'non-native' },
  { query: 'trash an ignore list', expected: 'deleteExclusionList', style: 'unseen' },
  // createExclusionListFromAudience
  { query: 'exclusion list from audience', expected: 'createExclusionListFromAudience', style: 'terse' },
  {
    query: 'We already emailed everyone in audience 6; save those people so that future audiences leave them out',
    expected: 'createExclusionListFromAudience',
    style: 'verbose',
  },
  {
    query: 'User: "don\'t target the companies from my last campaign audience again"',
    expected: 'createExclusionListFromAudience',
    style: 'quoted',
  },
  {
    query: 'make the persons of my audience a list to exclude in next searches',
    expected: 'createExclusionListFromAudience',
    style: 'non-native',
  },
  {
    query: 'turn a finished segment into an ignore list',
    expected: 'createExclusionListFromAudience',
    style: 'unseen',
  },
  // createWebhookEndpoint (written with the webhook operations, before the ranker was run on them)
  { query: 'register webhook url', expected: 'createWebhookEndpoint', style: 'terse' },
  {
    query:
      'Our backend should get a POST at https://api.acme.io/hooks whenever an audience build or an export finishes, so we can stop polling',
    expected: 'createWebhookEndpoint',
    style: 'verbose',
  },
  {
    query: 'User: "send the export.ready events to our Zapier catch hook"',
    expected: 'createWebhookEndpoint',
    style: 'quoted',
  },
  {
    query: 'i want that your service call my url when the enrichment is finish',
    expected: 'createWebhookEndpoint',
    style: 'non-native',
  },
  { query: 'hook my server up to job-finished pushes', expected: 'createWebhookEndpoint', style: 'unseen' },
  // listWebhookEndpoints
  { query: 'list my webhooks', expected: 'listWebhookEndpoints', style: 'terse' },
  {
    query:
      'Before adding another one, show every webhook endpoint this account has registered and which events each gets',
    expected: 'listWebhookEndpoints',
    style: 'verbose',
  },
  { query: 'User: "which callback URLs do we have set up?"', expected: 'listWebhookEndpoints', style: 'quoted' },
  { query: 'what webhooks i have configure', expected: 'listWebhookEndpoints', style: 'non-native' },
  // getWebhookEndpoint
  { query: 'webhook endpoint 3 details', expected: 'getWebhookEndpoint', style: 'terse' },
  {
    query: 'Is webhook endpoint 7 still enabled, and since when has it been failing?',
    expected: 'getWebhookEndpoint',
    style: 'verbose',
  },
  {
    query: 'i want see the configuration of the webhook number 2',
    expected: 'getWebhookEndpoint',
    style: 'non-native',
  },
  // updateWebhookEndpoint
  { query: 'disable webhook endpoint', expected: 'updateWebhookEndpoint', style: 'terse' },
  {
    query:
      'Our receiver moved to a new host: point webhook endpoint 4 at https://hooks.new-host.com/in and also subscribe it to credits.low',
    expected: 'updateWebhookEndpoint',
    style: 'verbose',
  },
  {
    query: 'User: "turn the CRM webhook back on, we fixed the server"',
    expected: 'updateWebhookEndpoint',
    style: 'quoted',
  },
  { query: 'change the url of my webhook please', expected: 'updateWebhookEndpoint', style: 'non-native' },
  // deleteWebhookEndpoint
  { query: 'delete webhook', expected: 'deleteWebhookEndpoint', style: 'terse' },
  {
    query: 'We shut down the old integration server, so remove webhook endpoint 5 for good',
    expected: 'deleteWebhookEndpoint',
    style: 'verbose',
  },
  { query: 'User: "unregister that staging callback"', expected: 'deleteWebhookEndpoint', style: 'quoted' },
  // rotateWebhookEndpointSecret
  { query: 'rotate webhook secret', expected: 'rotateWebhookEndpointSecret', style: 'terse' },
  {
    query: 'The signing secret of webhook 1 was pasted into a public ticket; give me a new one without dropping events',
    expected: 'rotateWebhookEndpointSecret',
    style: 'verbose',
  },
  {
    query: 'how i get a new whsec key for my webhook',
    expected: 'rotateWebhookEndpointSecret',
    style: 'non-native',
  },
  // testWebhookEndpoint
  { query: 'send test webhook', expected: 'testWebhookEndpoint', style: 'terse' },
  {
    query:
      'I just deployed the receiver; fire a sample event at webhook endpoint 2 so I can check our signature check works',
    expected: 'testWebhookEndpoint',
    style: 'verbose',
  },
  {
    query: 'User: "ping our hook so we know it is wired correctly"',
    expected: 'testWebhookEndpoint',
    style: 'quoted',
  },
  { query: 'dry-run a callback to my listener', expected: 'testWebhookEndpoint', style: 'unseen' },
  // listWebhookDeliveries
  { query: 'webhook delivery log', expected: 'listWebhookDeliveries', style: 'terse' },
  {
    query:
      'Our receiver missed some events last night; show the attempts to webhook endpoint 3 with their status codes',
    expected: 'listWebhookDeliveries',
    style: 'verbose',
  },
  {
    query: 'User: "did the export.ready event reach our server, and what did it answer?"',
    expected: 'listWebhookDeliveries',
    style: 'quoted',
  },
  { query: 'the webhook calls that fail, where i see them', expected: 'listWebhookDeliveries', style: 'non-native' },
  // resendWebhookDelivery
  { query: 'resend webhook delivery', expected: 'resendWebhookDelivery', style: 'terse' },
  {
    query: 'Delivery 41 to endpoint 3 failed while our server was down; push that same event to it again now',
    expected: 'resendWebhookDelivery',
    style: 'verbose',
  },
  {
    query: 'i need the failed webhook event send one more time',
    expected: 'resendWebhookDelivery',
    style: 'non-native',
  },
  { query: 'replay a missed callback', expected: 'resendWebhookDelivery', style: 'unseen' },
  // setLowBalanceThreshold
  { query: 'set low balance threshold', expected: 'setLowBalanceThreshold', style: 'terse' },
  {
    query:
      'Our finance bot should hear from you as soon as the balance drops under 5,000 credits: set that as the level',
    expected: 'setLowBalanceThreshold',
    style: 'verbose',
  },
  {
    query: 'User: "warn our webhook when we are getting close to running out of credits"',
    expected: 'setLowBalanceThreshold',
    style: 'quoted',
  },
  {
    query: 'the minimum of credits before you send the credits.low, i want put 2000',
    expected: 'setLowBalanceThreshold',
    style: 'non-native',
  },
];
