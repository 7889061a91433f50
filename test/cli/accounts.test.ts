import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyAuthenticator } from '../../src/auth/api-key-authenticator.js';
import { getBalance } from '../../src/core/credits.js';
import { runTool, type ToolOutcome } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase('empty');
});
afterAll(async () => database?.drop());

function accounts(...args: string[]): Promise<ToolOutcome> {
  return runTool('accounts', args, { DATABASE_URL: database.connectionString });
}

describe('accounts command', () => {
  it('creates an account with an email, issues and revokes keys, grants credits, and lists them', async () => {
    const created = await accounts(
      'create',
      '--name',
      'Acme Sales',
      '--email',
      'Ops@Acme.example',
      '--plan',
      'pro',
      '--credits',
      '250',
    );
    expect(created.code, created.stderr).toBe(0);
    const accountId = Number(created.stdout.match(/Created account (\d+)/)![1]);
    const firstKey = created.stdout.match(/(pds_[\w-]+)/)![1]!;
    const authenticator = new ApiKeyAuthenticator(database.db.pool, 0);
    expect(await authenticator.authenticate(firstKey)).toMatchObject({
      accountId,
      plan: 'pro',
      email: 'Ops@acme.example',
    });
    expect(await getBalance(database.db.pool, accountId)).toBe(250);

    const issued = await accounts('issue-key', '--account', String(accountId), '--label', 'ci');
    const secondKey = issued.stdout.match(/(pds_[\w-]+)/)![1]!;
    expect(secondKey).not.toBe(firstKey);
    expect((await authenticator.authenticate(secondKey))?.accountId).toBe(accountId);

    expect((await accounts('revoke-key', '--key', firstKey)).code).toBe(0);
    expect(await authenticator.authenticate(firstKey)).toBeNull();
    expect((await authenticator.authenticate(secondKey))?.accountId).toBe(accountId);
    expect((await accounts('revoke-key', '--key', firstKey)).code).toBe(1);

    const granted = await accounts(
      'grant',
      '--account',
      String(accountId),
      '--credits',
      '1000',
      '--reason',
      'purchase',
    );
    expect(granted.stdout).toContain('1250');
    expect(await getBalance(database.db.pool, accountId)).toBe(1250);

    const listed = await accounts('list');
    expect(listed.stdout).toMatch(
      new RegExp(`${accountId}\\tAcme Sales\\tOps@acme.example\\tpro\\t1250 credits\\t1 key`),
    );
    expect(listed.stdout).not.toContain(secondKey);
  });

  it('refuses bad flags with a message naming the flag, and changes nothing', async () => {
    const before = (await database.db.pool.query('SELECT count(*)::int AS n FROM accounts')).rows[0].n;
    const noName = await accounts('create', '--plan', 'pro');
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain('--name');
    const badPlan = await accounts('create', '--name', 'x', '--plan', 'platinum');
    expect(badPlan.stderr).toContain('--plan');
    const badCredits = await accounts('grant', '--account', '1', '--credits', '-5');
    expect(badCredits.stderr).toContain('--credits');
    const unknownAccount = await accounts('grant', '--account', '999999', '--credits', '5');
    expect(unknownAccount.code).toBe(2);
    expect(unknownAccount.stderr).toContain('not found');
    expect((await database.db.pool.query('SELECT count(*)::int AS n FROM accounts')).rows[0].n).toBe(before);
  });

  it('checks every flag before it opens the database', async () => {
    // Nothing listens on port 1: a command that reached the database would fail to connect (exit 1).
    const unreachable = { DATABASE_URL: 'postgres://pds@127.0.0.1:1/pds' };
    const badEmail = await runTool('accounts', ['add-recipient', '--account', '3', '--email', 'nope'], unreachable);
    expect([badEmail.code, badEmail.stderr]).toEqual([2, expect.stringContaining('--email')]);
    const noClient = await runTool('accounts', ['revoke-grant', '--account', '3'], unreachable);
    expect([noClient.code, noClient.stderr]).toEqual([2, expect.stringContaining('--client')]);
    const badIssuer = await runTool(
      'accounts',
      ['link-identity', '--account', '3', '--issuer', 'idp', '--subject', 's'],
      unreachable,
    );
    expect([badIssuer.code, badIssuer.stderr]).toEqual([2, expect.stringContaining('--issuer')]);
    const wellFormed = await runTool('accounts', ['list-recipients', '--account', '3'], unreachable);
    expect(wellFormed.code).toBe(1);
  });
});
