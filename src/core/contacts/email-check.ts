import { createRequire } from 'node:module';
import type { ProfileRecord } from '../../../operations/schemas/records.js';
import { ROLE_LOCAL_PARTS } from '../../../reference/index.js';
import { normaliseEmail } from './validation.js';
import type { Queryable } from '../../store/db.js';
import { profileColumns, toProfileRecord, type ProfileRow } from '../search/records.js';
import type { ServicesDeps } from '../deps.js';

/**
 * Checking an email address, and finding the person a work email belongs to.
 *
 * The check: syntax (the rules contact enrichment applies to what providers find), the mail
 * domain (the same validation: built-in rules, or real MX lookups with
 * CONTACT_EMAIL_VALIDATION=dns), whether the domain is a disposable-mail service (the list of the
 * `disposable-email-domains` package) and whether the mailbox is a role's (sales@, support@).
 */

const require = createRequire(import.meta.url);
let disposable: Set<string> | null = null;

function disposableDomains(): Set<string> {
  disposable ??= new Set(require('disposable-email-domains') as string[]);
  return disposable;
}

/** The domain or one of its parents is a disposable-mail service (mail.tempmail.com counts as tempmail.com). */
export function isDisposableDomain(domain: string): boolean {
  const set = disposableDomains();
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i += 1) if (set.has(labels.slice(i).join('.'))) return true;
  return false;
}

const roles = new Set(ROLE_LOCAL_PARTS);

export function isRoleAddress(localPart: string): boolean {
  const base = localPart.split('+')[0]?.replace(/[._-]/g, '') ?? '';
  return roles.has(base);
}

export interface EmailVerdict {
  email: string;
  normalized: string | null;
  /** Worth sending to: well-formed, a domain that receives mail, not disposable. Role addresses may be valid. */
  valid: boolean;
  checks: {
    syntax: boolean;
    mailDomain: boolean | null;
    disposable: boolean | null;
    role: boolean | null;
  };
  domain: string | null;
  reason: string | null;
  mailDomainCheck: string;
}

export async function validateEmailAddress(
  context: ServicesDeps<'mailDomainChecker'>,
  email: string,
): Promise<EmailVerdict> {
  const checker = context.services.mailDomainChecker;
  const normalized = normaliseEmail(email);
  if (!normalized) {
    return {
      email,
      normalized: null,
      valid: false,
      domain: null,
      mailDomainCheck: checker.name,
      checks: { syntax: false, mailDomain: null, disposable: null, role: null },
      reason: 'not a well-formed address (one @, a local part of allowed characters, a domain of at least two labels)',
    };
  }
  const at = normalized.lastIndexOf('@');
  const domain = normalized.slice(at + 1);
  const mailDomain = await checker.acceptsMail(domain);
  const disposableDomain = isDisposableDomain(domain);
  const role = isRoleAddress(normalized.slice(0, at));
  const reason = !mailDomain
    ? `the domain ${domain} cannot receive mail`
    : disposableDomain
      ? `${domain} is a disposable-mail service`
      : null;
  return {
    email,
    normalized,
    valid: mailDomain && !disposableDomain,
    domain,
    mailDomainCheck: checker.name,
    reason,
    checks: { syntax: true, mailDomain, disposable: disposableDomain, role },
  };
}

/** An address's standing in a list that will be mailed, as prospect exports write it (docs/concepts.md, exports). */
export type EmailStatus = 'valid' | 'risky' | 'unknown';

/**
 * `valid`: well-formed, its domain receives mail, not a disposable-mail service, a person's own mailbox. `risky`: a
 * role's mailbox (sales@: it reaches no one in particular), a disposable-mail domain, a domain that cannot receive mail
 * or an ill-formed address (each may bounce or go unread). `unknown`: no address, or its domain could not be checked.
 */
export async function emailStatusOf(
  context: ServicesDeps<'mailDomainChecker'>,
  email: string | null,
): Promise<EmailStatus> {
  if (!email) return 'unknown';
  let verdict: EmailVerdict;
  try {
    verdict = await validateEmailAddress(context, email);
  } catch {
    // A checker that cannot answer (an outside service away) says nothing of the address itself.
    return 'unknown';
  }
  return verdict.valid && verdict.checks.role === false ? 'valid' : 'risky';
}

/** The person whose work email this is, in the catalog; null when none. */
export async function findPersonByWorkEmail(db: Queryable, email: string): Promise<ProfileRecord | null> {
  const normalized = normaliseEmail(email) ?? email.trim().toLowerCase();
  const result = await db.query<ProfileRow>(
    `SELECT ${profileColumns({})} FROM person_contacts pc JOIN people p ON p.id = pc.person_id
      WHERE lower(pc.value) = $1 AND pc.kind = 'work_email'
      ORDER BY p.id LIMIT 1`,
    [normalized],
  );
  const row = result.rows[0];
  return row ? toProfileRecord(row, {}) : null;
}
