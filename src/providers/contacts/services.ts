import type { Config } from '../../config.js';
import type { Logger } from '../../log.js';
import type { Queryable } from '../../store/db.js';
import { HttpNetworkSource } from '../network/http-source.js';
import { SimulatedNetworkSource } from '../network/simulated-source.js';
import type { NetworkSource } from '../../core/ports/network-source.js';
import type { NetworkClock } from '../../core/network-clock.js';
import { DatasetContactProvider } from './dataset-provider.js';
import { HttpContactProvider } from './http-provider.js';
import { PatternEmailProvider } from './pattern-provider.js';
import type { ContactProvider } from '../../core/ports/contact-providers.js';
import { ContactValidator, EmbeddedMailDomainChecker, type MailDomainChecker } from '../../core/contacts/validation.js';
import { DnsMailDomainChecker } from './dns-mail-domains.js';
import { ContactWaterfall } from '../../core/contacts/waterfall.js';

export interface ContactServices {
  networkSource: NetworkSource;
  contactWaterfall: ContactWaterfall;
  /** Whether a mail domain can receive mail: the waterfall's validation, and validateEmail. */
  mailDomainChecker: MailDomainChecker;
}

/**
 * Builds the outside-world adapters of live and contact enrichment from configuration:
 * the HTTP network source when NETWORK_SOURCE_URL is set, else the simulated one over the
 * catalog; the contact waterfall dataset → HTTP vendor (when CONTACT_PROVIDER_URL is set) →
 * pattern guesser, validated by CONTACT_EMAIL_VALIDATION (embedded rules or real DNS).
 */
export function createContactServices(
  config: Config,
  db: Queryable,
  log?: Logger,
  clock?: NetworkClock,
): ContactServices {
  const networkSource: NetworkSource = config.NETWORK_SOURCE_URL
    ? new HttpNetworkSource({
        baseUrl: config.NETWORK_SOURCE_URL,
        apiKey: config.NETWORK_SOURCE_API_KEY,
        timeoutMs: config.NETWORK_SOURCE_TIMEOUT_MS,
      })
    : new SimulatedNetworkSource(db, {
        failureRate: config.NETWORK_SOURCE_FAILURE_RATE,
        latencyMs: config.NETWORK_SOURCE_LATENCY_MS,
        ...(clock ? { now: () => clock.now() } : {}),
      });
  const providers: ContactProvider[] = [new DatasetContactProvider(db)];
  if (config.CONTACT_PROVIDER_URL) {
    providers.push(
      new HttpContactProvider({
        baseUrl: config.CONTACT_PROVIDER_URL,
        apiKey: config.CONTACT_PROVIDER_API_KEY,
        timeoutMs: config.CONTACT_PROVIDER_TIMEOUT_MS,
      }),
    );
  }
  providers.push(new PatternEmailProvider());
  const checker: MailDomainChecker =
    config.CONTACT_EMAIL_VALIDATION === 'dns' ? new DnsMailDomainChecker() : new EmbeddedMailDomainChecker();
  const contactWaterfall = new ContactWaterfall(
    providers,
    new ContactValidator(checker),
    log?.child({ component: 'contact-waterfall' }),
  );
  return { networkSource, contactWaterfall, mailDomainChecker: checker };
}
