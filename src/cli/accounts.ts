import { linkIdentity, listGrants, revokeGrants } from '../auth/identities.js';
import { loadConfig } from '../config.js';
import { createAccount, grantCredits, issueApiKey, listAccounts, revokeApiKey, type Plan } from '../core/accounts.js';
import { addMailRecipient, listMailRecipients, removeMailRecipient } from '../core/mail-recipients.js';
import { AppError } from '../errors.js';
import { createLogger } from '../log.js';
import type { Database, Queryable } from '../store/db.js';
import { openStore } from '../store/open.js';
import { parseFlags, runCli, UsageError } from './cli.js';

const usage = `Manage accounts, API keys and credits.

  npm run accounts -- create --name NAME [--email EMAIL] [--plan free|pro|enterprise] [--credits N]
  npm run accounts -- issue-key --account ID [--label TEXT]
  npm run accounts -- revoke-key --key KEY_OR_PREFIX
  npm run accounts -- grant --account ID --credits N [--reason TEXT]
  npm run accounts -- list
  npm run accounts -- add-recipient --account ID --email EMAIL      (an address its notifications may be mailed to)
  npm run accounts -- remove-recipient --account ID --email EMAIL
  npm run accounts -- list-recipients --account ID
  npm run accounts -- link-identity --account ID --issuer URL --subject SUB
  npm run accounts -- list-grants [--account ID]
  npm run accounts -- revoke-grant --grant GRANT_ID
  npm run accounts -- revoke-grant --account ID --client CLIENT_ID

link-identity lets a person signing in at the identity provider (issuer and subject of their
ID token) use an account whose email is not theirs. list-grants shows the applications people
approved for /mcp/v3; revoke-grant removes an approval and ends every token issued under it.

Uses DATABASE_URL, or the embedded server under DATA_DIR (the service must not be running on it).`;

const plans = ['free', 'pro', 'enterprise'] as const;

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const values = parseAccountFlags(rest);
  if (!command || command === 'help' || command === '--help') {
    process.stdout.write(`${usage}\n`);
    return command ? 0 : 2;
  }
  // Every flag is checked before the database is opened: a mistyped command never starts the
  // embedded server nor waits for a connection.
  const work = commandFor(command, values);
  const store = await openStore(loadConfig(), createLogger('warn'));
  try {
    return await work(store.db);
  } finally {
    await store.close();
  }
}

type Flags = ReturnType<typeof parseAccountFlags>;
type Work = (db: Database) => Promise<number>;

function parseAccountFlags(args: string[]) {
  return parseFlags(
    args,
    {
      name: { type: 'string' },
      email: { type: 'string' },
      plan: { type: 'string' },
      credits: { type: 'string' },
      account: { type: 'string' },
      label: { type: 'string' },
      key: { type: 'string' },
      reason: { type: 'string' },
      issuer: { type: 'string' },
      subject: { type: 'string' },
      grant: { type: 'string' },
      client: { type: 'string' },
    },
    usage,
  );
}

function commandFor(command: string, values: Flags): Work {
  const write = (text: string) => process.stdout.write(text);
  switch (command) {
    case 'create': {
      const name = required(values.name, '--name');
      const plan = (values.plan ?? 'free') as Plan;
      if (!(plans as readonly string[]).includes(plan))
        throw new UsageError(`--plan must be one of ${plans.join(', ')}`);
      const email = values.email === undefined ? null : emailFlag(values.email);
      const initialCredits = values.credits === undefined ? 0 : count(values.credits, '--credits');
      return async (db) => {
        const created = await createAccount(db, { name, email, plan, initialCredits });
        write(
          `Created account ${created.account.id} (${created.account.name}, plan ${created.account.plan}).\n` +
            `API key (shown once, stored hashed): ${created.apiKey}\n`,
        );
        return 0;
      };
    }
    case 'issue-key': {
      const accountId = accountFlag(values.account);
      return async (db) => {
        write(`API key (shown once, stored hashed): ${await issueApiKey(db, accountId, values.label)}\n`);
        return 0;
      };
    }
    case 'revoke-key': {
      const key = required(values.key, '--key');
      return async (db) => {
        const revoked = await revokeApiKey(db.pool, key);
        write(revoked ? `Revoked ${revoked} key(s).\n` : 'No active key matches.\n');
        return revoked ? 0 : 1;
      };
    }
    case 'grant': {
      const accountId = accountFlag(values.account);
      const credits = count(required(values.credits, '--credits'), '--credits');
      return async (db) => {
        const balance = await grantCredits(db, accountId, credits, values.reason ?? 'granted by operator');
        write(`Balance is now ${balance} credits.\n`);
        return 0;
      };
    }
    case 'list':
      return async (db) => {
        for (const account of await listAccounts(db.pool)) {
          write(
            `${account.id}\t${account.name}\t${account.email ?? '-'}\t${account.plan}\t${account.balance} credits\t${account.activeKeys} key(s)\n`,
          );
        }
        return 0;
      };
    case 'add-recipient': {
      const accountId = accountFlag(values.account);
      const email = emailFlag(values.email);
      return async (db) => {
        await requireAccountExists(db.pool, accountId);
        await addMailRecipient(db.pool, accountId, email);
        write(`Account ${accountId} may now have its notifications mailed to ${email}.\n`);
        return 0;
      };
    }
    case 'remove-recipient': {
      const accountId = accountFlag(values.account);
      const email = emailFlag(values.email);
      return async (db) => {
        const removed = await removeMailRecipient(db.pool, accountId, email);
        write(removed ? 'Removed.\n' : 'No such recipient.\n');
        return removed ? 0 : 1;
      };
    }
    case 'list-recipients': {
      const accountId = accountFlag(values.account);
      return async (db) => {
        for (const email of await listMailRecipients(db.pool, accountId)) write(`${email}\n`);
        return 0;
      };
    }
    case 'link-identity': {
      const accountId = accountFlag(values.account);
      const issuer = required(values.issuer, '--issuer');
      if (!URL.canParse(issuer))
        throw new UsageError(`--issuer must be the identity provider's issuer URL, got "${issuer}"`);
      const subject = required(values.subject, '--subject');
      return async (db) => {
        const outcome = await linkIdentity(db.pool, accountId, issuer, subject);
        const said = { linked: 'Linked', moved: 'Moved the link of', unchanged: 'Already linked:' }[outcome];
        write(`${said} ${subject} at ${issuer} to account ${accountId}.\n`);
        return 0;
      };
    }
    case 'list-grants': {
      const accountId = values.account === undefined ? undefined : accountFlag(values.account);
      return async (db) => {
        const grants = await listGrants(db.pool, accountId);
        if (!grants.length) write('No approvals.\n');
        for (const grant of grants) {
          write(
            [
              grant.grantId,
              `account ${grant.accountId} (${grant.accountName})`,
              `client ${grant.clientName ? `${grant.clientName} ` : ''}${grant.clientId}`,
              `scopes ${grant.scopes.join(' ') || '-'}`,
              `approved ${grant.createdAt}`,
              `${grant.activeTokens} active token(s)`,
            ].join('\t') + '\n',
          );
        }
        return 0;
      };
    }
    case 'revoke-grant': {
      let target: Parameters<typeof revokeGrants>[1];
      if (values.grant !== undefined) target = { grantId: required(values.grant, '--grant') };
      else if (values.account !== undefined && values.client !== undefined)
        target = { accountId: accountFlag(values.account), clientId: required(values.client, '--client') };
      else throw new UsageError('revoke-grant needs --grant, or --account and --client');
      return async (db) => {
        const removed = await revokeGrants(db.pool, target);
        write(removed ? `Revoked ${removed} approval(s) and their tokens.\n` : 'No approval matches.\n');
        return removed ? 0 : 1;
      };
    }
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${usage}`);
  }
}

function accountFlag(value: string | undefined): number {
  return count(required(value, '--account'), '--account');
}

function emailFlag(value: string | undefined): string {
  const email = required(value, '--email');
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new UsageError('--email is not an email address');
  return email;
}

async function requireAccountExists(db: Queryable, accountId: number): Promise<void> {
  const found = await db.query('SELECT 1 FROM accounts WHERE id = $1', [accountId]);
  if (!found.rowCount) throw new AppError('not_found', `Account ${accountId} not found.`);
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`${flag} is required`);
  return value;
}

function count(value: string, flag: string): number {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed <= 0)
    throw new UsageError(`${flag} must be a positive whole number, got "${value}"`);
  return parsed;
}

runCli(main, (error) => (error instanceof AppError ? { message: error.message, exitCode: 2 } : undefined));
