/**
 * Contact-data providers: the adapters that implement core's `ContactProvider`
 * (src/core/ports/contact-providers.ts). The factory that builds the waterfall from configuration
 * is services.ts.
 */
export { DatasetContactProvider } from './dataset-provider.js';
export { ContactProviderError, HttpContactProvider } from './http-provider.js';
export { guessWorkEmail, PatternEmailProvider } from './pattern-provider.js';
