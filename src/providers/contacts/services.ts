import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import type { Logger } from '../../log.js';
import type { Queryable } from '../../store/db.js';
import { HttpNetworkSource } from '../network/http-source.js';
import { SimulatedNetworkSource } from '../network/simulated-source.js';
import type { NetworkSource } from '../network/types.js';
import { DatasetContactProvider } from './dataset-provider.js';
import { HttpContactProvider } from './http-provider.js';
import { PatternEmailProvider } from './pattern-provider.js';
import type { ContactProvider } from './types.js';
import { ContactValidator, DnsMailDomainChecker, EmbeddedMailDomainChecker } from './validation.js';
import { ContactWaterfall } from './waterfall.js';

declare module '../../context.js' {
  interface Services {
    /** The professional network's live data (live enrichment). */
    networkSource: NetworkSource;
    /** Contact-data providers in waterfall order, with validation (contact reveal, batch, audience enrichment). */
    contactWaterfall: ContactWaterfall;
  }
}

export interface ContactServices {
  networkSource: NetworkSource;
  contactWaterfall: ContactWaterfall;
}

/**
 * Builds the outside-world adapters of live and contact enrichment from configuration:
 * the HTTP network source when NETWORK_SOURCE_URL is set, else the simulated one over the
 * catalog; the contact waterfall dataset → HTTP vendor (when CONTACT_PROVIDER_URL is set) →
 * pattern guesser, validated by CONTACT_EMAIL_VALIDATION (embedded rules or real DNS).
 */
export function createContactServices(config: Config, db: Queryable, log?: Logger): ContactServices {
  const networkSource: NetworkSource = config.NETWORK_SOURCE_URL
    ? new HttpNetworkSource({ baseUrl: config.NETWORK_SOURCE_URL, apiKey: config.NETWORK_SOURCE_API_KEY, timeoutMs: config.NETWORK_SOURCE_TIMEOUT_MS })
    : new SimulatedNetworkSource(db, { failureRate: config.NETWORK_SOURCE_FAILURE_RATE, latencyMs: config.NETWORK_SOURCE_LATENCY_MS });
  const providers: ContactProvider[] = [new DatasetContactProvider(db)];
  if (config.CONTACT_PROVIDER_URL) {
    providers.push(new HttpContactProvider({ baseUrl: config.CONTACT_PROVIDER_URL, apiKey: config.CONTACT_PROVIDER_API_KEY, timeoutMs: config.CONTACT_PROVIDER_TIMEOUT_MS }));
  }
  providers.push(new PatternEmailProvider());
  const checker = config.CONTACT_EMAIL_VALIDATION === 'dns' ? new DnsMailDomainChecker() : new EmbeddedMailDomainChecker();
  const contactWaterfall = new ContactWaterfall(providers, new ContactValidator(checker), log?.child({ component: 'contact-waterfall' }));
  return { networkSource, contactWaterfall };
}

/** The registered services, or ones built from the configuration on first use and registered then. */
export function contactServices(context: AppContext): ContactServices {
  const { networkSource, contactWaterfall } = context.services;
  if (networkSource && contactWaterfall) return { networkSource, contactWaterfall };
  const created = createContactServices(context.config, context.db.pool, context.log);
  context.services.networkSource = networkSource ?? created.networkSource;
  context.services.contactWaterfall = contactWaterfall ?? created.contactWaterfall;
  return { networkSource: context.services.networkSource, contactWaterfall: context.services.contactWaterfall };
}
