import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { errorHandler } from './api/error-handler.js';
import { buildOpenApiDocument, withCatalogSize } from './api/openapi.js';
import { createApiRouter } from './api/router.js';
import { rateLimitsPerMinute } from './config.js';
import type { AppContext } from './context.js';
import { AppError, retryAfterSeconds } from './errors.js';
import { mountDownloadRoute } from './http/downloads.js';
import { readLlmsTxt, withCatalogLine } from './http/llms-txt.js';
import { CatalogSizeCache, catalogSentence } from './core/catalog-size.js';
import { mountMetrics } from './http/metrics.js';
import { startAccessLog, type AccessLogFields } from './http/access-log.js';
import { mountAuth } from './auth/index.js';
import { mountDashboard, signInRedirectUri } from './dashboard/index.js';
import { mountMcp } from './mcp/index.js';
import { runs } from '../operations/runs.js';
import { OperationRunner } from './runner/run-operation.js';

/**
 * The whole HTTP surface of one process: REST under /v1, MCP, documents and health. The
 * listener is the Express app behind the MCP direct path (src/mcp/fast-path.ts).
 */
export function createApp(context: AppContext): (req: IncomingMessage, res: ServerResponse) => void {
  const app = express();
  app.disable('x-powered-by');
  // Forwarded addresses are believed only behind a proxy the operator named (one hop); otherwise the peer's address counts.
  app.set('trust proxy', context.config.TRUST_PROXY ? 1 : false);
  app.use(accessLogging(context));

  app.get('/healthz', async (_req, res) => {
    try {
      await context.db.pool.query('SELECT 1');
      const replicas = context.db.replicas?.status();
      res.json({
        status: 'ok',
        ...(replicas
          ? { replicas: replicas.map(({ name, healthy, lagMs, reason }) => ({ name, healthy, lagMs, reason })) }
          : {}),
      });
    } catch {
      res
        .status(503)
        .set('Retry-After', String(retryAfterSeconds.unavailable))
        .json({ status: 'unavailable', reason: 'database unreachable' });
    }
  });
  const openApi = buildOpenApiDocument(context.publicUrl, rateLimitsPerMinute(context.config));
  // Both documents state this instance's catalog size, read from its database (kept a minute).
  const catalogSize = new CatalogSizeCache(context.db.pool);
  app.get('/openapi.json', async (_req, res, next) => {
    try {
      res.json(withCatalogSize(openApi, catalogSentence(await catalogSize.get())));
    } catch (error) {
      next(error);
    }
  });
  app.get('/llms.txt', async (_req, res, next) => {
    try {
      const document = await readLlmsTxt();
      res.type('text/plain; charset=utf-8').send(withCatalogLine(document, catalogSentence(await catalogSize.get())));
    } catch (error) {
      next(error);
    }
  });

  mountMetrics(app, context);
  const auth = mountAuth(app, context, { moreRedirectUris: [signInRedirectUri(context.publicUrl)] });
  mountDashboard(app, context, auth);
  // One runner for both surfaces: REST's routes and the MCP gateway share its rate limits and concurrency caps.
  const runner = new OperationRunner(context, runs);
  const withDirectPath = mountMcp(app, context, { runner, metrics: context.services.metrics });
  mountDownloadRoute(app, context);
  app.use('/v1', createApiRouter(context, runner));
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(new AppError('not_found', `No endpoint ${req.method} ${req.path}.`));
  });
  app.use(errorHandler(context.log));
  return withDirectPath(app);
}

/** Express's side of the access log: the line reads what the routes put in res.locals. */
function accessLogging(context: AppContext) {
  return (req: Request, res: Response, next: NextFunction): void => {
    startAccessLog(context, req, res, res.locals as AccessLogFields);
    next();
  };
}
