/**
 * Contact-data providers: the adapters that implement core's `ContactProvider`
 * (src/core/ports/contact-providers.ts), and the factory that builds the waterfall from
 * configuration.
 */
export { DatasetContactProvider } from './dataset-provider.js';
export { DnsMailDomainChecker, type MxResolver } from './dns-mail-domains.js';
export { ContactProviderError, HttpContactProvider, type HttpContactProviderOptions } from './http-provider.js';
export { guessWorkEmail, PatternEmailProvider } from './pattern-provider.js';
export { createContactServices, type ContactServices } from './services.js';
