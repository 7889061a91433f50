import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purposeKey } from '../../src/auth/signing-keys.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectMcp } from './clients.js';

/**
 * The process-wide signing secret is loaded once, by the composition root, and passed to every
 * use: a secret given in its place (as a test gives one) is the one the MCP gateway signs with,
 * and the service then neither makes nor reads a secret of its own in the database.
 */
describe('the signing secret', () => {
  const secret = Buffer.alloc(32, 9);
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ services: { signingKey: secret }, env: { CONFIRM_ABOVE_CREDITS: '5' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("given in place of the stored one, signs the gateway's confirmation tokens, and no other is made", async () => {
    const client = await connectMcp(`${app.url}/mcp`, 'v1', { headers: { 'x-api-key': app.apiKey } });
    try {
      const payload = { searchParams: {}, pageSize: 10 };
      const asked = await client.callTool('call_operation', { operationId: 'companySearch', payload });
      const token = asked.structuredContent.confirmationRequired.confirmationToken as string;
      const [, body, mac] = token.split('.');
      const expected = createHmac('sha256', purposeKey(secret, 'mcp confirmation token'))
        .update(`confirm.${body}`)
        .digest('base64url');
      expect(mac).toBe(expected);
      const confirmed = await client.callTool('call_operation', {
        operationId: 'companySearch',
        payload,
        confirmationToken: token,
      });
      expect(confirmed.structuredContent.chargeInfo.creditsCharged).toBe(10);
    } finally {
      await client.close();
    }
    const stored = await app.db.pool.query('SELECT name FROM mcp_signing_keys');
    expect(stored.rows).toEqual([]);
  });
});
