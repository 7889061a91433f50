import { z } from 'zod';
import { isLoopbackHost } from '../loopback.js';

/** Small zod types the configuration modules share. */
export const positiveInt = z.coerce.number().int().positive();
export const nonNegativeInt = z.coerce.number().int().nonnegative();
export const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
export const commaList = z.string().transform((s) =>
  s
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean),
);
/** Lengths of time written with their unit, comma-separated (`250ms`, `5s`, `30m`, `2h`, `5d`): in milliseconds, or null. */
export function parseDurations(text: string): number[] | null {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const items = text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const durations = items.map((item) => {
    const match = /^(\d+)(ms|s|m|h|d)$/.exec(item);
    return match ? Number(match[1]) * (units[match[2] as string] as number) : 0;
  });
  return items.length > 0 && durations.every((ms) => ms > 0) ? durations : null;
}
/** An https URL, or http on a loopback host (development and tests). */
export const secureUrl = z.url().refine((value) => {
  const url = new URL(value);
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
}, 'must be an https:// URL (http:// only on localhost, 127.0.0.1 or [::1])');
/** Browser origins: scheme, host and port, no path. */
export const originList = commaList.pipe(
  z.array(
    z.string().refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value.replace(/\/$/, '');
      } catch {
        return false;
      }
    }, 'must be origins such as https://app.example.com (scheme, host and port; no path)'),
  ),
);
