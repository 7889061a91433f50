import type { AudienceContactSource, AudienceLiveSource, FoundContacts } from '../audiences/sources.js';
import { refreshCompanyFromNetwork, refreshPersonFromNetwork, type LiveFetchDeps } from './live-fetch.js';
import type { ContactWaterfall } from './waterfall.js';
import { valuesOf } from './reveal.js';

/**
 * The live-enrichment and contact providers of this capability, shaped as the two sources
 * audience enrichment asks for (src/core/audiences/sources.ts). Neither charges: audience
 * enrichment prices its work itself. src/service.ts builds them as the context's services.
 */

/** Contacts through the provider waterfall (dataset → HTTP vendor → pattern guess), validated. */
export function waterfallAudienceContactSource(waterfall: ContactWaterfall): AudienceContactSource {
  return {
    name: 'waterfall',
    async lookup(people, types, signal) {
      const results = await waterfall.reveal(people, types, signal);
      signal?.throwIfAborted();
      const found = new Map<number, FoundContacts>();
      let unavailable = 0;
      for (const [id, result] of results) {
        if (result.unavailable) unavailable++;
        const values = valuesOf(result);
        if (values.workEmails.length || values.personalEmails.length || values.phoneNumbers.length)
          found.set(id, values);
      }
      // "The lookup itself failed" means no provider could be asked for anyone: the caller retries then.
      if (people.length > 0 && unavailable === people.length)
        throw new Error('every contact provider failed for this batch');
      return found;
    },
  };
}

/** Live records through the configured network source; the catalog record is refreshed when the fetch succeeds. */
export function networkAudienceLiveSource(context: LiveFetchDeps): AudienceLiveSource {
  const log = context.log.child({ component: 'audience-live-source' });
  return {
    name: 'network',
    refreshCompany: (companyId, signal) => refreshCompanyFromNetwork(context, companyId, log, signal),
    refreshPerson: (personId, signal) => refreshPersonFromNetwork(context, personId, log, signal),
  };
}
