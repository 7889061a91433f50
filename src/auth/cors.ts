import type { NextFunction, Request, Response } from 'express';
import type { Config } from '../config.js';
import { sendRefusal } from './mcp-errors.js';

/**
 * Cross-origin access for browser-based MCP clients. Two policies:
 * - the authorization server's public endpoints (metadata documents, JWKS, token, registration,
 *   revocation) answer any origin with `*`: they use no cookies, so no origin gains anything;
 * - the MCP routes answer the origins allowed by CORS_ORIGINS (and loopback origins outside
 *   production), exposing the headers a client must read.
 * A preflight never needs credentials: it is answered before any authentication.
 */

export const mcpExposedHeaders = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';
const mcpAllowedMethods = 'GET, POST, DELETE, OPTIONS';
const preflightMaxAgeSeconds = '600';

export function openCors(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate, Retry-After, DPoP-Nonce');
  if (req.method === 'OPTIONS' && req.header('access-control-request-method')) {
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader(
      'Access-Control-Allow-Headers',
      req.header('access-control-request-headers') ?? 'authorization, content-type',
    );
    res.setHeader('Access-Control-Max-Age', preflightMaxAgeSeconds);
    res.status(204).end();
    return;
  }
  next();
}

const loopbackOrigin = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/** Whether a browser at `origin` may call the MCP routes. */
export function mcpOriginAllowed(config: Pick<Config, 'CORS_ORIGINS' | 'NODE_ENV'>, origin: string): boolean {
  if (config.CORS_ORIGINS?.some((allowed) => allowed.replace(/\/$/, '') === origin)) return true;
  return config.NODE_ENV !== 'production' && loopbackOrigin.test(origin);
}

/** The CORS headers of an MCP answer to `origin`, or none when it is not allowed (the browser then hides the answer). */
export function mcpCorsHeaders(
  config: Pick<Config, 'CORS_ORIGINS' | 'NODE_ENV'>,
  origin: string | undefined,
): Record<string, string> {
  if (!origin || !mcpOriginAllowed(config, origin)) return {};
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Expose-Headers': mcpExposedHeaders };
}

export function mcpCors(config: Pick<Config, 'CORS_ORIGINS' | 'NODE_ENV'>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.header('origin');
    if (req.method === 'OPTIONS' && origin && req.header('access-control-request-method')) {
      if (!mcpOriginAllowed(config, origin)) {
        sendRefusal(res, {
          status: 403,
          code: 'forbidden',
          message: `Cross-origin requests from ${origin} are not allowed. An operator can allow this origin with CORS_ORIGINS.`,
        });
        return;
      }
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Vary', 'Origin');
      res.setHeader('Access-Control-Allow-Methods', mcpAllowedMethods);
      res.setHeader(
        'Access-Control-Allow-Headers',
        req.header('access-control-request-headers') ?? 'authorization, content-type, mcp-protocol-version',
      );
      res.setHeader('Access-Control-Max-Age', preflightMaxAgeSeconds);
      res.status(204).end();
      return;
    }
    for (const [name, value] of Object.entries(mcpCorsHeaders(config, origin))) res.setHeader(name, value);
    next();
  };
}
