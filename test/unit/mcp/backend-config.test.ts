import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';

/**
 * BACKEND_URL sends each operation to another deployment with the caller's API key. A /mcp/v3
 * sign-in has no key, and its token never goes upstream, so the two are refused together at start.
 */
describe('BACKEND_URL', () => {
  const refusal = (env: Record<string, string>): string => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
    throw new Error(`accepted ${JSON.stringify(env)}`);
  };

  it('is accepted alone, and the gateway runs operations in process without it', () => {
    expect(loadConfig({ BACKEND_URL: 'http://api.internal:8080' }).BACKEND_URL).toBe('http://api.internal:8080');
    expect(loadConfig({}).BACKEND_URL).toBeUndefined();
  });

  it('is refused beside single sign-on, naming the variable and why', () => {
    const external = {
      BACKEND_URL: 'http://api.internal:8080',
      OIDC_ISSUER: 'https://login.example.com',
      OIDC_CLIENT_ID: 'pds',
    };
    expect(refusal(external)).toMatch(/BACKEND_URL: cannot be combined with single sign-on/);
    expect(refusal({ BACKEND_URL: 'http://api.internal:8080', OIDC_DEV_PROVIDER: 'true' })).toMatch(
      /BACKEND_URL: .*a \/mcp\/v3 sign-in has none/,
    );
  });
});
