import type { RateLimits } from './runner/rate-limit.js';
import type { ApiKeyAuthenticator } from './auth/api-key-authenticator.js';
import type { AuthorizationServer } from './auth/authorization-server.js';
import type { BearerTokenVerifier } from './auth/bearer.js';
import type { Config } from './config.js';
import type { LinkSigner } from './core/audiences/links.js';
import type { AudienceContactSource, AudienceLiveSource } from './core/audiences/sources.js';
import type { MailDomainChecker } from './core/contacts/validation.js';
import type { ContactWaterfall } from './core/contacts/waterfall.js';
import type { CursorCodec } from './core/search/cursor.js';
import type { ExportStorage } from './core/ports/export-storage.js';
import type { Mailer } from './core/ports/mailer.js';
import type { NetworkSource } from './core/ports/network-source.js';
import type { NetworkClock } from './core/network-clock.js';
import type { WebhookSender } from './core/ports/webhook-sender.js';
import type { ServiceMetrics } from './http/metrics.js';
import type { Logger } from './log.js';
import type { Database } from './store/db.js';

/**
 * What the composition root (src/service.ts) hands to every part of the service. Every member is
 * built once, at start, before the first request; nothing is added or swapped later. Tests pass
 * replacements through `startService(config, { services })`.
 *
 * This module is the one place allowed to name types of every layer: it holds types only, and
 * every other module imports it with `import type`.
 */
export interface AppContext extends ServiceBase {
  services: Services;
}

/** The context without its services: what the builders of services receive. */
export interface ServiceBase {
  config: Config;
  db: Database;
  log: Logger;
  authenticator: ApiKeyAuthenticator;
  /** Absolute base URL of this service, for links in responses and mails. */
  publicUrl: string;
  /** Base URL of this process's own listener, for calls the service makes to itself (the MCP gateway). */
  internalUrl: string;
}

export interface Services {
  /** HMAC key of confirmation tokens, request state and OAuth keys: SIGNING_SECRET, or generated once and kept in the database. */
  signingKey: Buffer;
  /** Signs and checks paging cursors, bound to the account. */
  cursors: CursorCodec;
  /** Signs and checks the download links of exports. */
  exportLinks: LinkSigner;
  /** Export files (a local folder by default). */
  exportStorage: ExportStorage;
  /** Outgoing mail (SMTP, or the outbox folder). */
  mailer: Mailer;
  /** The professional network's live data (live enrichment). */
  networkSource: NetworkSource;
  /** The network's clock: real time, or faster with NETWORK_SIMULATION_DAYS_PER_SECOND (watch-list checks and the simulated source). */
  networkClock: NetworkClock;
  /** Contact-data providers in waterfall order, with validation (reveal, batch, audience enrichment). */
  contactWaterfall: ContactWaterfall;
  /** Whether a mail domain can receive mail (built-in rules, or DNS with CONTACT_EMAIL_VALIDATION=dns): the waterfall's validation and validateEmail. */
  mailDomainChecker: MailDomainChecker;
  /** Where audience enrichment finds contacts. */
  audienceContactSource: AudienceContactSource;
  /** Where audience enrichment fetches live records. */
  audienceLiveSource: AudienceLiveSource;
  /** Our OAuth authorization server for /mcp/v3. */
  authorizationServer: AuthorizationServer;
  /** Verifies the bearer tokens of /mcp/v3. */
  mcpBearerVerifier: BearerTokenVerifier;
  /** Prometheus metrics, when METRICS_TOKEN is set. */
  metrics: ServiceMetrics | null;
  /** Webhook attempts over HTTP, under the address rules (WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  webhookSender: WebhookSender;
  /** The accounts' per-minute limits (token buckets), shared by the REST API and what MCP answers itself. */
  rateLimits: RateLimits;
}
