import type { ContactKind } from '../ports/contact-providers.js';

/**
 * The validation step of the waterfall (the DNS-backed domain checker is an adapter in
 * src/providers/contacts/dns-mail-domains.ts): a candidate counts as found only when it is
 * well-formed and, for an email, its domain can receive mail. Providers (the pattern guesser
 * above all) propose; this decides.
 */
export interface MailDomainChecker {
  readonly name: string;
  /** False when the domain certainly cannot receive mail; true when it can or it cannot be told. */
  acceptsMail(domain: string): Promise<boolean>;
}

export class ContactValidator {
  constructor(private readonly domains: MailDomainChecker) {}

  /** The normalised value when valid, else null. */
  async validate(kind: ContactKind, value: string): Promise<string | null> {
    if (kind === 'phoneNumbers') return normalisePhone(value);
    const email = normaliseEmail(value);
    if (!email) return null;
    const domain = email.slice(email.lastIndexOf('@') + 1);
    return (await this.domains.acceptsMail(domain)) ? email : null;
  }
}

const localPartPattern = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const labelPattern = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** Lowercased address when its syntax is that of a deliverable address (RFC 5321 limits, no quoted forms). */
export function normaliseEmail(value: string): string | null {
  const email = value.trim().toLowerCase();
  if (email.length > 254) return null;
  const at = email.lastIndexOf('@');
  if (at <= 0) return null;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > 64 || !localPartPattern.test(local)) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => labelPattern.test(label))) return null;
  // The top-level label is never all digits (that would be an IP address, which no mailbox we sell uses).
  if (!/^[a-z][a-z0-9-]*[a-z0-9]$/.test(labels.at(-1) as string)) return null;
  return email;
}

/** E.164 when the number carries its country code (+...), else its digits; null when it cannot be a phone number. */
export function normalisePhone(value: string): string | null {
  const trimmed = value.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length < 7 || digits.length > 15) return null;
  return trimmed.startsWith('+') ? `+${digits}` : digits;
}

/** Names reserved by RFC 2606 and RFC 6761: no real mailbox lives there. */
const reservedTlds = new Set(['test', 'example', 'invalid', 'localhost', 'local', 'internal']);
const reservedDomains = new Set(['example.com', 'example.net', 'example.org']);

/**
 * The embedded default: decides from the name alone, the same way every time, so tests and
 * benchmarks repeat. It refuses reserved and special-use names and accepts the rest.
 */
export class EmbeddedMailDomainChecker implements MailDomainChecker {
  readonly name = 'embedded';

  async acceptsMail(domain: string): Promise<boolean> {
    const name = domain.toLowerCase().replace(/\.$/, '');
    const tld = name.slice(name.lastIndexOf('.') + 1);
    if (reservedTlds.has(tld)) return false;
    for (const reserved of reservedDomains) if (name === reserved || name.endsWith(`.${reserved}`)) return false;
    return true;
  }
}
