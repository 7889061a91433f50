/**
 * The words people use for the things and acts of this service, grouped by concept. search_endpoints
 * reads a query and each operation's own words through the same groups, so that "segment",
 * "my list" and "audience" meet, as do "firm" and "company", or "get rid of" and "delete",
 * whichever of them an operation's text happens to use. Written as general vocabulary of list
 * building and of asking a service for something, not from the phrasings the ranker is scored on.
 *
 * A phrase is matched on whole words, after the same stemming as the index (so "alerts" is
 * "alert"); a longer phrase wins over a shorter one at the same place.
 */
/** What an operation acts on, or is about. */
export const objectConcepts: Record<string, readonly string[]> = {
  company: [
    'company', 'companies', 'firm', 'business', 'organisation', 'organization', 'org', 'enterprise', 'employer', 'vendor', 'startup',
    'corporation', 'corp', 'account', 'shop', 'store', 'agency', 'manufacturer', 'supplier', 'provider', 'brand', 'outfit', 'retailer',
    'institution', 'competitor', 'player', 'subsidiary', 'hq', 'headquartered',
    'clinic', 'hospital', 'school', 'university', 'college', 'bank', 'insurer', 'lab', 'laboratory', 'studio', 'factory', 'plant', 'restaurant', 'hotel', 'chain', 'franchise', 'nonprofit', 'ngo', 'charity', 'distributor', 'wholesaler', 'carrier', 'operator', 'maker', 'producer', 'publisher', 'reseller', 'integrator', 'consultancy', 'practice',
  ],
  person: [
    'people', 'person', 'persons', 'individual', 'folk', 'folks', 'prospect', 'lead', 'employee', 'staff', 'professional', 'decision maker',
    'executive', 'profile', 'human', 'candidate', 'someone', 'somebody', 'guy', 'member', 'worker', 'hire',
    // Roles and titles are said of people.
    'title', 'job title', 'role', 'chief', 'officer', 'head of', 'heads of', 'director', 'vp', 'vice president', 'president', 'manager',
    'founder', 'cofounder', 'owner', 'partner', 'ceo', 'cfo', 'cto', 'cmo', 'coo', 'cro', 'ciso', 'cio', 'engineer', 'developer', 'designer',
    'analyst', 'consultant', 'recruiter', 'salesperson', 'rep', 'representative', 'buyer', 'doctor', 'lawyer', 'accountant', 'teacher',
    'talent', 'personnel', 'colleague', 'colleagues', 'team member', 'c-level', 'c-suite', 'exec', 'execs', 'leadership',
    'seller', 'sellers', 'nurse', 'nurses', 'in charge', 'responsible for', 'calls the shots', 'decides', 'alumni', 'graduate',
  ],
  audience: [
    'audience', 'segment', 'cohort', 'target group', 'target list', 'prospect list', 'lead list', 'contact list', 'campaign list',
    'call list', 'outreach list', 'my list', 'our list', 'saved list', 'the list', 'this list', 'that list',
  ],
  exclusion: [
    'exclusion', 'exclude', 'excluded', 'suppression', 'suppress', 'suppressed', 'blocklist', 'block list', 'blacklist', 'denylist',
    'deny list', 'ignore list',
    'from the exclusion list', 'from my exclusion list', 'from our exclusion list', 'to the exclusion list', 'to our exclusion list',
    'to my exclusion list', 'on the exclusion list', 'on our exclusion list', 'off the exclusion list', 'do not contact', 'do not contact list', 'dnc', 'dnc list', 'exclusion list', 'suppression list', 'block list', 'opt out', 'skip list', 'never show', 'leave out', 'already contacted', 'dedupe',
    'allowlist', 'whitelist', 'unsuppress', 'block', 'blocked', 'ban', 'banned', 'mute', 'unexclude', 'unblock', 'unblacklist',
    // Said as a wish not to see or reach someone again.
    'not see', 'never see', 'dont target', 'do not target', 'dont show', 'do not show', 'stop showing', 'avoid', 'skip',
    'never contact', 'never prospect', 'never target', 'never email', 'never reach', 'never call', 'stop contacting', 'keep out', 'keep away', 'no longer contact', 'dont contact',
  ],
  savedSearch: [
    'saved search', 'alert', 'watch', 'watchlist', 'monitor', 'subscription', 'subscribe', 'unsubscribe', 'feed', 'notify', 'notification',
    'recurring', 'keep an eye', 'new matches', 'schedule', 'scheduled', 'run daily', 'run weekly', 'runs daily', 'runs weekly', 'run every', 'daily', 'weekly', 'every week', 'every day', 'every monday',
    'tracker', 'standing search', 'saved query', 'saved filter', 'ping me', 'tell me when', 'let me know when', 'ongoing', 'periodic', 'periodically', 'monthly', 'how often', 'automatically',
    'standing', 'saved query', 'saved queries', 'keep tabs', 'track', 'tracking', 'pops up', 'pop up', 'whenever', 'hear about', 'hear when', 'hear of',
  ],
  run: ['run', 'runs', 'execution', 'rerun', 'ran', 'each time', 'every time'],
  entries: [
    'entries', 'entry', 'items', 'contents', 'what is in', 'members of', 'are on', 'is on',
    // Said of what is on a list, not of the list: "remove acme.com from the exclusion list".
    'from the list', 'from my list', 'from our list', 'off the list', 'to the list', 'on the list', 'on our list',
    'from the exclusion list', 'from my exclusion list', 'from our exclusion list', 'to the exclusion list', 'to our exclusion list',
    'to my exclusion list', 'on the exclusion list', 'on our exclusion list', 'off the exclusion list',
  ],
  // Words that name nothing here, kept whole so that their parts are not read as concepts: "a list of" is no act of listing;
  // "my account", "on this account" is the user's own account with the service, not a company (as "target accounts" are).
  none: ['a list of', 'list of', 'lists of', 'my account', 'our account', 'this account', 'the account', 'your account', 'same account'],
  enrichment: ['enrich', 'enrichment', 'append', 'appending', 'augment', 'contact data', 'data appending'],
  contactInfo: [
    'contact', 'contacts', 'contact info', 'contact details', 'email', 'emails', 'e-mail', 'mail', 'phone', 'mobile', 'cell', 'cellphone',
    'telephone', 'dial', 'direct line', 'number', 'reach',
  ],
  emailAddress: ['email address', 'mail address', 'address', 'inbox', 'mailbox', 'work email', 'corporate email', 'business email'],
  credits: ['credit', 'credits', 'balance', 'budget', 'funds', 'money', 'wallet', 'quota', 'allowance', 'plan', 'billing', 'left', 'running out', 'run out', 'low on',
    'remaining', 'usage', 'spent', 'consumption', 'account balance', 'out of credits', 'top up',
  ],
  filters: ['filter', 'filters', 'criteria', 'criterion', 'targeting', 'icp', 'ideal customer profile', 'search params', 'search parameters', 'parameters', 'conditions'],
  place: ['city', 'town', 'place', 'location', 'where', 'village', 'metro'],
  country: ['country', 'nation', 'region', 'geography', 'world region', 'country code'],
  subdivision: ['state', 'province', 'subdivision', 'county', 'canton', 'prefecture', 'iso 3166-2'],
  timeZone: ['time zone', 'timezone', 'tz', 'utc', 'offset', 'local time', 'clock'],
  language: ['language', 'langs', 'lang', 'tongue', 'speak', 'speaks', 'spoken', 'fluent', 'bilingual', 'proficiency'],
  industry: ['industry', 'sector', 'vertical', 'line of business', 'taxonomy'],
  tag: ['tag', 'label', 'flag', 'funding stage', 'special flag'],
  newRecords: ['new records', 'what is new', 'found', 'hits', 'new matches', 'surfaced',
    'newcomers', 'newcomer', 'new entrants', 'new arrivals', 'caught', 'turned up', 'new ones',
  ],
};
/** What an operation does: an act, or a kind of answer (a count, a file, a suggestion, live data). */
export const actionConcepts: Record<string, readonly string[]> = {
  count: ['count', 'a number', 'quick number', 'the number', 'just the number', 'the figure', 'just the figure', 'size my', 'size the', 'size our', 'size up', 'how many', 'how much', 'number of', 'total', 'tally', 'how big', 'size of', 'market size', 'volume',
    'how large', 'quantity', 'universe of', 'approximately how many', 'roughly how many', 'amount of',
  ],
  typeahead: [
    'autocomplete', 'auto complete', 'typeahead', 'type ahead', 'suggest', 'suggestion', 'as i type', 'as you type', 'typed', 'typing',
    'partial', 'first letters', 'prefix', 'starts with', 'begins with', 'beginning with', 'starting with', 'start with', 'begin of', 'beginning of', 'spell', 'spelling', 'resolve',
    'autofill', 'auto fill', 'called something', 'something like', 'exact record', 'complete the name', 'exact name', 'correct spelling', 'right spelling', 'canonical',
    'way to write', 'how to write', 'how do i write', 'how to spell', 'spelled', 'written',
  ],
  live: ['live', 'up to the minute', 'new version', 'newer version', 'bring the new', 'fresh', 'latest', 'current', 'up to date', 'real time', 'refresh', 'stale', 'outdated', 'old', 'moved',
    'scrape', 'scraped', 'crawl', 'newest', 'recent', 'today', 'changed jobs', 'job change',
  ],
  batch: ['batch', 'bulk', 'mass', 'many', 'hundreds', 'thousands', 'pile', 'lots of', 'in the background', 'all of them', 'upload', 'profile links', 'profile urls', 'list of profiles',
    'several', 'multiple', 'list of urls', 'all at once', 'at once', 'in one go', 'in one time',
  ],
  validation: ['validate', 'validation', 'verify', 'verification', 'valid', 'bounce', 'deliverable', 'deliverability', 'fake', 'real', 'throwaway', 'disposable', 'mx',
    'exists', 'exist', 'reachable', 'safe to send', 'bounces', 'catch all', 'accept mail', 'accepts mail', 'accept messages', 'accept email', 'receive mail', 'receive email', 'receives mail', 'typo',
  ],
  reverseLookup: ['who is behind', 'who owns', 'whose', 'reverse', 'owner of', 'identify', 'behind', 'by email', 'by work email', 'from email', 'from an email', 'email lookup', 'person behind',
    'who is this', 'whom', 'to whom', 'put a face to', 'belongs to', 'belong to', 'unmask', 'put a name to', 'who uses',
    'who is he', 'who is she', 'who sent', 'who wrote', 'who emailed', 'who mailed',
  ],
  estimate: ['estimate', 'cost', 'price', 'quote', 'how much', 'how expensive', 'ballpark', 'set me back', 'set us back', 'what would it cost', 'damage', 'would it take', 'would take', 'would cost', 'will cost', 'going to cost',
    'how many credits to', 'how many credits for', 'how many credits would', 'how many credits will', 'credits would', 'charge', 'fee', 'pricing', 'afford', 'expensive',
  ],
  export: ['export', 'download', 'csv', 'spreadsheet', 'sheet', 'excel', 'dump', 'extract', 'file', 'import into',
    'xlsx', 'google sheets', 'attachment', 'push to', 'offline',
  ],
  delete: [
    'delete', 'remove', 'erase', 'trash', 'discard', 'drop', 'destroy', 'get rid of', 'throw away', 'purge', 'wipe', 'no longer need',
    'gone', 'cancel', 'unsubscribe', 'stop watching', 'unexclude', 'unblock', 'unsuppress', 'unblacklist',
    'kill', 'scrap', 'clean up', 'dispose', 'eliminate', 'forget', 'deleted', 'removed',
    'nuke', 'ditch', 'axe', 'bin', 'done with', 'finished with', 'for good', 'stop it',
  ],
  create: ['create', 'new', 'make', 'set up', 'setup', 'open', 'start a', 'blank', 'put together', 'save',
    'register', 'establish', 'spin up', 'initialize', 'initialise',
  ],
  update: ['update', 'change', 'edit', 'modify', 'tweak', 'adjust', 'rename', 'reschedule', 'pause', 'cadence', 'frequency', 'set the', 'configure', 'limit',
    'alter', 'amend', 'revise', 'replace', 'switch', 'instead', 'instead of', 'turn off', 'turn on', 'move to', 'reconfigure', 'correct', 'put',
    'from now on', 'going forward', 'henceforth', 'should go to', 'should be',
    'narrow', 'restrict', 'apply', 'only include', 'should only', 'widen', 'broaden', 'use only', 'only use', 'keep only', 'only keep',
  ],
  list: ['list', 'lists', 'all my', 'all our', 'overview', 'browse', 'page through', 'what is in', 'history', 'previous', 'timeline', 'made it into', 'inside', 'within',
    'enumerate', 'show all', 'see all', 'inventory',
    'log', 'logs', 'so far', 'each time', 'every time',
    'past',
  ],
  status: [
    'status', 'progress', 'done', 'finished', 'finish', 'complete', 'completed', 'ready', 'fail', 'failed', 'crash', 'crashed', 'stuck',
    'still', 'yet', 'how far', 'state', 'going', 'is it', 'has it', 'did it', 'went wrong', 'over', 'check on', 'where is', 'how is',
    'poll', 'polling', 'gone through', 'go through', 'went through', 'eta', 'how long', 'percent', 'stage', 'pending', 'queued', 'in progress', 'any news', 'news on', 'update on', 'what happened', 'succeed', 'succeeded', 'error', 'errored', 'broke', 'hanging',
  ],
  run: ['run', 'execute', 'fire', 'trigger', 'launch', 'kick off', 'start', 'go ahead', 'begin', 'now', 'right now', 'immediately', 'proceed', 'generate', 'fill', 'populate', 'build',
    'ok go', 'go for it', 'lets go', 'do it', 'carry out', 'perform', 'initiate', 'commence',
    'spend the credits', 'spend credits', 'use the credits', 'materialize', 'make it happen',
    'assemble', 'compile', 'gather', 'collect',
  ],
  read: ['details', 'detail', 'settings', 'read', 'look like', 'exactly', 'show me the',
    'inspect', 'configuration', 'config', 'info on', 'information about',
  ],
  add: ['add', 'append', 'put', 'insert', 'also', 'more'],
  lookup: ['lookup', 'look up', 'get', 'find', 'fetch', 'pull',
    'track down', 'hunt', 'hunting for', 'scout', 'dig up', 'looking for', 'look for', 'search for', 'seek', 'locate',
  ],
};
