import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAudience as buildByRest, balanceOf, ok, testEnv, waitFor } from '../audiences/helpers.js';
import { charge } from '../../src/core/credits.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { connectMcp, summaryOf, type McpTestClient } from './clients.js';

/**
 * The audience workflow through call_operation: polling discipline on the status operations,
 * and the confirmation of triggerEnrichment with the gateway's own estimate, in both eras.
 */
describe('audience workflow through MCP', () => {
  let app: TestApp;

  /** Waits until the account's one job of this kind has finished. */
  async function jobFinished(accountId: number, kind: string): Promise<void> {
    await waitFor(`the ${kind} job`, async () => {
      const finished = await app.db.pool.query(
        'SELECT 1 FROM jobs WHERE account_id = $1 AND kind = $2 AND finished_at IS NOT NULL',
        [accountId, kind],
      );
      return finished.rowCount === 1;
    });
  }

  beforeAll(async () => {
    app = await startTestApp({ env: { ...testEnv, JOB_STEP_DELAY_MS: '400' } });
  });
  afterAll(async () => {
    await app?.stop();
  });

  const filters = {
    companySearchParams: { headquartersCountryCode: ['US'], industriesV2: ['software-development'] },
    prospectSearchParams: { jobTitleV2: { included: ['manager', 'sales'] } },
    maxCompanies: 10,
    maxProspects: 60,
  };
  const enrichment = {
    maxProspectsToEnrich: 15,
    enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: true },
    runContactEnrichment: true,
  };

  const call = (
    client: McpTestClient,
    operationId: string,
    payload: Record<string, unknown>,
    confirmationToken?: string,
  ) => client.callTool('call_operation', { operationId, payload, ...(confirmationToken ? { confirmationToken } : {}) });
  const pollRow = async (accountId: number, operationId: string) =>
    (
      await app.db.pool.query<{ fetched_at: Date }>(
        'SELECT fetched_at FROM mcp_poll_cache WHERE account_id = $1 AND operation_id = $2',
        [accountId, operationId],
      )
    ).rows;

  it('answers a status poll sooner than its interval from the last result, and says when to poll next', async () => {
    const { apiKey, accountId } = await app.createAccount({ credits: 50_000 });
    const client = await connectMcp(`${app.url}/mcp`, 'v2-legacy', { headers: { 'x-api-key': apiKey } });
    try {
      const created = await call(client, 'createAudience', { name: 'MCP audience' });
      expect(created.isError).toBeFalsy();
      const audienceId = created.structuredContent.output.audienceId as string;
      // Caps whose sum passes the confirmation threshold: the build is confirmed at them.
      const caps = { maxCompanies: 10, maxProspects: 500 };
      expect(
        (await call(client, 'updateAudienceSearchParams', { audienceId, ...filters, ...caps })).isError,
      ).toBeFalsy();

      const draft = await call(client, 'getAudienceStatus', { audienceId });
      expect(draft.structuredContent.output.status).toBe('DRAFT');
      expect(draft.structuredContent.polling).toEqual({
        nextPollAfterSeconds: 30,
        servedFromCache: false,
        intervalSeconds: 30,
      });
      expect(summaryOf(draft)).toContain('Poll again in 30 s');
      const [cachedRow] = await pollRow(accountId, 'getAudienceStatus');
      expect(cachedRow).toBeDefined();

      const tooSoon = await call(client, 'getAudienceStatus', { audienceId });
      expect(tooSoon.isError).toBeFalsy();
      expect(tooSoon.structuredContent.output).toEqual(draft.structuredContent.output);
      expect(tooSoon.structuredContent.polling.servedFromCache).toBe(true);
      expect(tooSoon.structuredContent.polling.nextPollAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(tooSoon.structuredContent.polling.nextPollAfterSeconds).toBeLessThanOrEqual(30);
      expect(summaryOf(tooSoon)).toMatch(/answered from the gateway's cache .* Poll again in \d+ s/);
      // The backend was not asked: the cached row was not refreshed.
      expect((await pollRow(accountId, 'getAudienceStatus'))[0]?.fetched_at).toEqual(cachedRow?.fetched_at);

      // Another account polling the same id is not served this account's answer.
      const stranger = await app.createAccount({ credits: 10 });
      const strangerClient = await connectMcp(`${app.url}/mcp`, 'v1', { headers: { 'x-api-key': stranger.apiKey } });
      try {
        const foreign = await call(strangerClient, 'getAudienceStatus', { audienceId });
        expect(foreign.isError).toBe(true);
        expect(foreign.structuredContent.error).toMatchObject({ status: 404, code: 'not_found' });
      } finally {
        await strangerClient.close();
      }

      // A build costs up to its caps (maxCompanies + maxProspects): the user confirms that first.
      const unconfirmed = await call(client, 'buildAudience', { audienceId });
      expect(unconfirmed.structuredContent.confirmationRequired).toMatchObject({
        operationId: 'buildAudience',
        credits: caps.maxCompanies + caps.maxProspects,
        balance: 50_000,
      });
      expect(summaryOf(unconfirmed)).toContain(`costs up to ${caps.maxCompanies + caps.maxProspects} credits`);
      // Beside the ceiling, what the build would charge with today's data, from a free count: what it does charge below.
      const expectedCredits = unconfirmed.structuredContent.confirmationRequired.expectedCredits as number;
      expect(expectedCredits).toBeGreaterThan(0);
      expect(expectedCredits).toBeLessThan(caps.maxCompanies + caps.maxProspects);
      expect(summaryOf(unconfirmed)).toContain(
        `With today's data it would find records for ${expectedCredits} credits`,
      );
      // A change made through the gateway makes the cached status stale: the next poll asks the service.
      const build = await call(
        client,
        'buildAudience',
        { audienceId },
        unconfirmed.structuredContent.confirmationRequired.confirmationToken,
      );
      expect(build.isError).toBeFalsy();
      expect(build.structuredContent.chargeInfo.method).toBe('charging-later');
      const afterBuild = await call(client, 'getAudienceStatus', { audienceId });
      expect(afterBuild.structuredContent.polling.servedFromCache).toBe(false);
      expect(afterBuild.structuredContent.output.status).toBe('BUILDING');

      // Once the build's job has finished, the next poll says so, within the interval.
      await jobFinished(accountId, 'audience.build');
      const done = await call(client, 'getAudienceStatus', { audienceId });
      expect(done.structuredContent.output.status).toBe('NORMAL');
      expect(done.structuredContent.output.numCompanies + done.structuredContent.output.numProspects).toBe(
        expectedCredits,
      );
      expect(done.structuredContent.polling.servedFromCache).toBe(false);

      // Once the interval has passed (simulated by ageing the cached row), the service is asked again.
      await app.db.pool.query(
        `UPDATE mcp_poll_cache SET fetched_at = now() - interval '31 seconds' WHERE account_id = $1`,
        [accountId],
      );
      const later = await call(client, 'getAudienceStatus', { audienceId });
      expect(later.structuredContent.polling.servedFromCache).toBe(false);
      expect(later.structuredContent.output.status).toBe('NORMAL');
    } finally {
      await client.close();
    }
  });

  it('triggerEnrichment: the gateway estimates, asks by elicitation, and a decline charges nothing', async () => {
    const { apiKey, accountId } = await app.createAccount({ credits: 50_000 });
    const { audienceId } = await buildByRest(app, apiKey, { filters });
    const estimate = ok(
      await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey, ...enrichment }),
    ).body.output;
    expect(estimate.totalCredits).toBeGreaterThan(0);
    const before = await balanceOf(app, apiKey);

    const questions: string[] = [];
    let reply: 'decline' | 'accept' = 'decline';
    const client = await connectMcp(`${app.url}/mcp`, 'v2-modern', {
      headers: { 'x-api-key': apiKey },
      onElicit: (message) => {
        questions.push(message);
        return reply === 'accept' ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
      },
    });
    try {
      const declined = await call(client, 'triggerEnrichment', { audienceId, ...enrichment });
      expect(declined.isError).toBeFalsy();
      expect(declined.structuredContent.declined).toMatchObject({
        operationId: 'triggerEnrichment',
        credits: estimate.totalCredits,
        creditsCharged: 0,
      });
      expect(questions[0]).toContain(`${estimate.totalCredits} credits`);
      expect(questions[0]).toContain(estimate.timeEstimate.formatted);
      expect(questions[0]).toContain('estimateEnrichmentCost');
      expect(await balanceOf(app, apiKey)).toBe(before);
      const status = await app.request('GET', `/v1/audiences/${audienceId}/enrichment/status?apiKey=${apiKey}`);
      expect(status.status).not.toBe(200);

      reply = 'accept';
      const accepted = await call(client, 'triggerEnrichment', { audienceId, ...enrichment });
      expect(accepted.isError).toBeFalsy();
      expect(accepted.structuredContent.output).toMatchObject({
        status: 'NOT_STARTED',
        estimatedCredits: estimate.totalCredits,
      });
      expect(accepted.structuredContent.chargeInfo).toMatchObject({
        method: 'charged-now',
        creditsCharged: estimate.totalCredits,
      });
      expect(questions).toHaveLength(2);
      expect(await balanceOf(app, apiKey)).toBe(before - estimate.totalCredits);

      const progress = await call(client, 'getEnrichmentStatus', { audienceId });
      expect(progress.isError).toBeFalsy();
      expect(progress.structuredContent.polling.nextPollAfterSeconds).toBe(30);

      // Once the enrichment's job has finished, the next poll says so, within the interval.
      await jobFinished(accountId, 'audience.enrichment');
      const finished = await call(client, 'getEnrichmentStatus', { audienceId });
      expect(finished.structuredContent.polling.servedFromCache).toBe(false);
      expect(finished.structuredContent.output.status).toBe('DONE');
    } finally {
      await client.close();
    }
  });

  it('triggerEnrichment by confirmation token (2025-era client): cost and time first, then the trigger', async () => {
    const { apiKey } = await app.createAccount({ credits: 50_000 });
    const { audienceId } = await buildByRest(app, apiKey, { filters });
    const before = await balanceOf(app, apiKey);
    const client = await connectMcp(`${app.url}/mcp/v2`, 'v1', { headers: { 'x-api-key': apiKey } });
    try {
      const first = await client.callTool('triggerEnrichment', { audienceId, ...enrichment });
      const request = first.structuredContent.confirmationRequired;
      expect(request.estimatedBy).toBe('estimateEnrichmentCost');
      expect(request.credits).toBe(request.estimate.totalCredits);
      expect(request.time).toBe(request.estimate.timeEstimate.formatted);
      expect(summaryOf(first)).toContain(`${request.credits} credits charged upfront`);
      expect(await balanceOf(app, apiKey)).toBe(before);

      const changed = await client.callTool('triggerEnrichment', {
        audienceId,
        ...enrichment,
        maxProspectsToEnrich: 14,
        confirmationToken: request.confirmationToken,
      });
      expect(changed.structuredContent.error.reason).toBe('mismatch');

      const confirmed = await client.callTool('triggerEnrichment', {
        audienceId,
        ...enrichment,
        confirmationToken: request.confirmationToken,
      });
      expect(confirmed.isError).toBeFalsy();
      expect(confirmed.structuredContent.output.estimatedCredits).toBe(request.credits);
      expect(await balanceOf(app, apiKey)).toBe(before - request.credits);
    } finally {
      await client.close();
    }
  });

  it('refuses triggerEnrichment when the estimate exceeds the balance, and says how to lower it', async () => {
    const { apiKey } = await app.createAccount({ credits: 50_000 });
    const { audienceId } = await buildByRest(app, apiKey, { filters });
    const estimate = ok(
      await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey, ...enrichment }),
    ).body.output;
    const { accountId } = (await app.service.context.authenticator.authenticate(apiKey))!;
    // Spend down to one credit less than the estimate.
    const spend = (await balanceOf(app, apiKey)) - (estimate.totalCredits - 1);
    await app.db.transaction((tx) => charge(tx, accountId, spend, { unit: 'test', reason: 'test: spend down' }));
    const client = await connectMcp(`${app.url}/mcp`, 'v1', { headers: { 'x-api-key': apiKey } });
    try {
      const refused = await call(client, 'triggerEnrichment', { audienceId, ...enrichment });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent.error).toMatchObject({
        code: 'insufficient_credits',
        balance: estimate.totalCredits - 1,
        worstCaseCredits: estimate.totalCredits,
      });
      expect(refused.structuredContent.error.nextStep).toContain('maxProspectsToEnrich');
      expect(await balanceOf(app, apiKey)).toBe(estimate.totalCredits - 1);
    } finally {
      await client.close();
    }
  });
});
