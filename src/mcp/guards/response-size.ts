/**
 * Keeps tool results inside the response budget. Tokens are estimated as JSON characters / 4,
 * a fair average for JSON under common tokenizers. A result is cut on its largest array of
 * records (`data`, `pageResults`, ...), never inside a record, so every record shown is whole.
 */

export const charsPerToken = 4;

export function estimateTokens(json: string): number {
  return Math.ceil(json.length / charsPerToken);
}

export interface Envelope {
  output: unknown;
  chargeInfo?: unknown;
  [key: string]: unknown;
}

export interface Slice {
  answer: Envelope;
  field: string;
  offset: number;
  shown: number;
  total: number;
  /** Offset of the first record not shown, or null when the slice reaches the end. */
  nextOffset: number | null;
}

/** The array of `output` that holds most of the answer's size. */
export function largestArrayField(output: unknown): string | null {
  if (!output || typeof output !== 'object' || Array.isArray(output)) return null;
  let best: { field: string; size: number } | null = null;
  for (const [field, value] of Object.entries(output as Record<string, unknown>)) {
    if (!Array.isArray(value) || value.length === 0) continue;
    const size = JSON.stringify(value).length;
    if (!best || size > best.size) best = { field, size };
  }
  return best?.field ?? null;
}

/**
 * The records of `answer.output[field]` from `offset` that fit in `budgetTokens` together with
 * the rest of the answer, leaving `reserveChars` for the gateway's own notes. At least one record
 * is always shown, so that reading slice after slice always advances.
 */
export function sliceToBudget(
  answer: Envelope,
  field: string,
  offset: number,
  budgetTokens: number,
  reserveChars = 1500,
): Slice {
  const output = answer.output as Record<string, unknown>;
  const records = (output[field] ?? []) as unknown[];
  const emptied = { ...answer, output: { ...output, [field]: [] } };
  let used = JSON.stringify(emptied).length + reserveChars;
  const limit = budgetTokens * charsPerToken;
  let end = offset;
  while (end < records.length) {
    const size = JSON.stringify(records[end]).length + 1;
    if (end > offset && used + size > limit) break;
    used += size;
    end += 1;
  }
  return {
    answer: { ...answer, output: { ...output, [field]: records.slice(offset, end) } },
    field,
    offset,
    shown: end - offset,
    total: records.length,
    nextOffset: end < records.length ? end : null,
  };
}
