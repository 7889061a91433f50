import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/search/cursor.js';

/** Identifies one exact call: the operation and its validated payload (key order does not matter). */
export function payloadHash(operationId: string, input: unknown): string {
  return createHash('sha256')
    .update(`${operationId}\n${canonicalJson(input)}`)
    .digest('base64url');
}
