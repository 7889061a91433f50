import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { buildAudience, csvObjects, ok, testEnv, waitForExport } from './helpers.js';

/**
 * Exports for spreadsheets: `utf8Bom` starts the file with the UTF-8 byte-order mark (read from the downloaded bytes,
 * not from a decoded string that would hide it), and prospect exports carry `email_status`, from the service's own
 * email validation, for addresses placed in the audience as enrichment would have left them.
 */
describe('exports for spreadsheets', () => {
  let app: TestApp;
  let apiKey: string;
  let accountId: number;
  let audienceId: string;
  let prospects: number[];

  const byteOrderMark = [0xef, 0xbb, 0xbf];

  beforeAll(async () => {
    app = await startTestApp({ env: testEnv });
    ({ apiKey, accountId } = await app.createAccount({ credits: 10_000 }));
    ({ audienceId } = await buildAudience(app, apiKey, {
      creationMethod: 'START_FROM_PROSPECTS',
      filters: { prospectSearchParams: { country3LetterCode: ['DEU'] }, maxProspects: 5 },
    }));
    prospects = (
      await app.db.pool.query<{ person_id: number }>(
        'SELECT person_id FROM audience_prospects WHERE account_id = $1 AND audience_id = $2 ORDER BY person_id',
        [accountId, Number(audienceId)],
      )
    ).rows.map((r) => Number(r.person_id));
    expect(prospects.length).toBe(5);
    const contacts: Array<[string[], string[]]> = [
      [['jana.moeller@moeller-werke.de'], []], // a person's mailbox on a domain that receives mail
      [['sales@moeller-werke.de', 'jana.moeller@moeller-werke.de'], []], // a role's mailbox
      [[], ['jana.m@mailinator.com']], // no work email; a disposable personal one
      [['j.moeller@example.com'], []], // a domain reserved by RFC 2606: it cannot receive mail
      [[], []], // nothing found
    ];
    for (const [index, [work, personal]] of contacts.entries()) {
      await app.db.pool.query(
        `UPDATE audience_prospects SET work_emails = $4, personal_emails = $5, clean_first_name = 'Jana', clean_last_name = 'Möller'
          WHERE account_id = $1 AND audience_id = $2 AND person_id = $3`,
        [accountId, Number(audienceId), prospects[index], work, personal],
      );
    }
  });
  afterAll(async () => {
    await app?.stop();
  });

  async function exportedBytes(kind: 'companies' | 'prospects', options: Record<string, unknown>): Promise<Buffer> {
    const accepted = ok(await app.request('POST', `/v1/audiences/${audienceId}/export/${kind}`, { apiKey, ...options }))
      .body.output;
    const ready = await waitForExport(app, apiKey, audienceId, accepted.exportId);
    expect(ready.status).toBe('READY');
    const download = await fetch(ready.downloadUrl as string);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    return Buffer.from(await download.arrayBuffer());
  }

  it('starts the file with the UTF-8 byte-order mark when utf8Bom is set, and names stay UTF-8 after it', async () => {
    const withMark = await exportedBytes('prospects', { utf8Bom: true });
    expect([...withMark.subarray(0, 3)]).toEqual(byteOrderMark);
    expect(withMark.subarray(3, 3 + 'prospect_id,'.length).toString('latin1')).toBe('prospect_id,');
    // "ö" is the two bytes C3 B6 in UTF-8, where a legacy code page would have one.
    expect(withMark.includes(Buffer.from([0x4d, 0xc3, 0xb6, 0x6c, 0x6c, 0x65, 0x72]))).toBe(true);
    const rows = csvObjects(withMark.subarray(3).toString('utf8')).rows;
    expect(rows.map((r) => r.last_name)).toEqual(Array(5).fill('Möller'));

    const without = await exportedBytes('prospects', {});
    expect(without.subarray(0, 'prospect_id,'.length).toString('latin1')).toBe('prospect_id,');
    expect(without.equals(withMark.subarray(3))).toBe(true);

    const companies = await exportedBytes('companies', { utf8Bom: true });
    expect([...companies.subarray(0, 3)]).toEqual(byteOrderMark);
    expect(companies.subarray(3, 3 + 'company_id,'.length).toString('latin1')).toBe('company_id,');
  });

  it('writes email_status for the work email, else the personal one: valid, risky or unknown', async () => {
    const { header, rows } = csvObjects((await exportedBytes('prospects', {})).toString('utf8'));
    expect(header.at(-1)).toBe('email_status');
    const statusOf = new Map(rows.map((r) => [Number(r.prospect_id), r.email_status]));
    expect(prospects.map((id) => statusOf.get(id))).toEqual(['valid', 'risky', 'risky', 'risky', 'unknown']);
    expect(rows.find((r) => Number(r.prospect_id) === prospects[2])?.personal_email).toBe('jana.m@mailinator.com');

    const without = csvObjects(
      (await exportedBytes('prospects', { excludeFields: ['email_status'] })).toString('utf8'),
    );
    expect(without.header).not.toContain('email_status');
    expect(without.header.at(-1)).toBe('live_enriched_at');
  });

  it('refuses a utf8Bom that is not a boolean, naming it, and starts no export', async () => {
    const before = await exportCount();
    const refused = await app.request('POST', `/v1/audiences/${audienceId}/export/prospects`, {
      apiKey,
      utf8Bom: 'yes',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.issues[0].field).toBe('utf8Bom');
    expect(refused.body.error.message).toMatch(/utf8Bom/);
    expect(await exportCount()).toBe(before);
  });

  async function exportCount(): Promise<number> {
    return (
      await app.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM audience_exports WHERE account_id = $1', [
        accountId,
      ])
    ).rows[0]!.n;
  }
});
