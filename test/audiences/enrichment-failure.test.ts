import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AudienceContactSource } from '../../src/core/audiences/sources.js';
import type { NetworkSource } from '../../src/core/ports/network-source.js';
import { waterfallAudienceContactSource } from '../../src/core/contacts/audience-sources.js';
import { SimulatedNetworkSource } from '../../src/providers/network/simulated-source.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { replaceable } from '../helpers/replaceable.js';
import { balanceOf, buildAudience, ok, readMail, testEnv, waitFor, waitForEnrichment } from './helpers.js';

/**
 * Enrichment runs whose contact source fails. The service starts with a replaceable contact
 * source, which a test points at one that wraps the real dataset source and fails on purpose from its
 * second batch on (a contact vendor going down mid-run).
 */
describe('enrichment failures and refunds', () => {
  let app: TestApp;
  const contacts = replaceable<AudienceContactSource>(() =>
    waterfallAudienceContactSource(app.service.context.services.contactWaterfall),
  );
  const network = replaceable<NetworkSource>(() => workingNetwork);
  let workingNetwork: NetworkSource;

  beforeAll(async () => {
    app = await startTestApp({
      env: { ...testEnv, JOB_RETRY_BASE_MS: '50' },
      services: { audienceContactSource: contacts.service, networkSource: network.service },
    });
    workingNetwork = new SimulatedNetworkSource(app.db.pool, { failureRate: 0, latencyMs: 0 });
  });
  afterEach(() => {
    contacts.use(null);
    network.use(null);
  });
  afterAll(async () => {
    await app?.stop();
  });

  function failingAfter(batches: number, failures = Infinity): AudienceContactSource & { calls: number } {
    const waterfall = waterfallAudienceContactSource(app.service.context.services.contactWaterfall);
    let failed = 0;
    const source = {
      name: 'flaky',
      calls: 0,
      async lookup(...args: Parameters<AudienceContactSource['lookup']>) {
        source.calls += 1;
        if (source.calls > batches && failed < failures) {
          failed += 1;
          throw new Error('contact provider unavailable');
        }
        return waterfall.lookup(...args);
      },
    };
    return source;
  }

  /** The first `limit` prospects of the audience and those of them holding a work email now. */
  async function prospectsWithWorkEmail(
    accountId: number,
    audienceId: string,
    limit: number,
  ): Promise<{ ids: number[]; withWork: Set<number> }> {
    const rows = (
      await app.db.pool.query<{ person_id: number; work_emails: string[] }>(
        'SELECT person_id, work_emails FROM audience_prospects WHERE account_id = $1 AND audience_id = $2 ORDER BY person_id LIMIT $3',
        [accountId, audienceId, limit],
      )
    ).rows;
    return {
      ids: rows.map((r) => Number(r.person_id)),
      withWork: new Set(rows.filter((r) => r.work_emails.length > 0).map((r) => Number(r.person_id))),
    };
  }

  const options = { runContactEnrichment: true, enrichmentType: { getWorkEmails: true } };

  it('a run that fails for good refunds everything it did not deliver, visibly in the balance and by mail', async () => {
    const { apiKey, accountId } = await app.createAccount({ credits: 5000, recipients: ['ops@example.com'] });
    const { audienceId } = await buildAudience(app, apiKey, {
      creationMethod: 'START_FROM_PROSPECTS',
      filters: { prospectSearchParams: { country3LetterCode: ['USA'] }, maxProspects: 450 },
    });
    const estimate = ok(
      await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey, ...options }),
    ).body.output;
    expect(estimate.totalCredits).toBe(900);
    const source = failingAfter(1);
    contacts.use(source);
    const before = await balanceOf(app, apiKey);
    const run = ok(
      await app.request('POST', `/v1/audiences/${audienceId}/enrich`, {
        apiKey,
        ...options,
        userEmail: 'ops@example.com',
      }),
    ).body.output;
    expect(await balanceOf(app, apiKey)).toBe(before - 900);

    const failed = await waitForEnrichment(app, apiKey, audienceId);
    expect(failed.status).toBe('FAILED');
    expect(failed.currentStage).toBe('FAILED');
    expect(failed.failureReason).toMatch(/contact provider unavailable.*refunded/);
    expect(failed.progressPercent).toBeLessThan(100);
    const steps = failed.steps as Array<{ name: string; status: string; done: number }>;
    expect(steps.find((s) => s.name === 'Fetching Contact Details')).toMatchObject({ status: 'FAILED', done: 200 });
    expect(failed.stepsCompleted).toEqual([
      'Initialization',
      'Sales Tool Enrichment',
      'Live Enrichment',
      'Resubmitting Audience',
      'Cleaning Names',
    ]);
    expect(source.calls).toBe(1 + 3); // one good batch, then one failing call per attempt

    // Only the work emails found in the first batch of 200 are paid for; nobody after it got one.
    const { withWork } = await prospectsWithWorkEmail(accountId, audienceId, 200);
    expect((await prospectsWithWorkEmail(accountId, audienceId, 450)).withWork.size).toBe(withWork.size);
    const delivered = withWork.size * 2;
    expect(failed.refundedCredits).toBe(900 - delivered);
    expect(await balanceOf(app, apiKey)).toBe(before - delivered);
    const ledger = await app.db.pool.query<{ amount: number; idempotency_key: string }>(
      'SELECT amount, idempotency_key FROM credit_ledger WHERE account_id = $1 AND reference = $2 ORDER BY id',
      [accountId, `enrichment:${run.enrichmentId}`],
    );
    // The first batch's refund (when it found nothing for someone) is an entry of its own; a zero refund is none.
    const firstBatchRefund = (200 - withWork.size) * 2;
    expect(ledger.rows.map((r) => [r.amount, r.idempotency_key])).toEqual([
      [-900, `enrichment:${run.enrichmentId}:charge`],
      ...(firstBatchRefund > 0 ? [[firstBatchRefund, `enrichment:${run.enrichmentId}:refund:5:null`]] : []),
      [900 - 200 * 2, `enrichment:${run.enrichmentId}:refund:failed`],
    ]);
    const job = await app.db.pool.query(
      `SELECT status, attempts, last_error FROM jobs WHERE kind = 'audience.enrichment' AND payload->>'enrichmentId' = $1`,
      [run.enrichmentId],
    );
    expect(job.rows[0]).toMatchObject({ status: 'failed', attempts: 3, last_error: 'contact provider unavailable' });

    const outbox = path.join(app.dataDir, 'outbox');
    const file = await waitFor('the failure mail', async () =>
      (await readdir(outbox).catch(() => [])).find((f) => f.endsWith('.eml')),
    );
    const mail = readMail(await readFile(path.join(outbox, file), 'utf8'));
    expect(mail.headers.subject).toMatch(/failed$/);
    expect(mail.text).toContain(`${900 - delivered} credits for the work not done were refunded`);

    // The audience is still NORMAL and can be enriched again.
    expect(ok(await app.request('GET', `/v1/audiences/${audienceId}?apiKey=${apiKey}`)).body.output.status).toBe(
      'NORMAL',
    );
  });

  it('a run whose source fails once retries from where it was, and charges nothing twice', async () => {
    const { apiKey, accountId } = await app.createAccount({ credits: 5000 });
    const { audienceId } = await buildAudience(app, apiKey, {
      creationMethod: 'START_FROM_PROSPECTS',
      filters: { prospectSearchParams: { country3LetterCode: ['GBR'] }, maxProspects: 450 },
    });
    ok(await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey, ...options }));
    const source = failingAfter(1, 1);
    contacts.use(source);
    const before = await balanceOf(app, apiKey);
    ok(await app.request('POST', `/v1/audiences/${audienceId}/enrich`, { apiKey, ...options }));
    const done = await waitForEnrichment(app, apiKey, audienceId);
    expect(done.status).toBe('DONE');
    expect(source.calls).toBe(4); // batches of 200, 200, 50, plus the failed call
    const { ids, withWork } = await prospectsWithWorkEmail(accountId, audienceId, 450);
    expect(ids.length).toBe(450);
    expect(await balanceOf(app, apiKey)).toBe(before - withWork.size * 2);
    expect(done.refundedCredits).toBe((450 - withWork.size) * 2);
  });

  it('live fetches that fall back to stored data are refunded; live ones are not charged twice within a day', async () => {
    const { apiKey, accountId } = await app.createAccount({ credits: 5000 });
    const { audienceId } = await buildAudience(app, apiKey, {
      filters: { companySearchParams: { headquartersCountryCode: ['CA'] }, maxCompanies: 4, maxProspects: 30 },
    });
    const live = { runCompanyLiveEnrichment: true, runProfileLiveEnrichment: true };
    const estimate = ok(
      await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey, ...live }),
    ).body.output;
    const expected = 2 * (estimate.companiesToEnrich as number) + 2 * (estimate.prospectsToEnrich as number);
    expect(estimate.totalCredits).toBe(expected);
    expect(estimate.companiesToEnrich).toBeGreaterThan(0);

    network.use(new SimulatedNetworkSource(app.db.pool, { failureRate: 1, latencyMs: 0 }));
    const before = await balanceOf(app, apiKey);
    try {
      ok(await app.request('POST', `/v1/audiences/${audienceId}/enrich`, { apiKey, ...live }));
      const down = await waitForEnrichment(app, apiKey, audienceId);
      expect(down).toMatchObject({ status: 'DONE', refundedCredits: expected });
      expect(await balanceOf(app, apiKey)).toBe(before);
    } finally {
      network.use(null);
    }
    const stillStored = await app.db.pool.query(
      'SELECT count(*)::int AS n FROM audience_prospects WHERE account_id = $1 AND live_enriched_at IS NOT NULL',
      [accountId],
    );
    expect(stillStored.rows[0].n).toBe(0);

    // Nothing was fetched live, so the same values cost the same again; this time the network answers.
    const again = ok(await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey, ...live }))
      .body.output;
    expect(again.totalCredits).toBe(expected);
    ok(await app.request('POST', `/v1/audiences/${audienceId}/enrich`, { apiKey, ...live }));
    expect(await waitForEnrichment(app, apiKey, audienceId)).toMatchObject({ status: 'DONE', refundedCredits: 0 });
    expect(await balanceOf(app, apiKey)).toBe(before - expected);

    // Within 24 hours the records fetched live are not fetched or charged again.
    const third = ok(await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey, ...live }))
      .body.output;
    expect(third.totalCredits).toBe(0);
    expect(third.breakdown.liveCompany).toEqual({ credits: 0, discounted: true });
    expect(third.breakdown.liveProspect).toEqual({ credits: 0, discounted: true });
  });
});
