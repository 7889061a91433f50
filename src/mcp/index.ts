import { AsyncLocalStorage } from 'node:async_hooks';
import { CatalogSizeCache } from '../core/catalog-size.js';
import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/express';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  createRequestStateCodec,
  type AuthInfo,
  type RequestStateCodec,
} from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type express from 'express';
import type { NextFunction, Request, Response } from 'express';
import {
  bearerAuth,
  bearerPermits,
  bearerTokenOf,
  protectedResourceMetadata,
  protectedResourceMetadataPath,
  requireBearer,
  type ReadMessage,
} from '../auth/bearer.js';
import { mcpCors, mcpCorsHeaders } from '../auth/cors.js';
import { purposeKey } from '../auth/signing-keys.js';
import { quoted, sendRefusal } from '../auth/mcp-errors.js';
import { rateLimitsPerMinute } from '../config.js';
import type { AppContext } from '../context.js';
import type { MetricsRecorder } from '../http/metrics.js';
import type { OperationPort } from '../runner/run-operation.js';
import type { Backend } from './backend.js';
import { InProcessBackend } from './in-process-backend.js';
import { RestBackend } from './rest-backend.js';
import { Gateway, type ConfirmState } from './gateway.js';
import { BalanceCache } from './guards/balance.js';
import { ConfirmationTokens, PostgresUsedConfirmations, confirmationTtlSeconds } from './guards/confirmation.js';
import { PollCache } from './guards/polling.js';
import { StoredResults } from './guards/stored-results.js';
import { DirectPath, ReadBodies, type DirectSurface } from './fast-path.js';
import { callerOf, createServerFactory, type CallerInfo } from './server.js';
import { TaskStore } from './task-store.js';
import { McpTasks } from './tasks.js';
import { iconFiles, toolIcons } from './icons.js';
import { toolTable, type McpTool, type Surface } from './tools/table.js';
import { loopbackHostnames } from '../loopback.js';

export const mcpServerVersion = '1.0.0';
export const serverName = 'prospecting-data-service';
export const serverDescription =
  'B2B prospecting data for agents: company and people search, live enrichment, contact reveal and audiences, metered in credits.';

function hostnameOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/**
 * DNS-rebinding protection: the Host names this service answers to. Defaults: the loopback
 * names, the listening host and the public URL's host; ALLOWED_HOSTS adds names, and `*` turns
 * the check off (for a deployment whose proxy checks Host itself).
 */
export function allowedHosts(context: AppContext): string[] | null {
  const configured = context.config.ALLOWED_HOSTS ?? [];
  if (configured.includes('*')) return null;
  const hosts = new Set(loopbackHostnames);
  for (const url of [context.internalUrl, context.publicUrl]) {
    const hostname = hostnameOf(url);
    if (hostname) hosts.add(hostname);
  }
  for (const host of configured) hosts.add(host.toLowerCase());
  return [...hosts];
}

/** Browser origins allowed to call the MCP surfaces: loopback, the public URL, ALLOWED_ORIGINS and the CORS_ORIGINS. */
export function allowedOrigins(context: AppContext): string[] {
  const origins = new Set(loopbackHostnames);
  const publicHost = hostnameOf(context.publicUrl);
  if (publicHost) origins.add(publicHost);
  for (const origin of [...(context.config.ALLOWED_ORIGINS ?? []), ...(context.config.CORS_ORIGINS ?? [])]) {
    origins.add(
      origin.includes('://') && !origin.endsWith('://*') ? (hostnameOf(origin) ?? origin) : origin.toLowerCase(),
    );
  }
  return [...origins];
}

/** The AuthInfo an MCP request to an API-key surface carries to its tools when its key is valid; null otherwise. */
export async function apiKeyAuth(
  context: AppContext,
  key: string,
  requestId?: string,
  surface: 'mcp' | 'mcp/v2' = 'mcp',
): Promise<AuthInfo | null> {
  const principal = await context.authenticator.authenticate(key);
  if (!principal) return null;
  const caller: CallerInfo = { principal, apiKey: key, requestId, surface };
  return { token: 'x-api-key', clientId: `account:${principal.accountId}`, scopes: [], extra: { caller } };
}

/**
 * The challenge of the API-key surfaces. MCP clients answer a 401 by trying OAuth; naming the
 * scheme and the header here (and in the JSON-RPC message) leads a person to the key instead.
 */
export const apiKeyChallenge = `ApiKey realm=${quoted('prospecting-data-service')}, header=${quoted('x-api-key')}`;

/** x-api-key authentication: 401 before any MCP processing, as a JSON-RPC error that says what to do; the key is never echoed or logged. */
function requireApiKey(context: AppContext, path: string) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const requestId = res.locals.requestId as string | undefined;
      const key = req.header('x-api-key');
      const bearerInstead = bearerTokenOf(req.header('authorization'))
        ? ' An OAuth bearer token is not accepted here: OAuth sign-in is for /mcp/v3.'
        : '';
      if (!key) {
        sendRefusal(res, {
          status: 401,
          code: 'unauthorized',
          message:
            `Missing API key: ${path} authenticates with an API key in the x-api-key header, not with OAuth.${bearerInstead} ` +
            `Send the header "x-api-key: <your key>" (create one in the account dashboard, ${context.publicUrl}/dashboard/keys). ` +
            'For sign-in through a browser instead, connect to /mcp/v3.',
          wwwAuthenticate: apiKeyChallenge,
          requestId,
        });
        return;
      }
      const auth = await apiKeyAuth(context, key, requestId, path === '/mcp' ? 'mcp' : 'mcp/v2');
      if (!auth) {
        const refused = await context.authenticator.refusedSince(key);
        sendRefusal(res, {
          status: 401,
          code: 'unauthorized',
          message: refused
            ? `Invalid API key: this key ${'revokedAt' in refused ? `was revoked on ${refused.revokedAt.slice(0, 10)}` : `expired at ${refused.expiredAt}`}. Use another key of the account, or create one in the account dashboard (${context.publicUrl}/dashboard/keys).`
            : `Invalid API key: the x-api-key header does not match an active key. Check that the whole key was copied (it starts with pds_), or create one in the account dashboard (${context.publicUrl}/dashboard/keys).`,
          wwwAuthenticate: apiKeyChallenge,
          requestId,
        });
        return;
      }
      res.locals.accountId = callerOf(auth).principal.accountId;
      req.auth = auth;
      next();
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The errors the SDK reports while answering one request. A request the SDK refuses as the
 * client's fault (wrong Content-Type, not JSON, a bad header: any 4xx) is logged as one line
 * with the status and the reason; anything answered 5xx is logged whole, with its stack.
 */
interface ReportedErrors {
  errors: Error[];
  done: boolean;
}
const requestErrors = new AsyncLocalStorage<ReportedErrors>();

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Mounts the MCP surfaces (/mcp, /mcp/v2, /mcp/v3) on the app, and returns the process's request
 * listener: the direct path (fast-path.ts) in front of the app.
 */
export function mountMcp(
  app: express.Express,
  context: AppContext,
  options: { runner: OperationPort; metrics?: MetricsRecorder | null },
): (behind: RequestListener) => RequestListener {
  const { config } = context;
  const reporting = { metrics: options.metrics ?? null };
  const backend: Backend = config.BACKEND_URL
    ? new RestBackend(config.BACKEND_URL)
    : new InProcessBackend(options.runner, context.log.child({ part: 'mcp' }), reporting.metrics);
  // The service's one signing secret, two uses here: a key for each, so that neither kind of signature passes as the other.
  const tokenKey = purposeKey(context.services.signingKey, 'mcp confirmation token');
  const stateKey = purposeKey(context.services.signingKey, 'mcp request state');

  const tasks = new McpTasks({
    store: new TaskStore(context.db.pool),
    backend,
    log: context.log.child({ part: 'mcp-tasks' }),
    ttlSeconds: config.MCP_TASK_TTL_SECONDS,
    questionTtlSeconds: confirmationTtlSeconds,
    pollIntervalMs: config.MCP_TASK_POLL_INTERVAL_MS,
  });
  const gateway = new Gateway({
    config,
    backend,
    tokens: new ConfirmationTokens(new PostgresUsedConfirmations(context.db.pool), async () => tokenKey),
    balances: new BalanceCache(config.BALANCE_CACHE_SECONDS * 1000),
    polls: new PollCache(context.db.pool),
    stored: new StoredResults(context.db.pool),
    log: context.log.child({ part: 'mcp' }),
    limits: context.services.rateLimits,
    tasks,
  });
  const codec: RequestStateCodec<ConfirmState> = createRequestStateCodec<ConfirmState>({
    key: stateKey,
    ttlSeconds: confirmationTtlSeconds,
    bind: (ctx) => String(callerOf(ctx.http?.authInfo).principal.accountId),
  });
  const confirmationCodec = async () => codec;
  const catalogSize = new CatalogSizeCache(context.db.pool);
  const deps = {
    gateway,
    rateLimits: rateLimitsPerMinute(config),
    limits: context.services.rateLimits,
    catalogSize: () => catalogSize.get(),
    confirmationCodec,
    name: serverName,
    version: mcpServerVersion,
    description: serverDescription,
    toolIcons: (toolName: string) => toolIcons(context.publicUrl, toolName),
    tasks,
  };
  const log = context.log.child({ part: 'mcp' });
  const bodies = new ReadBodies();
  const tables: Record<Surface, ReadonlyMap<string, McpTool>> = {
    default: toolTable(deps, 'default'),
    full: toolTable(deps, 'full'),
    oauth: toolTable(deps, 'oauth'),
  };
  const handlerFor = (surface: Surface) => {
    const handler = toNodeHandler(
      createMcpHandler(createServerFactory(deps, tables[surface]), {
        onerror: (error) => {
          const reported = requestErrors.getStore();
          if (reported && !reported.done) reported.errors.push(error);
          else log.warn({ err: error, surface }, 'mcp request error');
        },
      }),
      { onerror: (error) => log.error({ err: error, surface }, 'mcp handler failed') },
    );
    return (req: Request, res: Response, next: NextFunction) => {
      const reported: ReportedErrors = { errors: [], done: false };
      // A message the scope check read and judged runs as it was read (never read a second time, differently).
      const judged = res.locals.mcpMessage as ReadMessage | undefined;
      requestErrors
        .run(reported, () => handler(bodies.replayed(req), res, judged?.value))
        .then(() => {
          reported.done = true;
          for (const error of reported.errors) {
            if (res.statusCode >= 400 && res.statusCode < 500) {
              log.info(
                { surface, requestId: res.locals.requestId, status: res.statusCode, reason: error.message },
                'mcp request refused',
              );
            } else log.warn({ err: error, surface, requestId: res.locals.requestId }, 'mcp request error');
          }
        })
        .catch(next);
    };
  };

  const hosts = allowedHosts(context);
  const origins = allowedOrigins(context);
  const validation = [...(hosts ? [hostHeaderValidation(hosts)] : []), originValidation(origins)];
  // Browsers: preflights are answered before any credential is asked for, and every answer carries the CORS headers.
  app.use(['/mcp', '/mcp/v2', '/mcp/v3'], mcpCors(config));
  app.get('/icons/:file', (req, res) => {
    const svg = iconFiles[req.params.file];
    if (!svg) {
      res.status(404).json({ error: { code: 'not_found', message: `No icon ${req.params.file}.` } });
      return;
    }
    res.set({ 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' }).send(svg);
  });
  app.all('/mcp', ...validation, requireApiKey(context, '/mcp'), handlerFor('default'));
  app.all('/mcp/v2', ...validation, requireApiKey(context, '/mcp/v2'), handlerFor('full'));
  app.get(protectedResourceMetadataPath('/mcp/v3'), (_req, res) => {
    res.json(protectedResourceMetadata(context, '/mcp/v3'));
  });
  // Clients that answer any 401 with OAuth (the MCP Inspector does, even on the API-key routes)
  // guess these addresses next; their 404 says where the key goes, which is what the person then reads.
  const signpost = (_req: Request, res: Response) => {
    const message =
      `No OAuth here: /mcp and /mcp/v2 authenticate with an API key in the x-api-key header (send "x-api-key: <your key>"). ` +
      `OAuth sign-in is for /mcp/v3; its protected-resource metadata is ${context.publicUrl}${protectedResourceMetadataPath('/mcp/v3')}.`;
    res.status(404).json({ error: 'not_found', error_description: message, message });
  };
  for (const path of ['', '/mcp', '/mcp/v2']) app.get(protectedResourceMetadataPath(path), signpost);
  app.get(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration', '/authorize'], signpost);
  app.post(['/register', '/token'], signpost);
  const bodyForScope = async (req: Request, res: Response): Promise<Buffer | null | 'answered'> =>
    bodies.buffered(req, res);
  app.all('/mcp/v3', ...validation, requireBearer(context, '/mcp/v3', bodyForScope), handlerFor('oauth'));

  const byApiKey = (surface: Surface): DirectSurface => ({
    tools: tables[surface],
    authenticate: (req, requestId) => {
      const key = req.headers['x-api-key'];
      return typeof key === 'string' && key
        ? apiKeyAuth(context, key, requestId, surface === 'full' ? 'mcp/v2' : 'mcp')
        : Promise.resolve(null);
    },
  });
  const byBearer: DirectSurface = {
    tools: tables.oauth,
    authenticate: (req, requestId) => {
      const token = bearerTokenOf(req.headers.authorization);
      return token ? bearerAuth(context, token, requestId) : Promise.resolve(null);
    },
    permits: (auth, body) => bearerPermits(auth, body).ok,
  };
  const directPath = new DirectPath({
    context,
    serverInfo: { name: serverName, version: mcpServerVersion, description: serverDescription },
    surfaces: new Map([
      ['/mcp', byApiKey('default')],
      ['/mcp/v2', byApiKey('full')],
      ['/mcp/v3', byBearer],
    ]),
    allowedHosts: hosts,
    allowedOrigins: origins,
    corsHeaders: (origin: string | undefined) => mcpCorsHeaders(config, origin),
    metrics: reporting.metrics,
    bodies,
  });
  return (behind) => (config.MCP_DIRECT_PATH ? directPath.before(behind) : behind);
}
