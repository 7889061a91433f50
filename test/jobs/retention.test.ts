import { access } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageKeyOf } from '../../src/core/audiences/export-row.js';
import { sweepRetention } from '../../src/job-queue/retention.js';
import { createLogger } from '../../src/log.js';
import { retentionTasks } from '../../src/service.js';
import { buildAudience, ok, testEnv, waitForExport } from '../audiences/helpers.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * Retention: export files past EXPORT_RETENTION_DAYS are deleted and their export says EXPIRED
 * (its old link answers 410 with what to do); finished jobs past JOB_RETENTION_DAYS are deleted;
 * nothing younger, and nothing still running, is touched. Ages are made by moving timestamps back.
 */
describe('retention sweep', () => {
  let app: TestApp;
  let apiKey: string;
  let accountId: number;
  let audienceId: string;

  const exists = (file: string) =>
    access(file).then(
      () => true,
      () => false,
    );
  /** One sweep with the tasks the service registers. */
  const sweep = () => sweepRetention(app.db.pool, retentionTasks(app.service.context));

  beforeAll(async () => {
    app = await startTestApp({ env: { ...testEnv, EXPORT_RETENTION_DAYS: '30', JOB_RETENTION_DAYS: '30' } });
    ({ apiKey, accountId } = await app.createAccount({ credits: 10_000 }));
    ({ audienceId } = await buildAudience(app, apiKey, {
      creationMethod: 'START_FROM_PROSPECTS',
      filters: { prospectSearchParams: { country3LetterCode: ['FRA'] }, maxProspects: 20 },
    }));
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function readyExport(): Promise<{ exportId: string; file: string; link: string }> {
    const accepted = ok(await app.request('POST', `/v1/audiences/${audienceId}/export/prospects`, { apiKey }));
    const exportId = String(accepted.body.output.exportId);
    const status = await waitForExport(app, apiKey, audienceId, exportId);
    const file = path.join(
      app.service.context.config.exportDir,
      ...storageKeyOf({ account_id: accountId, id: Number(exportId) }).split('/'),
    );
    return { exportId, file, link: String(status.downloadUrl) };
  }

  it('expires exports past the retention period and deletes their files, and leaves younger ones alone', async () => {
    const old = await readyExport();
    const young = await readyExport();
    expect(await exists(old.file)).toBe(true);
    await app.db.pool.query(
      "UPDATE audience_exports SET completed_at = now() - interval '31 days' WHERE account_id = $1 AND id = $2",
      [accountId, old.exportId],
    );

    const counts = await sweep();
    expect(counts?.exportsExpired).toBe(1);
    expect(await exists(old.file)).toBe(false);
    expect(await exists(young.file)).toBe(true);

    const expired = ok(
      await app.request('GET', `/v1/audiences/${audienceId}/exports/${old.exportId}?apiKey=${apiKey}`),
    );
    expect(expired.body.output).toMatchObject({ status: 'EXPIRED', downloadUrl: null, expiresAt: null });
    expect(expired.body.output.failureReason).toMatch(/retention period.*export the audience again/);
    const gone = await fetch(old.link);
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'gone',
      message: expect.stringMatching(/Export the audience again/),
    });

    const stillThere = ok(
      await app.request('GET', `/v1/audiences/${audienceId}/exports/${young.exportId}?apiKey=${apiKey}`),
    );
    expect(stillThere.body.output.status).toBe('READY');
    expect((await fetch(String(stillThere.body.output.downloadUrl))).status).toBe(200);

    // A second sweep finds nothing more to do.
    expect((await sweep())?.exportsExpired).toBe(0);
  });

  it('deletes finished jobs past the retention period, never queued or running ones', async () => {
    const jobs = await app.db.pool.query<{ id: number; status: string }>(
      `INSERT INTO jobs (kind, status, payload, finished_at, run_after) VALUES
         ('retention.test', 'succeeded', '{}', now() - interval '40 days', now() + interval '1 day'),
         ('retention.test', 'failed', '{}', now() - interval '40 days', now() + interval '1 day'),
         ('retention.test', 'succeeded', '{}', now() - interval '2 days', now() + interval '1 day'),
         ('retention.test', 'queued', '{}', NULL, now() + interval '1 day')
       RETURNING id, status`,
    );
    const counts = await sweep();
    expect(counts?.jobsDeleted).toBe(2);
    const left = await app.db.pool.query<{ id: number }>('SELECT id FROM jobs WHERE id = ANY($1) ORDER BY id', [
      jobs.rows.map((row) => row.id),
    ]);
    expect(left.rows.map((row) => row.id)).toEqual(jobs.rows.slice(2).map((row) => row.id));
    await app.db.pool.query('DELETE FROM jobs WHERE id = ANY($1)', [jobs.rows.map((row) => row.id)]);
  });

  it("runs every module's task: expired MCP results, old poll answers, idle rate-limit buckets and day-old idempotency keys go, fresh ones stay", async () => {
    await app.db.pool.query(
      `INSERT INTO mcp_stored_results (account_id, result_id, operation_id, answer, expires_at) VALUES
         ($1, 'retention-old', 'companySearch', '{}', now() - interval '1 minute'),
         ($1, 'retention-new', 'companySearch', '{}', now() + interval '1 hour')`,
      [accountId],
    );
    await app.db.pool.query(
      `INSERT INTO mcp_poll_cache (account_id, operation_id, resource_key, answer, fetched_at) VALUES
         ($1, 'getAudienceStatus', 'retention-old', '{}', now() - interval '2 hours'),
         ($1, 'getAudienceStatus', 'retention-new', '{}', now())`,
      [accountId],
    );
    await app.db.pool.query(
      `INSERT INTO rate_limit_buckets (subject, rate_class, tokens, allowed, updated_at) VALUES
         ('retention-old', 'search', 1, true, now() - interval '2 hours'),
         ('retention-new', 'search', 1, true, now())`,
    );
    await app.db.pool.query(
      `INSERT INTO idempotent_requests (account_id, key, request_hash, operation_id, state, locked_until, created_at) VALUES
         ($1, 'retention-old', 'h', 'companySearch', 'done', now(), now() - interval '25 hours'),
         ($1, 'retention-new', 'h', 'companySearch', 'done', now(), now())`,
      [accountId],
    );
    const counts = await sweep();
    expect(counts).toMatchObject({
      mcpResultsDeleted: 1,
      mcpPollAnswersDeleted: 1,
      rateLimitBucketsDeleted: 1,
      idempotencyKeysDeleted: 1,
    });
    const left = async (sql: string) =>
      (await app.db.pool.query<{ key: string }>(sql)).rows.map((r) => r.key).filter((k) => k.startsWith('retention-'));
    expect(await left('SELECT result_id AS key FROM mcp_stored_results')).toEqual(['retention-new']);
    expect(await left('SELECT resource_key AS key FROM mcp_poll_cache')).toEqual(['retention-new']);
    expect(await left('SELECT subject AS key FROM rate_limit_buckets')).toEqual(['retention-new']);
    expect(await left('SELECT key FROM idempotent_requests')).toEqual(['retention-new']);
  });

  it('logs a failing task and runs the others', async () => {
    const lines: string[] = [];
    const log = createLogger(
      'warn',
      new Writable({ write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString()), done()) }),
    );
    const counts = await sweepRetention(
      app.db.pool,
      [
        { name: 'broken', sweep: async () => Promise.reject(new Error('disk on fire')) },
        { name: 'fine', sweep: async () => 3 },
      ],
      log,
    );
    expect(counts).toEqual({ fine: 3 });
    const warnings = lines.map((line) => JSON.parse(line) as { task?: string; msg: string; err?: { message: string } });
    expect(warnings).toMatchObject([{ task: 'broken', err: { message: 'disk on fire' } }]);
  });

  it('lets one instance sweep at a time', async () => {
    const client = await app.db.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [0x70647372]);
      expect(await sweep()).toBeNull();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [0x70647372]);
      client.release();
    }
    expect(await sweep()).not.toBeNull();
  });
});
