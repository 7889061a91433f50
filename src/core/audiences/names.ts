/**
 * The "Cleaning Names" step: names as people type them on their profiles carry emoji,
 * credentials, pronouns and shouting. An export for outreach wants "Ana", not "ANA 🚀, MBA".
 * Cleaning never invents a name: when nothing would be left, the original stays.
 */
const credentials = new Set([
  'mba',
  'phd',
  'ph.d',
  'cpa',
  'cfa',
  'pmp',
  'md',
  'm.d',
  'jd',
  'esq',
  'msc',
  'bsc',
  'cissp',
  'mph',
  'dds',
  'rn',
]);
const honorifics = /^(?:dr|mr|mrs|ms|mx|prof)\.?\s+/i;

export function cleanName(raw: string): string {
  let name = raw.normalize('NFC');
  name = name.replace(/\p{Extended_Pictographic}|\p{So}|\u200d|\ufe0f/gu, ' ');
  name = name.replace(/\([^)]*\)|\[[^\]]*\]/g, ' ');
  // Everything after the first comma is credentials or a suffix list ("Smith, MBA, PMP").
  const [beforeComma] = name.split(',');
  name = beforeComma ?? name;
  name = name.replace(/\s+/g, ' ').trim();
  name = name.replace(honorifics, '');
  const words = name.split(' ');
  const kept =
    words.length > 1 ? words.filter((word) => !credentials.has(word.toLowerCase().replace(/\.$/, ''))) : words;
  name = kept
    .join(' ')
    .replace(/^[^\p{L}]+|[^\p{L}.]+$/gu, '')
    .trim();
  if (!name) return raw.trim();
  const letters = name.replace(/[^\p{L}]/gu, '');
  if (letters.length > 1 && (letters === letters.toUpperCase() || letters === letters.toLowerCase()))
    name = titleCase(name);
  return name;
}

function titleCase(name: string): string {
  return name
    .toLowerCase()
    .replace(/(^|[\s'’-])(\p{L})/gu, (_match, boundary: string, letter: string) => boundary + letter.toUpperCase());
}
