import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.js';

/** The single sign-on settings: a bad value stops the start with a message naming the variable. */
describe('single sign-on configuration', () => {
  const refused = (env: Record<string, string>): string => {
    try {
      loadConfig(env);
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
    throw new Error(`accepted ${JSON.stringify(env)}`);
  };

  it('accepts an external provider, the development provider and browser origins', () => {
    const external = loadConfig({
      OIDC_ISSUER: 'https://login.example.com/realms/acme',
      OIDC_CLIENT_ID: 'pds',
      OIDC_CLIENT_SECRET: 's3cret',
    });
    expect(external).toMatchObject({
      OIDC_ISSUER: 'https://login.example.com/realms/acme',
      OIDC_SCOPES: 'openid email profile',
      OIDC_DEV_PROVIDER: false,
    });
    expect(loadConfig({ OIDC_DEV_PROVIDER: 'true' }).OIDC_DEV_PROVIDER).toBe(true);
    expect(
      loadConfig({ OIDC_ISSUER: 'http://127.0.0.1:4000/idp', OIDC_CLIENT_ID: 'pds' }).OIDC_CLIENT_SECRET,
    ).toBeUndefined();
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example, http://localhost:5173' }).CORS_ORIGINS).toEqual([
      'https://app.example',
      'http://localhost:5173',
    ]);
  });

  it('names the variable of each bad value', () => {
    expect(refused({ OIDC_ISSUER: 'http://login.example.com', OIDC_CLIENT_ID: 'pds' })).toMatch(
      /OIDC_ISSUER: must be an https:\/\/ URL/,
    );
    expect(refused({ OIDC_ISSUER: 'https://login.example.com' })).toMatch(
      /OIDC_CLIENT_ID: is required with OIDC_ISSUER/,
    );
    expect(refused({ OIDC_CLIENT_ID: 'pds' })).toMatch(/OIDC_ISSUER: is required/);
    expect(
      refused({ OIDC_DEV_PROVIDER: 'true', OIDC_ISSUER: 'https://login.example.com', OIDC_CLIENT_ID: 'pds' }),
    ).toMatch(/OIDC_DEV_PROVIDER: cannot be combined/);
    expect(refused({ OIDC_DEV_PROVIDER: 'true', NODE_ENV: 'production' })).toMatch(
      /OIDC_DEV_PROVIDER: is for development only/,
    );
    expect(refused({ OAUTH_CIMD_ALLOW_LOOPBACK: 'true', NODE_ENV: 'production' })).toMatch(
      /OAUTH_CIMD_ALLOW_LOOPBACK: is for development only/,
    );
    expect(refused({ OIDC_SCOPES: 'email profile' })).toMatch(/OIDC_SCOPES: must include openid/);
    expect(refused({ CORS_ORIGINS: 'https://app.example/path' })).toMatch(/CORS_ORIGINS\.0: must be origins/);
    expect(refused({ OAUTH_TOKEN_CACHE_SECONDS: '600' })).toMatch(/OAUTH_TOKEN_CACHE_SECONDS/);
    expect(refused({ TRUST_PROXY: 'maybe' })).toMatch(/TRUST_PROXY/);
  });
});
