import { mailerRewrite } from '../../operations/schemas/common.js';
import { asciiLowercase } from './accounts.js';
import { AppError } from '../errors.js';
import type { Queryable } from '../store/db.js';

/**
 * Where an account's notifications may be mailed. A mail carries a working download link to
 * people's contact details, so by default only to the account's own addresses: its email, its
 * members' (the people of its dashboard), and those an operator registered for it (`npm run accounts -- add-recipient`). MAIL_ANY_RECIPIENT
 * lets an operator allow any address.
 */
export async function addMailRecipient(db: Queryable, accountId: number, email: string): Promise<void> {
  const rewritten = mailerRewrite(email);
  if (rewritten !== null)
    throw new AppError(
      'invalid_request',
      `email: one plain address such as kim@example.com (the mailer would send this to ${rewritten})`,
      { details: { issues: [{ field: 'email', message: 'one plain address, as the mailer reads it' }] } },
    );
  await db.query('INSERT INTO account_mail_recipients (account_id, email) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    accountId,
    asciiLowercase(email),
  ]);
}

export async function removeMailRecipient(db: Queryable, accountId: number, email: string): Promise<boolean> {
  const removed = await db.query('DELETE FROM account_mail_recipients WHERE account_id = $1 AND email = $2', [
    accountId,
    asciiLowercase(email),
  ]);
  return (removed.rowCount ?? 0) > 0;
}

export async function listMailRecipients(db: Queryable, accountId: number): Promise<string[]> {
  const result = await db.query<{ email: string }>(
    `SELECT email FROM accounts WHERE id = $1 AND email IS NOT NULL
     UNION SELECT email FROM account_mail_recipients WHERE account_id = $1
     UNION SELECT email FROM account_members WHERE account_id = $1 AND email IS NOT NULL
     ORDER BY email`,
    [accountId],
  );
  return result.rows.map((r) => r.email);
}

/** Refuses (400, naming the field) an address that is not one of the account's, unless any address is allowed. */
export async function requireMailRecipient(
  db: Queryable,
  accountId: number,
  email: string | undefined,
  options: { anyRecipient: boolean; field?: string },
): Promise<void> {
  if (email === undefined || options.anyRecipient) return;
  const allowed = await listMailRecipients(db, accountId);
  // Mailboxes do not tell ASCII case apart in practice; nothing else is folded (no Unicode case mapping).
  const wanted = asciiLowercase(email);
  if (allowed.some((address) => asciiLowercase(address) === wanted)) return;
  const field = options.field ?? 'userEmail';
  throw new AppError(
    'invalid_request',
    `${field} must be one of this account's own addresses: its email, or an address an operator registered for it ` +
      "(npm run accounts -- add-recipient). Mail carries links to people's contact details, so it goes nowhere else unless the " +
      'operator sets MAIL_ANY_RECIPIENT=true.',
    { details: { issues: [{ field, message: "not one of this account's registered addresses" }] } },
  );
}
