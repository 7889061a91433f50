import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import {
  buildAudience,
  csvObjects,
  ok,
  readMail,
  testEnv,
  waitFor,
  waitForEnrichment,
  waitForExport,
} from './helpers.js';
import { startSmtpServer } from './smtp.js';

/**
 * Notifications through a real SMTP server started here. The server refuses the first
 * attempts of a mail: the export or enrichment is unaffected, and the mail job retries until
 * it is delivered.
 */
describe('mail notifications over SMTP', () => {
  let app: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let apiKey: string;
  let audienceId: string;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    app = await startTestApp({
      env: { ...testEnv, SMTP_URL: smtp.url, JOB_RETRY_BASE_MS: '200', MAIL_FROM: 'Audiences <audiences@example.net>' },
    });
    ({ apiKey } = await app.createAccount({
      credits: 10_000,
      recipients: ['buyer@example.com', 'owner@example.com', 'nobody@example.com'],
    }));
    ({ audienceId } = await buildAudience(app, apiKey, {
      creationMethod: 'START_FROM_PROSPECTS',
      name: 'Mail test',
      filters: { prospectSearchParams: { country3LetterCode: ['CAN'] }, maxProspects: 25 },
    }));
  });
  afterAll(async () => {
    await app?.stop();
    await smtp?.stop();
  });

  const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));

  it('an export link mail that the server refuses twice is retried and delivered; the export is READY regardless', async () => {
    smtp.failNext(2);
    const accepted = ok(
      await app.request('POST', `/v1/audiences/${audienceId}/export/prospects`, {
        apiKey,
        userEmail: 'buyer@example.com',
      }),
    ).body.output;
    expect(accepted.message).toMatch(/link will also be mailed/);
    const ready = await waitForExport(app, apiKey, audienceId, accepted.exportId);
    expect(ready.status).toBe('READY');

    const job = await waitFor('the mail job to be retried', async () => {
      const rows = await app.db.pool.query<{ status: string; attempts: number; last_error: string | null }>(
        `SELECT status, attempts, last_error FROM jobs WHERE kind = 'mail.send' AND payload->'template'->>'exportId' = $1`,
        [accepted.exportId],
      );
      return rows.rows[0]?.status === 'succeeded' ? rows.rows[0] : null;
    });
    expect(job.attempts).toBe(3);
    expect(job.last_error).toMatch(/451|busy|rejected/i);

    const [mail] = mailsTo('buyer@example.com');
    expect(mail?.from).toBe('audiences@example.net');
    const parsed = readMail(mail?.raw as string);
    expect(parsed.headers.subject).toBe(`Your export ${accepted.exportId} of 25 prospects is ready`);
    const link = parsed.text.match(/https?:\/\/\S+\/downloads\/exports\/\S+/)?.[0];
    expect(link?.startsWith(`${app.url}/downloads/exports/${accepted.exportId}?`)).toBe(true);
    const response = await fetch(link as string);
    expect(response.status).toBe(200);
    expect(csvObjects(await response.text()).rows.length).toBe(25);
  });

  it('an enrichment sends its completion notice, with what was found and the CSV link', async () => {
    const options = { runContactEnrichment: true, enrichmentType: { getPersonalEmails: true } };
    const estimate = ok(
      await app.request('POST', `/v1/audiences/${audienceId}/enrichment/estimate`, { apiKey, ...options }),
    ).body.output;
    ok(
      await app.request('POST', `/v1/audiences/${audienceId}/enrich`, {
        apiKey,
        ...options,
        userEmail: 'owner@example.com',
      }),
    );
    const done = await waitForEnrichment(app, apiKey, audienceId);
    expect(done.status).toBe('DONE');
    expect(done.exportId).toMatch(/^\d+$/);
    const mail = await waitFor('the completion mail', async () => mailsTo('owner@example.com')[0]);
    const parsed = readMail(mail.raw);
    expect(parsed.headers.subject).toMatch(/^Your enrichment \d+ is complete$/);
    expect(parsed.text).toContain('Prospects enriched: 25');
    expect(parsed.text).toContain(
      `Credits charged at trigger: ${estimate.totalCredits as number}; refunded for work that found nothing: ${done.refundedCredits as number}.`,
    );
    const link = parsed.text.match(/https?:\/\/\S+\/downloads\/exports\/\S+/)?.[0];
    expect(link).toContain(`/downloads/exports/${done.exportId as string}?`);
    const csv = csvObjects(await (await fetch(link as string)).text());
    expect(csv.rows.length).toBe(25);
    const exportStatus = ok(
      await app.request('GET', `/v1/audiences/${audienceId}/exports/${done.exportId as string}?apiKey=${apiKey}`),
    ).body.output;
    expect(exportStatus).toMatchObject({ status: 'READY', rows: 25, kind: 'prospects' });
  });

  it('a server that stays down never fails the export; the mail keeps retrying', async () => {
    smtp.failNext(1000);
    const accepted = ok(
      await app.request('POST', `/v1/audiences/${audienceId}/export/companies`, {
        apiKey,
        userEmail: 'nobody@example.com',
      }),
    ).body.output;
    expect((await waitForExport(app, apiKey, audienceId, accepted.exportId)).status).toBe('READY');
    const job = await waitFor('two failed attempts', async () => {
      const rows = await app.db.pool.query<{ status: string; attempts: number }>(
        `SELECT status, attempts FROM jobs WHERE kind = 'mail.send' AND payload->'template'->>'exportId' = $1`,
        [accepted.exportId],
      );
      return (rows.rows[0]?.attempts ?? 0) >= 2 ? rows.rows[0] : null;
    });
    expect(job.status).toMatch(/queued|running/);
    expect(mailsTo('nobody@example.com')).toEqual([]);
    smtp.failNext(0);
  });
});
