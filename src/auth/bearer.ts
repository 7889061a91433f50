import type { AuthInfo } from '@modelcontextprotocol/server';
import type { NextFunction, Request, Response } from 'express';
import type { AppContext } from '../context.js';
import type { Principal } from './api-keys.js';

/**
 * Bearer-token authentication of the OAuth MCP surface (/mcp/v3), as an OAuth 2.0 resource
 * server: every refusal is a 401 whose WWW-Authenticate names the protected-resource metadata
 * (RFC 9728), from which a client discovers the authorization server. Verifying tokens is the
 * job of a `mcpBearerVerifier` registered in `context.services` by the authorization-server
 * part; while none is registered, no token is valid and the surface answers 401 to all.
 */

/** What a valid token grants: the account it acts for and the credential the gateway uses upstream. */
export interface BearerGrant {
  principal: Principal;
  /** The account's credential towards the REST API; never the client's token. */
  upstreamApiKey: string;
  clientId: string;
  scopes: string[];
  /** Seconds since the epoch. */
  expiresAt: number;
}

export interface BearerTokenVerifier {
  verify(token: string): Promise<BearerGrant | null>;
  /** Issuer URLs listed in the protected-resource metadata. */
  authorizationServers?: string[];
  scopesSupported?: string[];
}

declare module '../context.js' {
  interface Services {
    mcpBearerVerifier: BearerTokenVerifier;
  }
}

export function protectedResourceMetadataPath(resourcePath: string): string {
  return `/.well-known/oauth-protected-resource${resourcePath}`;
}

export function protectedResourceMetadataUrl(context: AppContext, resourcePath: string): string {
  return `${context.publicUrl}${protectedResourceMetadataPath(resourcePath)}`;
}

/** The RFC 9728 document of a bearer-protected resource. */
export function protectedResourceMetadata(context: AppContext, resourcePath: string): Record<string, unknown> {
  const verifier = context.services.mcpBearerVerifier;
  return {
    resource: `${context.publicUrl}${resourcePath}`,
    ...(verifier?.authorizationServers?.length ? { authorization_servers: verifier.authorizationServers } : {}),
    ...(verifier?.scopesSupported?.length ? { scopes_supported: verifier.scopesSupported } : {}),
    bearer_methods_supported: ['header'],
    resource_name: 'Prospecting Data Service MCP (OAuth)',
    resource_documentation: `${context.publicUrl}/llms.txt`,
  };
}

function challenge(res: Response, metadataUrl: string, error?: { code: string; description: string }): void {
  const parts = [`resource_metadata="${metadataUrl}"`];
  if (error) parts.push(`error="${error.code}"`, `error_description="${error.description}"`);
  res.setHeader('WWW-Authenticate', `Bearer ${parts.join(', ')}`);
  res.status(401).json({
    error: error?.code ?? 'invalid_request',
    error_description: error?.description ?? 'A bearer token is required: send Authorization: Bearer <access token>.',
  });
}

/** The AuthInfo an MCP request carries to its tools for a valid, unexpired token; null otherwise. */
export async function bearerAuth(context: AppContext, token: string, requestId?: string): Promise<AuthInfo | null> {
  const verifier = context.services.mcpBearerVerifier;
  const grant = verifier ? await verifier.verify(token) : null;
  if (!grant || grant.expiresAt * 1000 <= Date.now()) return null;
  return {
    token: 'bearer',
    clientId: grant.clientId,
    scopes: grant.scopes,
    expiresAt: grant.expiresAt,
    extra: { caller: { principal: grant.principal, apiKey: grant.upstreamApiKey, requestId } },
  };
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerTokenOf(header: string | undefined): string | null {
  const match = header ? /^Bearer\s+([^\s]+)\s*$/i.exec(header) : null;
  return match ? (match[1] as string) : null;
}

/**
 * Express middleware: a missing or invalid token is answered 401 before any MCP processing; a
 * valid one becomes `req.auth`, which the MCP handler hands to its tools.
 */
export function requireBearer(context: AppContext, resourcePath: string) {
  const metadataUrl = protectedResourceMetadataUrl(context, resourcePath);
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const token = bearerTokenOf(req.header('authorization'));
      if (!token) return challenge(res, metadataUrl);
      const auth = await bearerAuth(context, token, res.locals.requestId as string | undefined);
      if (!auth) return challenge(res, metadataUrl, { code: 'invalid_token', description: 'The access token is invalid or expired.' });
      res.locals.accountId = (auth.extra?.caller as { principal: Principal }).principal.accountId;
      req.auth = auth;
      next();
    } catch (error) {
      next(error);
    }
  };
}
