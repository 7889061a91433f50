import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAudience, ok, waitFor } from '../audiences/helpers.js';
import { requireMailRecipient } from '../../src/core/mail-recipients.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * The probe's finding: export mail went to any address a caller gave, with caller text in its
 * subject. A mail carries a working link to people's contact details, so by default it goes only
 * to the account's own addresses.
 */
describe('where notifications may be mailed', () => {
  let app: TestApp;
  let apiKey: string;
  let audienceId: string;
  beforeAll(async () => {
    app = await startTestApp();
    ({ apiKey } = await app.createAccount({
      credits: 10_000,
      email: 'owner@example.com',
      recipients: ['team@example.com'],
    }));
    ({ audienceId } = await buildAudience(app, apiKey, {
      name: '=HYPERLINK("https://evil.example") urgent: reset your password',
      filters: { companySearchParams: {}, maxCompanies: 2, maxProspects: 5 },
    }));
  });
  afterAll(async () => {
    await app.stop();
  });

  const exportCount = async () =>
    Number((await app.db.pool.query('SELECT count(*)::int AS n FROM audience_exports')).rows[0].n);

  it("refuses an address that is not the account's with a 400 naming userEmail, creating nothing", async () => {
    const before = await exportCount();
    const refused = await app.request('POST', `/v1/audiences/${audienceId}/export/prospects`, {
      apiKey,
      userEmail: 'someone@elsewhere.example',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.issues[0].field).toBe('userEmail');
    expect(refused.body.error.message).toMatch(/add-recipient/);
    expect(refused.body.error.message).toMatch(/MAIL_ANY_RECIPIENT/);
    expect(await exportCount()).toBe(before);
    const trigger = await app.request('POST', `/v1/audiences/${audienceId}/enrich`, {
      apiKey,
      userEmail: 'someone@elsewhere.example',
      runProfileSalesNav: true,
    });
    expect(trigger.status).toBe(400);
    expect(trigger.body.error.details.issues[0].field).toBe('userEmail');
  });

  it("mails the account's own email and its registered recipients, any case, with no caller text in the subject", async () => {
    for (const address of ['owner@example.com', 'TEAM@example.com']) {
      const accepted = ok(
        await app.request('POST', `/v1/audiences/${audienceId}/export/companies`, { apiKey, userEmail: address }),
      ).body.output;
      expect(accepted.exportId).toBeTruthy();
    }
    // The mail jobs are queued when the exports are written: wait for both.
    const mails = await waitFor('both mails', async () => {
      const rows = await app.db.pool.query<{ to: string; subject: string }>(
        `SELECT payload->>'to' AS to, payload->>'subject' AS subject FROM jobs WHERE kind = 'mail.send' ORDER BY id`,
      );
      return rows.rows.length === 2 ? rows.rows : null;
    });
    expect(mails.map((m) => m.to)).toEqual(['owner@example.com', 'TEAM@example.com']);
    for (const mail of mails) expect(mail.subject).toMatch(/^Your export \d+ of \d+ companies is ready$/);
  });

  it("takes the account's own address kept with capitals in its local part, in any ASCII case, and nothing folded onto it", async () => {
    const { accountId } = await app.createAccount({ email: 'Ana.Ruiz@Example.com' });
    const check = (email: string) =>
      requireMailRecipient(app.db.pool, accountId, email, { anyRecipient: false }).then(
        () => 'allowed',
        (error: { code?: string }) => error.code,
      );
    expect(await check('Ana.Ruiz@example.com')).toBe('allowed');
    expect(await check('ana.ruiz@EXAMPLE.com')).toBe('allowed');
    // U+212A KELVIN SIGN lowercases to k in Unicode: another mailbox all the same.
    expect(await check('ana.ruiz@example.\u212Aom')).toBe('invalid_request');
  });

  it('lets an operator allow any address with MAIL_ANY_RECIPIENT=true', async () => {
    const open = await startTestApp({ env: { MAIL_ANY_RECIPIENT: 'true' } });
    try {
      const account = await open.createAccount({ credits: 10_000 });
      const built = await buildAudience(open, account.apiKey, {
        name: 'Open',
        filters: { companySearchParams: {}, maxCompanies: 2, maxProspects: 2 },
      });
      const accepted = await open.request('POST', `/v1/audiences/${built.audienceId}/export/companies`, {
        apiKey: account.apiKey,
        userEmail: 'anyone@elsewhere.example',
      });
      expect(accepted.status).toBe(200);
    } finally {
      await open.stop();
    }
  });
});

describe('npm run accounts -- add-recipient', () => {
  it('is documented in the CLI usage', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/cli/accounts.ts', 'help']);
    expect(stdout).toMatch(/add-recipient --account ID --email EMAIL/);
  });
});
