import type * as OidcProviderLibrary from 'oidc-provider';

/**
 * oidc-provider, loaded on the first request that needs it rather than at start: importing it is
 * slow enough that every test file and every start felt it, and it prints its notice that Node 20
 * is not a runtime it supports (it runs on Node 20.19+; its tests target Node 22).
 */
type OidcProviderModule = typeof OidcProviderLibrary;
let loaded: Promise<OidcProviderModule> | null = null;

export function oidcProvider(): Promise<OidcProviderModule> {
  loaded ??= import('oidc-provider');
  return loaded;
}

/** Whether an error is oidc-provider's "interaction session not found" (expired, or another browser's). */
export function isSessionNotFound(error: unknown): boolean {
  return error instanceof Error && error.name === 'SessionNotFound';
}
