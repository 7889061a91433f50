/** Top-1 and top-3 accuracy of a ranker over a set of phrasings, with the misses named. */
export interface Score {
  count: number;
  top1: number;
  top3: number;
  top1Rate: number;
  top3Rate: number;
  misses: string[];
}

export function score(
  set: readonly { query: string; expected: string }[],
  rank: (query: string) => readonly string[],
): Score {
  let top1 = 0;
  let top3 = 0;
  const misses: string[] = [];
  for (const { query, expected } of set) {
    const ranked = rank(query).slice(0, 3);
    if (ranked[0] === expected) top1 += 1;
    else misses.push(`"${query}" → ${ranked.join(', ') || '(nothing)'} (wanted ${expected})`);
    if (ranked.includes(expected)) top3 += 1;
  }
  return { count: set.length, top1, top3, top1Rate: top1 / set.length, top3Rate: top3 / set.length, misses };
}

export const percent = (rate: number) => `${(rate * 100).toFixed(1)} %`;
