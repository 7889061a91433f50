import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type Response } from 'express';
import { errorHandler } from './api/error-handler.js';
import { handlers } from './api/handlers/index.js';
import { readLlmsTxt } from './api/llms-txt.js';
import { buildOpenApiDocument } from './api/openapi.js';
import { createApiRouter } from './api/router.js';
import type { AppContext } from './context.js';
import { AppError } from './errors.js';
import { mountJobRoutes } from './jobs/index.js';
import { redactUrl } from './log.js';
import { mountMcp } from './mcp/index.js';

/** The whole HTTP surface of one process: REST under /v1, MCP, documents and health. */
export function createApp(context: AppContext): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestLogging(context));

  app.get('/healthz', async (_req, res) => {
    try {
      await context.db.pool.query('SELECT 1');
      res.json({ status: 'ok' });
    } catch {
      res.status(503).json({ status: 'unavailable', reason: 'database unreachable' });
    }
  });
  const rateLimits = {
    search: context.config.RATE_LIMIT_SEARCH_PER_MINUTE,
    standard: context.config.RATE_LIMIT_STANDARD_PER_MINUTE,
    status: context.config.RATE_LIMIT_STATUS_PER_MINUTE,
    heavy: context.config.RATE_LIMIT_HEAVY_PER_MINUTE,
  };
  const openApi = buildOpenApiDocument(context.publicUrl, rateLimits);
  app.get('/openapi.json', (_req, res) => {
    res.json(openApi);
  });
  app.get('/llms.txt', async (_req, res, next) => {
    try {
      res.type('text/plain; charset=utf-8').send(await readLlmsTxt());
    } catch (error) {
      next(error);
    }
  });

  mountMcp(app, context);
  mountJobRoutes(app, context);
  app.use('/v1', createApiRouter(context, handlers));
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(new AppError('not_found', `No endpoint ${req.method} ${req.path}.`));
  });
  app.use(errorHandler(context.log));
  return app;
}

/** One JSON log line per request, with a request id echoed in X-Request-Id; keys never appear. */
function requestLogging(context: AppContext) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.header('x-request-id');
    const requestId = incoming && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
      context.log.info(
        {
          requestId,
          method: req.method,
          url: redactUrl(req.originalUrl),
          status: res.statusCode,
          ms: Math.round(milliseconds * 10) / 10,
          operationId: res.locals.operationId,
          accountId: res.locals.accountId,
        },
        'request',
      );
    });
    next();
  };
}
