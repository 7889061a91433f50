import { LEGAL_SUFFIXES } from '../../../reference/legal-suffixes.js';

/**
 * What two loosely written identifiers share: names reduced to their core (no legal form, no
 * punctuation, no case), and a similarity of two cores from 0 to 1 that forgives a typo or two.
 */

const plain = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[.'’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

// Longest first, so that "GmbH & Co. KG" goes before "KG".
const suffixes = [...new Set(LEGAL_SUFFIXES.map(plain).filter(Boolean))].sort((a, b) => b.length - a.length);

/** "The Brightpath Analytics GmbH" → "brightpath analytics". */
export function companyNameCore(name: string): string {
  let core = plain(name).replace(/^the /, '');
  for (let changed = true; changed;) {
    changed = false;
    for (const suffix of suffixes) {
      if (core.endsWith(` ${suffix}`)) {
        core = core.slice(0, -suffix.length - 1).trim();
        changed = true;
        break;
      }
    }
  }
  return core;
}

/** A person's name as plain words: "José  O'Neil" → "jose oneil". */
export function plainName(name: string): string {
  return plain(name);
}

/** Levenshtein distance, for short strings (names). */
function distance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** 1 for the same text, less by each edit relative to the longer text; spaces do not count. */
export function textSimilarity(a: string, b: string): number {
  const x = a.replace(/ /g, '');
  const y = b.replace(/ /g, '');
  if (!x || !y) return 0;
  return 1 - distance(x, y) / Math.max(x.length, y.length);
}

/** The registrable part of a domain, as a company owns it: "eu.app.acme.co.uk" keeps "acme.co.uk" comparable. */
export function domainRoot(domain: string): string {
  const labels = domain.split('.');
  const twoLevel = labels.length >= 3 && /^(co|com|org|net|ac|gov)$/.test(labels[labels.length - 2] ?? '');
  return labels.slice(twoLevel ? -3 : -2).join('.');
}
