import { scrubText } from '../../log.js';

/**
 * What the delivery log keeps of an endpoint's answer: its first characters, with what could be a
 * credential or a person's details replaced. Receivers echo requests, print stack traces and set
 * session tokens; the log is for telling a 404 page from a crashed handler, not for keeping that.
 */
export const excerptLength = 200;

const secretField =
  /("?[A-Za-z_-]*(?:token|secret|password|passwd|key|signature|authorization|session|cookie|credential)[A-Za-z_-]*"?\s*[:=]\s*)("[^"]*"|[^\s,;&}]+)/gi;
const authScheme = /\b(bearer|basic|token)\s+[^\s,;"]+/gi;
/** Long unbroken runs of token characters: keys, JWTs, hashes. */
const opaqueRun = /[A-Za-z0-9+/_=.-]{24,}/g;

export function redactedExcerpt(text: string | null): string | null {
  if (text === null) return null;
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return null;
  const redacted = scrubText(flat.slice(0, excerptLength * 4))
    .replace(authScheme, '$1 [redacted]')
    .replace(secretField, '$1[redacted]')
    .replace(opaqueRun, '[redacted]');
  return redacted.length > excerptLength ? `${redacted.slice(0, excerptLength)}…` : redacted;
}
