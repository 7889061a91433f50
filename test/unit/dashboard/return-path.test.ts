import { describe, expect, it } from 'vitest';
import { safeNext } from '../../../src/dashboard/sign-in.js';

/**
 * Where the dashboard sends a person back after sign-in (`next`): a path under /dashboard/ once
 * resolved as the browser resolves it, or /dashboard itself. test/dashboard/sign-in-return.test.ts
 * shows the same over HTTP.
 */
describe('the return path after sign-in', () => {
  it.each([
    '/dashboard/../oauth/authorize?client_id=x',
    '/dashboard/./../oauth/authorize',
    '/dashboard/keys/../../oauth/authorize',
    '/dashboard/..',
    '/dashboard/%2e%2e/oauth/authorize',
    '/dashboard/%2E%2E/oauth/authorize',
    '/dashboard/.%2e/oauth',
    '/dashboard/%2f%2fevil.example',
    '/dashboard\\..\\oauth',
    '/dashboard/\\evil.example',
    '/dashboard/%5c..%5coauth',
    '/dashboard/keys\u0000',
    '/dashboard/\tkeys',
    '/dashboard/\r\nSet-Cookie: x=y',
    '/dashboard/%0d%0aSet-Cookie:x',
    '//evil.example/dashboard',
    'https://evil.example/dashboard',
    '/dashboardx',
    '/dashboard..',
    '/oauth/authorize',
    '',
  ])('refuses %j and answers /dashboard', (next) => {
    expect(safeNext(next)).toBe('/dashboard');
  });

  it('keeps a path under /dashboard with its query, resolved', () => {
    expect(safeNext('/dashboard')).toBe('/dashboard');
    expect(safeNext('/dashboard/usage?days=90')).toBe('/dashboard/usage?days=90');
    expect(safeNext('/dashboard/keys/./new')).toBe('/dashboard/keys/new');
    expect(safeNext('/dashboard/keys/../team')).toBe('/dashboard/team');
    expect(safeNext('/dashboard/data?q=a%2Fb')).toBe('/dashboard/data?q=a%2Fb');
    expect(safeNext(['/dashboard/keys'])).toBe('/dashboard');
    expect(safeNext(undefined)).toBe('/dashboard');
  });
});
