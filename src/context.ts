import type { ApiKeyAuthenticator } from './auth/api-keys.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import type { Database } from './store/db.js';

/**
 * What the composition root hands to every part of the service. Optional members are
 * parts added by later capabilities; code that needs one checks for it.
 */
export interface AppContext {
  config: Config;
  db: Database;
  log: Logger;
  authenticator: ApiKeyAuthenticator;
  /** Absolute base URL of this service, for links in responses and mails. */
  publicUrl: string;
  /** Base URL of this process's own listener, for calls the service makes to itself (the MCP gateway). */
  internalUrl: string;
  /** Named parts registered by capabilities (job queue, mailer, providers, ...). */
  services: Partial<Services>;
}

/** Extended by each capability's module through declaration merging. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Services {}
