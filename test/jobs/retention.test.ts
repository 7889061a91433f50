import { access } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageKeyOf } from '../../src/core/audiences/exports.js';
import { sweepRetention } from '../../src/jobs/retention.js';
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

  const exists = (file: string) => access(file).then(() => true, () => false);

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
    const file = path.join(app.service.context.config.exportDir, ...storageKeyOf({ account_id: accountId, id: Number(exportId) }).split('/'));
    return { exportId, file, link: String(status.downloadUrl) };
  }

  it('expires exports past the retention period and deletes their files, and leaves younger ones alone', async () => {
    const old = await readyExport();
    const young = await readyExport();
    expect(await exists(old.file)).toBe(true);
    await app.db.pool.query("UPDATE audience_exports SET completed_at = now() - interval '31 days' WHERE account_id = $1 AND id = $2", [accountId, old.exportId]);

    const counts = await sweepRetention(app.service.context);
    expect(counts?.exportsExpired).toBe(1);
    expect(await exists(old.file)).toBe(false);
    expect(await exists(young.file)).toBe(true);

    const expired = ok(await app.request('GET', `/v1/audiences/${audienceId}/exports/${old.exportId}?apiKey=${apiKey}`));
    expect(expired.body.output).toMatchObject({ status: 'EXPIRED', downloadUrl: null, expiresAt: null });
    expect(expired.body.output.failureReason).toMatch(/retention period.*export the audience again/);
    const gone = await fetch(old.link);
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'gone', message: expect.stringMatching(/Export the audience again/) });

    const stillThere = ok(await app.request('GET', `/v1/audiences/${audienceId}/exports/${young.exportId}?apiKey=${apiKey}`));
    expect(stillThere.body.output.status).toBe('READY');
    expect((await fetch(String(stillThere.body.output.downloadUrl))).status).toBe(200);

    // A second sweep finds nothing more to do.
    expect((await sweepRetention(app.service.context))?.exportsExpired).toBe(0);
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
    const counts = await sweepRetention(app.service.context);
    expect(counts?.jobsDeleted).toBe(2);
    const left = await app.db.pool.query<{ id: number }>('SELECT id FROM jobs WHERE id = ANY($1) ORDER BY id', [jobs.rows.map((row) => row.id)]);
    expect(left.rows.map((row) => row.id)).toEqual(jobs.rows.slice(2).map((row) => row.id));
    await app.db.pool.query('DELETE FROM jobs WHERE id = ANY($1)', [jobs.rows.map((row) => row.id)]);
  });

  it('lets one instance sweep at a time', async () => {
    const client = await app.db.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [0x70647372]);
      expect(await sweepRetention(app.service.context)).toBeNull();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [0x70647372]);
      client.release();
    }
    expect(await sweepRetention(app.service.context)).not.toBeNull();
  });
});
