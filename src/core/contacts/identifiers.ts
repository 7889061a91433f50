import { AppError } from '../../errors.js';
import type { CompanyRef, ProfileRef } from '../ports/network-source.js';
import { slugFromUrlOrSlug, userIdFromUrn } from '../network-urls.js';

/**
 * How callers name a person or a company, reduced to what the catalog and the network
 * know them by. Anything that cannot be an identifier is refused with a 400 naming the field.
 */

/**
 * The network's slug rules: letters, digits, `-`, `_`, `.` and `~`, with at least one letter or
 * digit. So a slug can never be a dot segment (`.`, `..`) that would walk up the upstream path,
 * nor carry `%` escapes that an upstream would decode into one.
 */
const slugPattern = /^(?=.*[\p{L}\p{N}])[\p{L}\p{N}_.~-]{1,200}$/u;
const maxSafeId = Number.MAX_SAFE_INTEGER;

/** A profile slug, full profile URL, sales-tool URN or numeric user ID. */
export function parsePersonIdentifier(value: string, field: string): ProfileRef {
  const trimmed = value.trim();
  if (/^urn:/i.test(trimmed)) {
    const userId = userIdFromUrn(trimmed);
    if (userId && userId <= maxSafeId) return { userId };
    throw invalidIdentifier(
      field,
      'a sales-tool URN must carry the numeric user ID, e.g. urn:li:fs_salesProfile:(123456,...)',
    );
  }
  if (/^\d{1,18}$/.test(trimmed)) {
    // Numeric: a user ID, though a slug may be all digits too; the catalog lookup tries both.
    return { userId: Number(trimmed), slug: trimmed };
  }
  if (trimmed.includes('/')) {
    const slug = slugFromUrlOrSlug(trimmed, 'in');
    if (slug && slugPattern.test(slug)) return { slug };
    throw invalidIdentifier(field, 'expected a profile URL like https://network.example.com/in/jane-doe');
  }
  const slug = trimmed.toLowerCase();
  if (slugPattern.test(slug)) return { slug };
  throw invalidIdentifier(field, 'expected a profile slug, profile URL, sales-tool URN or numeric user ID');
}

export type CompanyIdentifierType = 'slug' | 'liUrl' | 'orgId';

/**
 * `orgId` values also match the service's own company ids (`companies.id`); the lookup
 * prefers the network's organisation id. A company URL may carry a slug or a numeric org id.
 */
export function parseCompanyIdentifier(
  type: CompanyIdentifierType,
  value: string,
): CompanyRef & { serviceId?: number } {
  const trimmed = value.trim();
  if (type === 'orgId') {
    if (!/^\d{1,18}$/.test(trimmed) || Number(trimmed) === 0)
      throw invalidIdentifier('value', 'with type orgId, expected a numeric organisation ID');
    return { orgId: Number(trimmed), serviceId: Number(trimmed) };
  }
  if (type === 'liUrl') {
    const segment = trimmed.includes('/') ? slugFromUrlOrSlug(trimmed, 'company') : null;
    if (!segment || !slugPattern.test(segment)) {
      throw invalidIdentifier(
        'value',
        'with type liUrl, expected a company URL like https://network.example.com/company/acme',
      );
    }
    return /^\d{1,18}$/.test(segment) ? { orgId: Number(segment), slug: segment } : { slug: segment };
  }
  const slug = slugFromUrlOrSlug(trimmed, 'company');
  if (!slug || !slugPattern.test(slug))
    throw invalidIdentifier('value', 'with type slug, expected a company slug like acme-robotics');
  return { slug };
}

function invalidIdentifier(field: string, message: string): AppError {
  return new AppError('invalid_request', `Invalid ${field}: ${message}.`, {
    details: { issues: [{ field, message }] },
  });
}
