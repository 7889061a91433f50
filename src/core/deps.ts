import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Database } from '../store/db.js';
import type { LinkSigner } from './audiences/links.js';
import type { AudienceContactSource, AudienceLiveSource } from './audiences/sources.js';
import type { MailDomainChecker } from './contacts/validation.js';
import type { ContactWaterfall } from './contacts/waterfall.js';
import type { ExportStorage } from './ports/export-storage.js';
import type { Mailer } from './ports/mailer.js';
import type { NetworkSource } from './ports/network-source.js';
import type { NetworkClock } from './network-clock.js';
import type { WebhookSender } from './ports/webhook-sender.js';
import type { CursorCodec } from './search/cursor.js';

/**
 * What core's functions take from the service: each names only what it uses, from these parts.
 * The composition root's AppContext (src/context.ts) holds all of them under the same names, so
 * the surfaces and the worker pass it as it is; tests pass just the parts.
 */

/** The database. */
export interface DbDeps {
  db: Database;
}

/** The database and the configuration. */
export interface DbConfigDeps extends DbDeps {
  config: Config;
}

/** The services core reaches through its ports and helpers, each picked by name. */
export interface CoreServices {
  cursors: CursorCodec;
  exportLinks: LinkSigner;
  exportStorage: ExportStorage;
  mailer: Mailer;
  contactWaterfall: ContactWaterfall;
  mailDomainChecker: MailDomainChecker;
  audienceContactSource: AudienceContactSource;
  audienceLiveSource: AudienceLiveSource;
  webhookSender: WebhookSender;
  networkSource: NetworkSource;
  networkClock: NetworkClock;
}

/** Some of the services, by name: `ServicesDeps<'mailer'>` is `{ services: { mailer: Mailer } }`. */
export interface ServicesDeps<Name extends keyof CoreServices> {
  services: Pick<CoreServices, Name>;
}

/** The logger. */
export interface LogDeps {
  log: Logger;
}
