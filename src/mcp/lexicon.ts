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
  ],
  person: [
    'people', 'person', 'persons', 'individual', 'folk', 'folks', 'prospect', 'lead', 'employee', 'staff', 'professional', 'decision maker',
    'executive', 'profile', 'human', 'candidate', 'someone', 'somebody', 'guy', 'member', 'worker', 'hire',
    // Roles and titles are said of people.
    'title', 'job title', 'role', 'chief', 'officer', 'head of', 'heads of', 'director', 'vp', 'vice president', 'president', 'manager',
    'founder', 'cofounder', 'owner', 'partner', 'ceo', 'cfo', 'cto', 'cmo', 'coo', 'cro', 'ciso', 'cio', 'engineer', 'developer', 'designer',
    'analyst', 'consultant', 'recruiter', 'salesperson', 'rep', 'representative', 'buyer', 'doctor', 'lawyer', 'accountant', 'teacher',
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
    'allowlist', 'whitelist', 'unsuppress',
    // Said as a wish not to see or reach someone again.
    'not see', 'never see', 'dont target', 'do not target', 'dont show', 'do not show', 'stop showing', 'avoid', 'skip',
  ],
  savedSearch: [
    'saved search', 'alert', 'watch', 'watchlist', 'monitor', 'subscription', 'subscribe', 'unsubscribe', 'feed', 'notify', 'notification',
    'recurring', 'keep an eye', 'new matches', 'schedule', 'scheduled', 'run daily', 'run weekly', 'runs daily', 'runs weekly', 'run every', 'daily', 'weekly', 'every week', 'every day', 'every monday',
  ],
  run: ['run', 'runs', 'execution', 'rerun'],
  entries: [
    'entries', 'entry', 'items', 'contents', 'what is in', 'members of', 'are on', 'is on',
    // Said of what is on a list, not of the list: "remove acme.com from the exclusion list".
    'from the list', 'from my list', 'from our list', 'off the list', 'to the list', 'on the list', 'on our list',
    'from the exclusion list', 'from my exclusion list', 'from our exclusion list', 'to the exclusion list', 'to our exclusion list',
    'to my exclusion list', 'on the exclusion list', 'on our exclusion list', 'off the exclusion list',
  ],
  // Words that name nothing here, kept whole so that their parts are not read as concepts: "a list of" is no act of listing.
  none: ['a list of', 'list of', 'lists of'],
  enrichment: ['enrich', 'enrichment', 'append', 'appending', 'augment', 'contact data', 'data appending'],
  contactInfo: [
    'contact', 'contacts', 'contact info', 'contact details', 'email', 'emails', 'e-mail', 'mail', 'phone', 'mobile', 'cell', 'cellphone',
    'telephone', 'dial', 'direct line', 'number', 'reach',
  ],
  emailAddress: ['email address', 'mail address', 'address', 'inbox', 'mailbox', 'work email', 'corporate email', 'business email'],
  credits: ['credit', 'credits', 'balance', 'budget', 'funds', 'money', 'wallet', 'quota', 'allowance', 'plan', 'billing', 'left', 'running out', 'run out', 'low on'],
  place: ['city', 'town', 'place', 'location', 'where', 'village', 'metro'],
  country: ['country', 'nation', 'region', 'geography', 'world region', 'country code'],
  subdivision: ['state', 'province', 'subdivision', 'county', 'canton', 'prefecture', 'iso 3166-2'],
  timeZone: ['time zone', 'timezone', 'tz', 'utc', 'offset', 'local time', 'clock'],
  language: ['language', 'tongue', 'speak', 'speaks', 'spoken', 'fluent', 'bilingual', 'proficiency'],
  industry: ['industry', 'sector', 'vertical', 'line of business', 'taxonomy'],
  tag: ['tag', 'label', 'flag', 'funding stage', 'special flag'],
  newRecords: ['new records', 'what is new', 'found', 'hits', 'new matches', 'surfaced'],
};
/** What an operation does: an act, or a kind of answer (a count, a file, a suggestion, live data). */
export const actionConcepts: Record<string, readonly string[]> = {
  count: ['count', 'how many', 'how much', 'number of', 'total', 'tally', 'how big', 'size of', 'market size', 'volume'],
  typeahead: [
    'autocomplete', 'auto complete', 'typeahead', 'type ahead', 'suggest', 'suggestion', 'as i type', 'as you type', 'typed', 'typing',
    'partial', 'first letters', 'prefix', 'starts with', 'begin of', 'beginning of', 'spell', 'spelling', 'resolve',
  ],
  live: ['live', 'fresh', 'latest', 'current', 'up to date', 'real time', 'refresh', 'stale', 'outdated', 'old', 'moved'],
  batch: ['batch', 'bulk', 'mass', 'many', 'hundreds', 'thousands', 'pile', 'lots of', 'in the background', 'all of them', 'upload', 'profile links', 'profile urls', 'list of profiles'],
  validation: ['validate', 'validation', 'verify', 'verification', 'valid', 'bounce', 'deliverable', 'deliverability', 'fake', 'real', 'throwaway', 'disposable', 'mx'],
  reverseLookup: ['who is behind', 'who owns', 'whose', 'reverse', 'owner of', 'identify', 'behind', 'by email', 'by work email', 'from email', 'from an email', 'email lookup', 'person behind'],
  estimate: ['estimate', 'cost', 'price', 'quote', 'how much', 'how expensive', 'ballpark', 'spend', 'would it take', 'would take', 'would cost', 'will cost', 'going to cost'],
  export: ['export', 'download', 'csv', 'spreadsheet', 'sheet', 'excel', 'dump', 'extract', 'file', 'import into'],
  delete: [
    'delete', 'remove', 'erase', 'trash', 'discard', 'drop', 'destroy', 'get rid of', 'throw away', 'purge', 'wipe', 'no longer need',
    'gone', 'cancel', 'unsubscribe', 'stop watching',
  ],
  create: ['create', 'new', 'make', 'set up', 'setup', 'open', 'start a', 'blank', 'put together', 'save'],
  update: ['update', 'change', 'edit', 'modify', 'tweak', 'adjust', 'rename', 'reschedule', 'pause', 'cadence', 'frequency', 'set the', 'configure', 'limit'],
  list: ['list', 'lists', 'all my', 'all our', 'overview', 'browse', 'page through', 'what is in', 'history', 'previous', 'timeline', 'made it into', 'inside', 'within'],
  status: [
    'status', 'progress', 'done', 'finished', 'finish', 'complete', 'completed', 'ready', 'fail', 'failed', 'crash', 'crashed', 'stuck',
    'still', 'yet', 'how far', 'state', 'going', 'is it', 'has it', 'did it', 'went wrong', 'over', 'check on', 'where is', 'how is',
  ],
  run: ['run', 'execute', 'fire', 'trigger', 'launch', 'kick off', 'start', 'go ahead', 'begin', 'now', 'right now', 'immediately', 'proceed', 'generate', 'fill', 'populate', 'build'],
  read: ['details', 'detail', 'settings', 'read', 'look like', 'exactly', 'show me the'],
  add: ['add', 'append', 'put', 'insert', 'also', 'more'],
  lookup: ['lookup', 'look up', 'get', 'find', 'fetch', 'pull'],
};
