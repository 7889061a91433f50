import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';
import { guardedLookup, refusedUrlHost } from '../providers/network-guard.js';

/**
 * The fetch the authorization server uses for client ID metadata documents: https only (the
 * library checks the URL), and never to an address that is not globally routable (SSRF: a
 * client_id naming an internal service). The check happens at connection time on the
 * addresses DNS actually returned, so a name that resolves to a private address is refused as
 * surely as an IP literal. Loopback can be allowed for development and tests
 * (OAUTH_CIMD_ALLOW_LOOPBACK), together with an extra trusted certificate authority
 * (OAUTH_CIMD_CA_FILE) for a self-signed local certificate; https stays required. The address
 * rules are src/providers/network-guard.ts's, which webhook deliveries share.
 */

export interface SafeFetchOptions {
  allowLoopback: boolean;
  extraCaFile?: string;
}

export function createSafeFetch(options: SafeFetchOptions) {
  const policy = { allowLoopback: options.allowLoopback };
  const ca = options.extraCaFile ? [...rootCertificates, readFileSync(options.extraCaFile, 'utf8')] : undefined;
  const agent = new Agent({ connect: { lookup: guardedLookup(policy) as never, ...(ca ? { ca } : {}) } });

  return async (url: URL | string, init: RequestInit & { dispatcher?: unknown }): Promise<Response> => {
    const target = new URL(String(url));
    // An IP literal skips DNS, so it is checked here.
    const refusal = refusedUrlHost(target, policy);
    if (refusal) throw new Error(`refused to fetch ${target.origin}: ${refusal}`);
    const { dispatcher: _libraryDispatcher, ...rest } = init;
    return (await undiciFetch(target, {
      ...(rest as Parameters<typeof undiciFetch>[1]),
      dispatcher: agent,
      redirect: 'manual',
    })) as unknown as Response;
  };
}
