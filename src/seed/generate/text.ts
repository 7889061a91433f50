import { tldOf } from '../../core/network-urls.js';

const FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ı: 'i',
  œ: 'oe',
  Œ: 'OE',
  þ: 'th',
};

/** Latin-script text without diacritics, for slugs and email addresses. */
export function foldToAscii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[ßæÆøØłŁđĐıœŒþ]/g, (c) => FOLDS[c] ?? c);
}

/** "Brightpath Software GmbH & Co." → "brightpath-software-gmbh-co". */
export function slugify(text: string): string {
  return foldToAscii(text)
    .toLowerCase()
    .replace(/&/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const emailPartCache = new Map<string, string>();
export function emailPart(name: string): string {
  let part = emailPartCache.get(name);
  if (part === undefined) {
    part = foldToAscii(name)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, '');
    emailPartCache.set(name, part);
  }
  return part;
}

const slugPartCache = new Map<string, string>();
export function slugPart(name: string): string {
  let part = slugPartCache.get(name);
  if (part === undefined) {
    part = slugify(name);
    slugPartCache.set(name, part);
  }
  return part;
}

/** Distinct TLDs of a list of domains, in first-seen order. */
export function tldsOf(domains: readonly string[]): string[] {
  return [...new Set(domains.map(tldOf))];
}

/** Templates are parsed once into literal and placeholder parts. */
export type Template = readonly string[];
export function compile(template: string): Template {
  return template.split(/[{}]/);
}
export function render(template: Template, values: Readonly<Record<string, string>>): string {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    out += i % 2 === 0 ? template[i] : (values[template[i] as string] ?? '');
  }
  return out;
}

export function withArticle(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

export function capitalise(s: string): string {
  return s.length > 0 && s[0] === s[0]?.toLowerCase() ? (s[0] as string).toUpperCase() + s.slice(1) : s;
}

// Not toLocaleString: its output depends on the ICU data the runtime was built with.
export function withThousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
