import { MULTI_LABEL_TLDS } from '../../reference/countries.js';

/**
 * Identifiers on the professional network. Callers paste slugs, full URLs (with or without
 * scheme, `www.`, trailing slashes or query strings) and numeric IDs; these helpers reduce
 * them to what the catalog stores.
 */
export const networkBaseUrl = 'https://network.example.com';

export const profileUrlOf = (slug: string | null): string | null => (slug ? `${networkBaseUrl}/in/${slug}` : null);
export const companyUrlOf = (slug: string | null): string | null => (slug ? `${networkBaseUrl}/company/${slug}` : null);

/** The slug in `.../company/<slug>` or `.../in/<slug>`, or the input itself when it is a bare slug. */
export function slugFromUrlOrSlug(value: string, kind: 'company' | 'in'): string | null {
  const trimmed = value.trim();
  if (!trimmed.includes('/')) return trimmed.toLowerCase() || null;
  const match = trimmed.match(
    new RegExp(`/(?:${kind === 'company' ? 'company|school|showcase' : 'in|pub'})/([^/?#]+)`, 'i'),
  );
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]).toLowerCase();
  } catch {
    return null; // a malformed %-escape names nothing
  }
}

/** A sales-tool URN like `urn:li:fs_salesProfile:(12345,...)` or `urn:...:member:12345` carries the numeric user ID. */
export function userIdFromUrn(value: string): number | null {
  const match = value.match(/^urn:[^:]+:[^:]+:\(?(\d+)/i);
  return match?.[1] ? Number(match[1]) : null;
}

export function normaliseDomain(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[/?#].*$/, '')
    .replace(/\.$/, '');
}

const multiLabelTlds = new Set(MULTI_LABEL_TLDS);

/** The TLD of a domain with its leading dot, as the catalog's tlds filter spells it: ".com" of "acme.com", ".co.uk" of "shop.co.uk". */
export function tldOf(domain: string): string {
  const labels = domain.toLowerCase().split('.');
  if (labels.length >= 3) {
    const lastTwo = `.${labels.slice(-2).join('.')}`;
    if (multiLabelTlds.has(lastTwo)) return lastTwo;
  }
  return `.${labels[labels.length - 1] ?? ''}`;
}
