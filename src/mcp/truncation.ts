import type { CallToolResult } from '@modelcontextprotocol/server';
import type { AnyOperation } from '../../operations/define.js';
import { estimateTokens, largestArrayField, sliceToBudget, type Envelope } from './guards/response-size.js';
import type { StoredResult } from './guards/stored-results.js';
import { toolError, toolResult } from './results.js';

/**
 * Results over the response budget: the whole answer was charged and stored, so what the agent
 * gets is a slice that fits, and a note that says how to read the rest free of charge.
 */

export interface StoredPlace {
  resultId: string;
  expiresAt: string;
}

/**
 * The slice of `structured` that fits the budget from `offset`, cut on its largest list, with the
 * note; a result without a list to cut is answered without its output. `input` is the call's
 * payload (null when replaying a stored result), to suggest a pageSize that would fit.
 */
export function truncatedResult(
  operation: AnyOperation,
  structured: Envelope,
  place: StoredPlace,
  offset: number,
  lines: string[],
  input: Record<string, unknown> | null,
  budget: number,
): CallToolResult {
  const { resultId, expiresAt } = place;
  const field = largestArrayField(structured.output);
  const resource = `pds://results/${resultId}`;
  if (!field) {
    const { output: _omitted, ...rest } = structured;
    const note = {
      resultId,
      resource,
      expiresAt,
      reason: `The output is larger than the response budget (about ${budget} tokens) and has no list to cut.`,
      howToGetTheRest: `Read the resource ${resource} (free) for the whole output.`,
    };
    return toolResult(`${lines.join(' ')} Output omitted: too large. ${note.howToGetTheRest}`, {
      ...rest,
      truncated: note,
    });
  }
  const slice = sliceToBudget(structured, field, offset, budget);
  const pageSize = typeof input?.pageSize === 'number' ? input.pageSize : null;
  const howToGetTheRest =
    slice.nextOffset === null
      ? 'This slice reaches the end of the stored result.'
      : `Records ${slice.nextOffset + 1} to ${slice.total} of this page were charged and are kept: call call_operation with ` +
        `{"operationId": "${operation.operationId}", "resultId": "${resultId}", "offset": ${slice.nextOffset}} (free) or read ${resource}?offset=${slice.nextOffset}. ` +
        'Do not skip them by paging on with nextCursor, which continues after the whole page.' +
        (pageSize ? ` Next time ask for pageSize ${Math.max(1, slice.shown)} or less to fit one answer.` : '');
  const note = {
    field,
    offset: slice.offset,
    shown: slice.shown,
    total: slice.total,
    nextOffset: slice.nextOffset,
    resultId,
    resource,
    expiresAt,
    budgetTokens: budget,
    howToGetTheRest,
  };
  return toolResult(
    `${lines.join(' ')} Truncated to fit the response budget: showing ${field} ${slice.offset + 1}–${slice.offset + slice.shown} of ${slice.total}. ${howToGetTheRest}`,
    { ...slice.answer, truncated: note },
  );
}

/** A slice of a stored result (free: it was charged when first fetched), or why there is none. */
export function storedSliceResult(
  operation: AnyOperation,
  resultId: string,
  stored: StoredResult | null,
  offset: number,
  budget: number,
): CallToolResult {
  if (!stored || stored.operationId !== operation.operationId) {
    return toolError({
      code: 'not_found',
      message: `No stored result ${resultId} for ${operation.operationId} on this account (stored results are kept 24 hours).`,
      nextStep: 'Call the operation again with a smaller pageSize.',
    });
  }
  const body = stored.answer as Envelope;
  const replay: Envelope = {
    ...body,
    chargeInfo: { method: 'free', creditsCharged: 0, message: 'A stored result, charged when it was first fetched.' },
  };
  const place = { resultId, expiresAt: stored.expiresAt };
  const lines = [`${operation.operationId}: stored result ${resultId}, free (already charged).`];
  const field = largestArrayField(body.output);
  if (field) {
    const total = ((body.output as Record<string, unknown>)[field] as unknown[]).length;
    if (offset >= total) {
      return toolError({
        code: 'invalid_request',
        message: `offset ${offset} is past the ${total} records of ${resultId}.`,
        nextStep: `Use an offset below ${total}.`,
      });
    }
    return truncatedResult(operation, { ...replay, storedResult: place }, place, offset, lines, null, budget);
  }
  if (estimateTokens(JSON.stringify(replay)) > budget)
    return truncatedResult(operation, replay, place, 0, lines, null, budget);
  return toolResult(lines.join(' '), { ...replay, storedResult: place });
}
