import type { AuthInfo } from '@modelcontextprotocol/server';
import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '../core/principal.js';
import { quoted, sendRefusal } from './mcp-errors.js';
import { mcpScopes, requiredScope, scopeSatisfied, spendScope, type McpScope } from './scopes.js';

/**
 * Bearer-token authentication of the OAuth MCP surface (/mcp/v3), as an OAuth 2.0 resource
 * server: every refusal is a 401 whose WWW-Authenticate names the protected-resource metadata
 * (RFC 9728), from which a client discovers the authorization server. Verifying tokens is the
 * job of the `mcpBearerVerifier` registered in `context.services` by the authorization server
 * (authorization-server.ts); while none is registered, no token is valid.
 */

/** What a valid token grants: the account it acts for (its principal carries the grant's scopes). */
export interface BearerGrant {
  principal: Principal;
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
  /** Set while sign-in cannot work (no identity provider configured): what to set, for the 401's description. */
  unavailableReason?: string;
}

/** What the resource server needs of the service: its public URL and the verifier of its tokens. */
export interface BearerContext {
  publicUrl: string;
  services: { mcpBearerVerifier: BearerTokenVerifier };
}

export function protectedResourceMetadataPath(resourcePath: string): string {
  return `/.well-known/oauth-protected-resource${resourcePath}`;
}

export function protectedResourceMetadataUrl(context: BearerContext, resourcePath: string): string {
  return `${context.publicUrl}${protectedResourceMetadataPath(resourcePath)}`;
}

/** The RFC 9728 document of a bearer-protected resource. */
export function protectedResourceMetadata(context: BearerContext, resourcePath: string): Record<string, unknown> {
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

/** What a sign-in to /mcp/v3 asks for, as the 401 challenge names it: every scope of the surface. */
export const signInScope = mcpScopes.join(' ');

/** The Bearer challenge of /mcp/v3's refusals (RFC 6750 and RFC 9728). */
export function bearerChallenge(
  metadataUrl: string,
  error?: { code?: string; description?: string; scope?: string },
): string {
  const parts = [`resource_metadata=${quoted(metadataUrl)}`];
  if (error) {
    if (error.code) parts.push(`error=${quoted(error.code)}`);
    if (error.scope) parts.push(`scope=${quoted(error.scope)}`);
    if (error.description) parts.push(`error_description=${quoted(error.description)}`);
  }
  return `Bearer ${parts.join(', ')}`;
}

/** The AuthInfo an MCP request carries to its tools for a valid, unexpired token; null otherwise. */
export async function bearerAuth(context: BearerContext, token: string, requestId?: string): Promise<AuthInfo | null> {
  const verifier = context.services.mcpBearerVerifier;
  const grant = verifier ? await verifier.verify(token) : null;
  if (!grant || grant.expiresAt * 1000 <= Date.now()) return null;
  return {
    token: 'bearer',
    clientId: grant.clientId,
    scopes: grant.scopes,
    expiresAt: grant.expiresAt,
    extra: {
      caller: {
        principal: grant.principal,
        requestId,
        surface: 'mcp/v3',
      },
    },
  };
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerTokenOf(header: string | undefined): string | null {
  const match = header ? /^Bearer\s+([^\s]+)\s*$/i.exec(header) : null;
  return match ? (match[1] as string) : null;
}

/** The message a scope check read, for the MCP handler (boxed: a JSON body may be null). */
export interface ReadMessage {
  value: unknown;
}

/** Whether a token's scopes allow this request body (a charged call needs mcp:spend; everything else mcp:read). */
export function bearerPermits(auth: AuthInfo, body: unknown): { ok: true } | { ok: false; required: McpScope } {
  const required = requiredScope(body);
  return scopeSatisfied(auth.scopes, required) ? { ok: true } : { ok: false, required };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON-RPC message of a request body, read as a web-standard Request's json() reads it (UTF-8,
 * a leading byte-order mark dropped), or `unreadable` for anything else: another charset named in
 * Content-Type, a Content-Encoding, bytes that are not UTF-8, text that is not JSON. The message
 * read here is the one handed to the SDK (its parsedBody), so that the scope is decided on the
 * very message that runs.
 */
export function readMessage(raw: Buffer | null, headers: { contentType?: string; contentEncoding?: string }): unknown {
  if (raw === null || raw.length === 0) return unreadable;
  if (headers.contentEncoding !== undefined && headers.contentEncoding.trim().toLowerCase() !== 'identity')
    return unreadable;
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(headers.contentType ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return unreadable;
  try {
    return JSON.parse(utf8.decode(raw));
  } catch {
    return unreadable;
  }
}

/** What readMessage answers for a body it cannot read. */
export const unreadable: unique symbol = Symbol('unreadable body');

/**
 * Express middleware of /mcp/v3: a missing or invalid token is answered 401 before any MCP
 * processing; a token without the scope the request needs is answered 403 insufficient_scope,
 * naming the scope to step up to; a valid one becomes `req.auth`, which the MCP handler hands
 * to its tools. `readBody` reads the request body once and keeps it for the MCP handler; for a
 * token without mcp:spend, the message judged is left in `res.locals.mcpMessage` for the MCP
 * handler to run as it is. The tools check the scope again on the operation they run (the
 * gateway): this check gives the refusal its HTTP form, that one is the authority.
 */
export function requireBearer(
  context: BearerContext,
  resourcePath: string,
  readBody: (req: Request, res: Response) => Promise<Buffer | null | 'answered'>,
) {
  const metadataUrl = protectedResourceMetadataUrl(context, resourcePath);
  // A narrower token than mcp:spend: the body is read here, judged, and handed on as read. A body
  // this cannot read is refused (fail closed): what the SDK would make of it is not known here.
  const verdictOnBody = async (req: Request, res: Response, auth: AuthInfo) => {
    if (req.method !== 'POST') return { ok: true } as const;
    const raw = await readBody(req, res);
    if (raw === 'answered') return raw;
    const message = readMessage(raw, {
      contentType: req.header('content-type'),
      contentEncoding: req.header('content-encoding'),
    });
    if (message === unreadable) return { ok: false, required: spendScope, unreadable: true } as const;
    res.locals.mcpMessage = { value: message } satisfies ReadMessage;
    return bearerPermits(auth, message);
  };
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const requestId = res.locals.requestId as string | undefined;
      const unavailable = context.services.mcpBearerVerifier?.unavailableReason;
      const token = bearerTokenOf(req.header('authorization'));
      if (!token) {
        const apiKeyInstead = req.header('x-api-key')
          ? ' An x-api-key header is not accepted here: API keys work on /mcp and /mcp/v2.'
          : '';
        const how =
          unavailable ??
          'Sign in through your MCP client (OAuth): it discovers the authorization server from the resource_metadata URL in WWW-Authenticate.';
        sendRefusal(res, {
          status: 401,
          code: 'unauthorized',
          message: `This endpoint needs an OAuth access token (Authorization: Bearer <token>).${apiKeyInstead} ${how}`,
          // A request without credentials gets no error code (RFC 6750 §3.1), only the description of why sign-in cannot work yet.
          // The scope names both: the MCP spec has clients ask for what the challenge names, and several cannot step up later.
          wwwAuthenticate: unavailable
            ? bearerChallenge(metadataUrl, { description: unavailable, scope: signInScope })
            : bearerChallenge(metadataUrl, { scope: signInScope }),
          requestId,
        });
        return;
      }
      const auth = await bearerAuth(context, token, requestId);
      if (!auth) {
        const description =
          'The access token is invalid, expired or revoked, or was not issued for this server. Sign in again through your MCP client.';
        sendRefusal(res, {
          status: 401,
          code: 'invalid_token',
          message: description,
          wwwAuthenticate: bearerChallenge(metadataUrl, { code: 'invalid_token', description, scope: signInScope }),
          requestId,
        });
        return;
      }
      res.locals.accountId = (auth.extra?.caller as { principal: Principal }).principal.accountId;
      // A token that may spend may do anything here: only a narrower one needs the body read.
      const verdict = scopeSatisfied(auth.scopes, spendScope)
        ? ({ ok: true } as const)
        : await verdictOnBody(req, res, auth);
      if (verdict === 'answered') return;
      if (!verdict.ok) {
        const description =
          'unreadable' in verdict
            ? 'The request body could not be read as UTF-8 JSON, so whether it charges credits is not known; with only mcp:read it is refused. Send plain UTF-8 JSON (no other charset or Content-Encoding), or authorize again with mcp:spend.'
            : verdict.required === spendScope
              ? 'This call can charge credits, which needs the mcp:spend scope; this token has only mcp:read. Authorize again with mcp:spend (your client can step up), or call free operations only.'
              : 'This token has no mcp:read scope. Authorize again with mcp:read.';
        sendRefusal(res, {
          status: 403,
          code: 'insufficient_scope',
          message: description,
          wwwAuthenticate: bearerChallenge(metadataUrl, {
            code: 'insufficient_scope',
            scope: verdict.required,
            description,
          }),
          requestId,
        });
        return;
      }
      req.auth = auth;
      next();
    } catch (error) {
      next(error);
    }
  };
}
