import { createHash } from 'node:crypto';
import { phrasings, type Phrasing } from './generalisation.js';

/**
 * The fixed split of the generalisation set. A phrasing is held out when the first byte of the
 * SHA-256 of its query text is below 103 (about 40 %): decided by the text alone, before any
 * ranking was seen, and the same on every machine. Held-out phrasings are only ever scored; the
 * ranker was tuned on the others. Editing a query moves it by this rule, so a test pins the sizes.
 */
export function isHeldOut(query: string): boolean {
  return (createHash('sha256').update(query).digest()[0] as number) < 103;
}

export const tuning: readonly Phrasing[] = phrasings.filter((p) => !isHeldOut(p.query));
export const heldOut: readonly Phrasing[] = phrasings.filter((p) => isHeldOut(p.query));
