import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { createApp } from './app.js';
import { ApiKeyAuthenticator } from './auth/api-key-authenticator.js';
import { generateApiKey, hashApiKey } from './core/api-keys.js';
import type { Config } from './config.js';
import type { AppContext, ServiceBase, Services } from './context.js';
import { addMailRecipient } from './core/mail-recipients.js';
import { createAccount } from './core/accounts.js';
import { exportFilesRetention } from './core/audiences/export-retention.js';
import { requestLogRetention } from './core/request-log.js';
import { sessionRetention } from './dashboard/sessions.js';
import { finishedJobsRetention, type RetentionTask } from './job-queue/index.js';
import { createLogger, type Logger } from './log.js';
import { pollCacheRetention } from './mcp/guards/polling.js';
import { taskRetention } from './mcp/task-store.js';
import { storedResultsRetention } from './mcp/guards/stored-results.js';
import { createAuthorizationServer, oauthRetention } from './auth/index.js';
import { loadLinkSigner } from './core/audiences/links.js';
import { networkAudienceLiveSource, waterfallAudienceContactSource } from './core/contacts/audience-sources.js';
import { CursorCodec } from './core/search/cursor.js';
import { createMetrics } from './http/metrics.js';
import { untilReady } from './http/starting.js';
import { createContactServices, type ContactServices } from './providers/contacts/services.js';
import { startNetworkClock } from './core/network-clock.js';
import { localExportStorage } from './providers/export-storage.js';
import { createMailer } from './providers/mailer.js';
import { createWebhookSender } from './providers/webhook-sender.js';
import { webhookRetention } from './core/webhooks/retention.js';
import { isCatalogEmpty, seedCatalog } from './seed/load.js';
import { ensureSearchIndexes } from './seed/search-indexes.js';
import { fillTitleTerms } from './seed/title-terms.js';
import { idempotencyKeysRetention } from './runner/idempotency.js';
import { createRateLimits, rateLimitRetention } from './runner/rate-limit.js';
import { ensurePrivateFolder, writePrivateFile } from './store/data-dir.js';
import { openDatabase, type Database, type DatabaseOptions } from './store/db.js';
import { embeddedSettingsOf, startEmbeddedPostgres, type EmbeddedServer } from './store/embedded.js';
import { migrate } from './store/migrate.js';
import { loadSigningKey } from './store/signing-key.js';
import { startBackgroundWork, type BackgroundWork } from './worker/index.js';

export interface RunningService {
  url: string;
  context: AppContext;
  /** Set when this start created the demo account or was given DEMO_API_KEY. */
  demoApiKey: string | null;
  stop(): Promise<void>;
}

export interface StartOptions {
  log?: Logger;
  /** Prints progress and the banner for people; tests pass false. */
  interactive?: boolean;
  /** The embedded database is thrown away when the service stops (scripts on a scratch DATA_DIR). */
  temporaryDatabase?: boolean;
  /** Replacements for the services built from the configuration (tests: failing providers, a broken storage). */
  services?: Partial<Services>;
}

/**
 * The composition root: store, migrations, first-start seed and demo account, HTTP server,
 * job worker; and an orderly stop in reverse.
 */
export async function startService(config: Config, options: StartOptions = {}): Promise<RunningService> {
  const log = options.log ?? createLogger(config.LOG_LEVEL);
  const say = options.interactive ? (line: string) => process.stdout.write(`${line}\n`) : () => undefined;
  // Credentials, the demo key, exports and mail live there, with DATABASE_URL too.
  await ensurePrivateFolder(config.dataDir, log);
  let embedded: EmbeddedServer | null = null;
  let connectionString = config.DATABASE_URL;
  if (!connectionString) {
    say('Starting the embedded PostgreSQL server ...');
    embedded = await startEmbeddedPostgres(config.dataDir, log, {
      temporary: options.temporaryDatabase ?? false,
      settings: embeddedSettingsOf(config),
    });
    say(`  its data: ${embedded.databaseDir}`);
    connectionString = embedded.connectionString;
  }
  const db = openDatabase(connectionString, servingDatabaseOptions(config, log));
  let server: Server | null = null;
  try {
    await prepareDatabase(connectionString, config, log, say);
    await db.replicas?.start();
    const demoApiKey = await ensureDemoAccount(db, config, log);

    // Requests that arrive while the services are built are answered (503 starting), never left hanging.
    const gate = untilReady();
    const listening = await listen(config, gate.listener);
    server = listening;
    const address = listening.address() as AddressInfo;
    const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    const base: ServiceBase = {
      config,
      db,
      log,
      authenticator: new ApiKeyAuthenticator(db.pool, {}, () => db.replicas?.pick()?.reads ?? null),
      publicUrl: (config.PUBLIC_URL ?? url).replace(/\/$/, ''),
      internalUrl: url,
    };
    const context: AppContext = { ...base, services: await buildServices(base, options.services ?? {}) };
    gate.ready(createApp(context));
    const background: BackgroundWork | null = config.JOB_WORKER
      ? await startBackgroundWork(context, { retention: retentionTasks(context) })
      : null;
    log.info({ url, publicUrl: context.publicUrl }, 'service listening');

    let stopping: Promise<void> | null = null;
    return {
      url,
      context,
      demoApiKey,
      stop: () =>
        (stopping ??= (async () => {
          await new Promise<void>((resolve) => {
            listening.close(() => resolve());
            listening.closeIdleConnections();
          });
          await background?.stop();
          context.services.mailer.close();
          await context.services.webhookSender.close();
          await db.close();
          await embedded?.stop();
        })()),
    };
  } catch (error) {
    if (server) {
      const closing = server;
      await new Promise<void>((resolve) => {
        closing.close(() => resolve());
        closing.closeAllConnections();
      });
    }
    await db.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    throw error;
  }
}

/**
 * Every service of the process, built once here, in dependency order; a replacement given in
 * `overrides` is used instead of the one the configuration would build, and by everything built
 * after it.
 */
export async function buildServices(base: ServiceBase, overrides: Partial<Services>): Promise<Services> {
  const { config, db, log } = base;
  const signingKey = overrides.signingKey ?? (await loadSigningKey(db.pool, config));
  const clock = overrides.networkClock ?? (await startNetworkClock(db.pool, config.NETWORK_SIMULATION_DAYS_PER_SECOND));
  const contacts: ContactServices = createContactServices(config, db.pool, log, clock);
  const networkSource = overrides.networkSource ?? contacts.networkSource;
  const contactWaterfall = overrides.contactWaterfall ?? contacts.contactWaterfall;
  const authorizationServer = overrides.authorizationServer ?? createAuthorizationServer(base, signingKey);
  return {
    signingKey,
    cursors: overrides.cursors ?? CursorCodec.fromSigningKey(signingKey),
    exportLinks: overrides.exportLinks ?? (await loadLinkSigner(db.pool, config.SIGNING_SECRET)),
    exportStorage: overrides.exportStorage ?? localExportStorage(config.exportDir),
    mailer: overrides.mailer ?? createMailer(config, log),
    networkSource,
    networkClock: clock,
    contactWaterfall,
    mailDomainChecker: overrides.mailDomainChecker ?? contacts.mailDomainChecker,
    audienceContactSource: overrides.audienceContactSource ?? waterfallAudienceContactSource(contactWaterfall),
    audienceLiveSource:
      overrides.audienceLiveSource ?? networkAudienceLiveSource({ db, config, log, services: { networkSource } }),
    authorizationServer,
    mcpBearerVerifier: overrides.mcpBearerVerifier ?? authorizationServer.verifier(),
    metrics: overrides.metrics ?? (config.METRICS_TOKEN ? createMetrics(base) : null),
    webhookSender:
      overrides.webhookSender ??
      createWebhookSender({
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
        policy: {
          allowLoopback: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
          allowPrivate: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
        },
      }),
    rateLimits: overrides.rateLimits ?? createRateLimits(config, db.pool),
  };
}

/** What the retention sweep deletes when its time is up: each module's own task, listed here. */
export function retentionTasks(context: AppContext): RetentionTask[] {
  return [
    exportFilesRetention(context),
    finishedJobsRetention(context.config.JOB_RETENTION_DAYS),
    storedResultsRetention,
    pollCacheRetention,
    taskRetention,
    rateLimitRetention,
    idempotencyKeysRetention,
    requestLogRetention,
    sessionRetention,
    webhookRetention(context.config.WEBHOOK_RETENTION_DAYS),
    oauthRetention,
  ];
}

/**
 * What one client may hold of the server, set deliberately rather than left to Node's defaults
 * (which let a request's headers take 60 s and its body 5 minutes, and look for such clients only
 * every 30 s). Measured in RELIABILITY.md ("Slow and abusive clients"); documented in docs/operations.md.
 * Bodies are bounded where they are read: 2 MB for the REST API (src/api/router.ts), 4 MB for MCP.
 */
export const httpLimits = {
  /** Headers of one request: Node's own 16 KiB, said here; more is answered 431. */
  maxHeaderSize: 16 * 1024,
  /** Header lines of one request: far more than any client sends, far fewer than Node's 2,000. */
  maxHeadersCount: 100,
  /** How often the server looks for requests past their header or request timeout. */
  connectionsCheckingIntervalMs: 1_000,
} as const;

function listen(config: Config, listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  return new Promise((resolve, reject) => {
    void import('node:http').then(({ createServer }) => {
      const server = createServer({
        maxHeaderSize: httpLimits.maxHeaderSize,
        connectionsCheckingInterval: httpLimits.connectionsCheckingIntervalMs,
        requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
        headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
        keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      });
      server.maxHeadersCount = httpLimits.maxHeadersCount;
      // No idle cut-off beyond these: a request that is being answered (a long export listing, an MCP stream) is not the client's stall.
      server.timeout = 0;
      closeConnectionsThatNeverAsk(server, config.HTTP_HEADERS_TIMEOUT_MS);
      server.on('request', listener);
      server.once('error', reject);
      server.listen(config.PORT, config.HOST, () => resolve(server));
    });
  });
}

/**
 * Node's header timeout starts with a request's first byte: a connection that never sends one
 * would be held for ever (a thousand of them, a file descriptor each). Such a connection gets the
 * same time to start as a request gets to send its headers; one that has started is Node's to
 * answer (408).
 */
function closeConnectionsThatNeverAsk(server: Server, timeoutMs: number): void {
  const asked = new WeakSet<Socket>();
  server.prependListener('request', (req: IncomingMessage) => {
    asked.add(req.socket);
  });
  server.on('connection', (socket: Socket) => {
    const timer = setTimeout(() => {
      if (!asked.has(socket) && socket.bytesRead === 0) socket.destroy();
    }, timeoutMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}

/** The pools that serve requests and jobs: every statement bounded, searches on connections of their own. */
export function servingDatabaseOptions(config: Config, log: Logger): DatabaseOptions {
  return {
    max: config.DATABASE_POOL_SIZE,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
    connectionTimeoutMs: config.DATABASE_CONNECTION_TIMEOUT_MS,
    catalog: { max: config.DATABASE_CATALOG_POOL_SIZE, statementTimeoutMs: config.SEARCH_STATEMENT_TIMEOUT_MS },
    costlyReads: config.COSTLY_SEARCHES_AT_ONCE,
    requirePrimary: true,
    liveness: { log },
    ...(config.DATABASE_REPLICA_URLS?.length
      ? {
          replicas: {
            urls: config.DATABASE_REPLICA_URLS,
            maxLagMs: config.DATABASE_REPLICA_MAX_LAG_MS,
            checkIntervalMs: config.DATABASE_REPLICA_CHECK_MS,
            log,
          },
        }
      : {}),
  };
}

/** Migrations and the first-start seed, on a pool of their own: they may run for minutes, which the serving pools refuse. */
async function prepareDatabase(
  connectionString: string,
  config: Config,
  log: Logger,
  say: (line: string) => void,
): Promise<void> {
  const setup = openDatabase(connectionString, 4);
  try {
    const applied = await migrate(setup.pool, {
      apply: config.MIGRATE_ON_START,
      onProgress: (message) => {
        say(`  migrations: ${message}`);
        log.info({ migrations: message }, 'migrations');
      },
    });
    if (applied.length) log.info({ applied }, 'migrations applied');
    const empty = await isCatalogEmpty(setup);
    if (empty && config.SEED_ON_EMPTY) await seedOnFirstStart(setup, config, say);
    else if (!empty) {
      await repairInterruptedLoad(setup, log, say);
      // Profiles a database held before migration 150 get their titles read as words.
      const filled = await fillTitleTerms(setup, (done) => {
        if (done % 100_000 === 0) say(`  titles read as words: ${done.toLocaleString('en')}`);
      });
      if (filled) log.info({ filled }, 'title search columns filled');
    }
  } finally {
    await setup.close();
  }
}

/**
 * A large seed or import drops the search indexes, commits the rows, then builds them again: a process stopped in between
 * leaves a catalog that is not empty (so no seed runs again) and searches every row without an index. The next start
 * builds what is missing and refreshes the planner's statistics, which the load had not reached either.
 */
async function repairInterruptedLoad(db: Database, log: Logger, say: (line: string) => void): Promise<void> {
  const built = await ensureSearchIndexes(db, {
    maintenanceWorkMem: '256MB',
    beforeBuilding: (missing) =>
      say(`The catalog lacks ${missing.length} search index(es), as an interrupted load leaves it: building them ...`),
  });
  if (built.length) log.warn({ built }, 'missing search indexes built');
}

async function seedOnFirstStart(db: Database, config: Config, say: (line: string) => void): Promise<void> {
  say(
    `Empty catalog: generating ${config.SEED_COMPANIES.toLocaleString('en')} companies and ${config.SEED_PEOPLE.toLocaleString('en')} people (seed ${config.SEED}) ...`,
  );
  let lastShown = 0;
  const result = await seedCatalog(db, {
    companies: config.SEED_COMPANIES,
    people: config.SEED_PEOPLE,
    seed: config.SEED,
    onProgress: ({ table, done, total }) => {
      const now = Date.now();
      if (now - lastShown < 1000 && done < total) return;
      lastShown = now;
      say(`  ${table}: ${done.toLocaleString('en')} / ${total.toLocaleString('en')}`);
    },
  });
  say(`Seeded in ${(result.milliseconds / 1000).toFixed(1)} s.`);
}

const demoAccountName = 'Demo account';
export const demoMailRecipient = 'demo@prospecting.local';

/**
 * The demo account exists so that a newcomer can call the API at once. Its key is
 * DEMO_API_KEY when set; otherwise a random one, created once and kept in DATA_DIR/demo-api-key
 * (readable by the owner only) so that later starts can show it again.
 */
async function ensureDemoAccount(db: Database, config: Config, log: Logger): Promise<string | null> {
  const keyFile = path.join(config.dataDir, 'demo-api-key');
  const existing = await db.pool.query<{ id: number }>('SELECT id FROM accounts WHERE name = $1 AND plan = $2', [
    demoAccountName,
    'demo',
  ]);
  const demo = existing.rows[0];
  if (!demo) {
    const apiKey = config.DEMO_API_KEY ?? generateApiKey();
    const created = await createAccount(db, {
      name: demoAccountName,
      plan: 'demo',
      initialCredits: config.DEMO_CREDITS,
      apiKey,
    });
    // So a newcomer can try userEmail at once: mail to it lands in DATA_DIR/outbox.
    await addMailRecipient(db.pool, created.account.id, demoMailRecipient);
    if (!config.DEMO_API_KEY) await writePrivateFile(keyFile, `${apiKey}\n`);
    log.info({ credits: config.DEMO_CREDITS }, 'demo account created');
    return apiKey;
  }
  if (config.DEMO_API_KEY) {
    await db.pool.query(
      `INSERT INTO api_keys (account_id, key_hash, key_prefix, label)
       SELECT $1, $2, $3, 'DEMO_API_KEY' WHERE NOT EXISTS (SELECT 1 FROM api_keys WHERE key_hash = $2)`,
      [demo.id, hashApiKey(config.DEMO_API_KEY), config.DEMO_API_KEY.slice(0, 10)],
    );
    return config.DEMO_API_KEY;
  }
  return existsSync(keyFile) ? (await readFile(keyFile, 'utf8')).trim() : null;
}
