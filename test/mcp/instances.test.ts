import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { startService, type RunningService } from '../../src/service.js';
import { ok, testEnv } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectMcp } from './clients.js';

/**
 * Two instances of the service on one database, as behind a load balancer: the guards' state
 * must hold across them (no session or guard state lives only in one process).
 */
describe('MCP gateway across instances', () => {
  let app: TestApp;
  let second: RunningService;
  let secondDataDir: string;
  beforeAll(async () => {
    app = await startTestApp({ catalog: 'seeded', env: { ...testEnv, CONFIRM_ABOVE_CREDITS: '20' } });
    secondDataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-second-'));
    const config = app.service.context.config;
    second = await startService(
      { ...config, dataDir: secondDataDir, exportDir: path.join(secondDataDir, 'exports'), JOB_WORKER: false },
      { log: createLogger('silent') },
    );
  });
  afterAll(async () => {
    await second?.stop();
    await app?.stop();
    if (secondDataDir) await rm(secondDataDir, { recursive: true, force: true });
  });

  it('redeems a confirmation token minted by one instance on another, once', async () => {
    const { apiKey } = await app.createAccount({ credits: 1000 });
    const payload = { searchParams: { headquartersCountryCode: ['US'] }, pageSize: 25 };
    const onFirst = await connectMcp(`${app.url}/mcp`, 'v1', { headers: { 'x-api-key': apiKey } });
    const onSecond = await connectMcp(`${second.url}/mcp`, 'v2-legacy', { headers: { 'x-api-key': apiKey } });
    try {
      const asked = await onFirst.callTool('call_operation', { operationId: 'companySearch', payload });
      const token = asked.structuredContent.confirmationRequired.confirmationToken;
      const confirmed = await onSecond.callTool('call_operation', {
        operationId: 'companySearch',
        payload,
        confirmationToken: token,
      });
      expect(confirmed.isError).toBeFalsy();
      expect(confirmed.structuredContent.chargeInfo.creditsCharged).toBe(25);
      const replay = await onFirst.callTool('call_operation', {
        operationId: 'companySearch',
        payload,
        confirmationToken: token,
      });
      expect(replay.structuredContent.error.reason).toBe('used');
    } finally {
      await onFirst.close();
      await onSecond.close();
    }
  });

  it('answers a too-early poll from the cache whichever instance the poll lands on', async () => {
    const { apiKey } = await app.createAccount({ credits: 1000 });
    const created = ok(await app.request('POST', '/v1/audiences/create', { apiKey, name: 'Across instances' }));
    const audienceId = created.body.output.audienceId as string;
    const onFirst = await connectMcp(`${app.url}/mcp`, 'v2-modern', { headers: { 'x-api-key': apiKey } });
    const onSecond = await connectMcp(`${second.url}/mcp`, 'v1', { headers: { 'x-api-key': apiKey } });
    try {
      const first = await onFirst.callTool('call_operation', {
        operationId: 'getAudienceStatus',
        payload: { audienceId },
      });
      expect(first.structuredContent.polling.servedFromCache).toBe(false);
      const again = await onSecond.callTool('call_operation', {
        operationId: 'getAudienceStatus',
        payload: { audienceId },
      });
      expect(again.structuredContent.polling.servedFromCache).toBe(true);
      expect(again.structuredContent.output).toEqual(first.structuredContent.output);
    } finally {
      await onFirst.close();
      await onSecond.close();
    }
  });
});
