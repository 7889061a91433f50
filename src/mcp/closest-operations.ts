import { catalog } from './catalog.js';

/** The operationIds nearest to a mistyped one, for "unknown operationId" errors. */
export function closestOperationIds(candidate: string, count = 3): string[] {
  const target = candidate.toLowerCase();
  return [...catalog.keys()]
    .map((id) => ({ id, distance: editDistance(target, id.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.id.localeCompare(b.id))
    .slice(0, count)
    .map((c) => c.id);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
