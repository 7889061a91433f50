import { isLoopbackHost } from '../loopback.js';

/**
 * What a client may register (dynamically, or in a client ID metadata document), applied by
 * oidc-provider's client-metadata hook each time a client is read, so that a registration, a
 * fetched document and a stored client all answer to the same rules:
 *
 * - A redirect URI on loopback (http://127.0.0.1, [::1] or localhost) or in a private-use scheme
 *   (com.example.app:/cb) is a native application's (RFC 8252), whatever application_type says:
 *   the client is native, and its loopback redirects may use any port (RFC 8252 §7.3, OAuth 2.1).
 *   Clients that omit the field (the TypeScript SDK v1, mcporter) get this too.
 * - Any other client is a web client, and its redirect URIs must be https: no plain http on a
 *   host that is not loopback, so that open registration cannot make the authorization endpoint's
 *   error redirects a redirector to arbitrary plain-http sites.
 * - A public client (token_endpoint_auth_method none, the default here) gets no client_secret:
 *   one would be refused by every authentication method it could be sent with.
 */

/** Client authentication methods that use no shared secret. */
const secretlessMethods = new Set(['none', 'private_key_jwt', 'tls_client_auth', 'self_signed_tls_client_auth']);
/** RFC 7591 metadata this server keeps beyond oidc-provider's own (strings, bounded). */
export const extraClientProperties = ['software_id', 'software_version'] as const;

/** oidc-provider's errors: InvalidClientMetadata answers invalid_redirect_uri for a description about redirect_uris. */
export interface ClientPolicyErrors {
  InvalidClientMetadata: new (description: string) => Error;
}

function isNativeRedirect(uri: string): boolean {
  const parsed = URL.parse(uri);
  if (!parsed) return false;
  if (parsed.protocol === 'http:') return isLoopbackHost(parsed.hostname);
  return parsed.protocol !== 'https:';
}

/** A signing or encryption algorithm that keys from the client secret (HMAC, or a symmetric key). */
function usesSecretAsKey(metadata: Record<string, unknown>): boolean {
  return Object.entries(metadata).some(
    ([name, value]) =>
      name.endsWith('_alg') &&
      typeof value === 'string' &&
      (/^HS\d+$/.test(value) || value === 'dir' || /KW$/.test(value)),
  );
}

/**
 * The policy, on the client's metadata as oidc-provider's schema holds it (defaults applied): it
 * may change application_type and drop the secret, and throws the provider's error to refuse.
 */
export function applyClientPolicy(metadata: Record<string, unknown>, errors: ClientPolicyErrors): void {
  for (const name of extraClientProperties) {
    const value = metadata[name];
    if (value !== undefined && (typeof value !== 'string' || value.length > 255))
      throw new errors.InvalidClientMetadata(`${name} must be a string of at most 255 characters`);
  }
  const redirects = Array.isArray(metadata.redirect_uris)
    ? metadata.redirect_uris.filter((u) => typeof u === 'string')
    : [];
  if (redirects.some(isNativeRedirect)) metadata.application_type = 'native';
  else if (metadata.application_type !== 'native') {
    const plain = redirects.find((uri) => URL.parse(uri)?.protocol === 'http:');
    if (plain)
      throw new errors.InvalidClientMetadata(
        `redirect_uris of a web client must use https (plain http is allowed on loopback only: 127.0.0.1, [::1], localhost): ${plain}`,
      );
  }
  const method = metadata.token_endpoint_auth_method;
  if (typeof method === 'string' && secretlessMethods.has(method) && !usesSecretAsKey(metadata)) {
    delete metadata.client_secret;
    delete metadata.client_secret_expires_at;
  }
}
