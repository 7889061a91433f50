import { LRUCache } from 'lru-cache';

/**
 * The fetch of client ID metadata documents, made once per document and remembered: oidc-provider
 * looks a client up more than once while it handles one request, and without this it fetched a
 * document again for each lookup and each request when the document failed (an error, a status
 * other than 200, a body that stalls or breaks off, or content the provider then refuses). Each
 * outcome, success or failure, is kept for `rememberMs`, so a document that fails costs one
 * fetch in that time however often it is named; a fetch in flight is shared. A fetch, headers and
 * body together, ends at `deadlineMs`, and at most `maxBytes` + 1 of a body are read (the
 * provider refuses a larger document itself).
 */

type Fetch = (url: URL | string, init: RequestInit) => Promise<Response>;

interface Outcome {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  body: Uint8Array;
}

export interface DocumentFetchOptions {
  rememberMs: number;
  deadlineMs: number;
  maxBytes: number;
  /** How many documents' outcomes are kept at most (the least recently used go first). */
  maxEntries?: number;
}

async function readBounded(response: Response, maxBytes: number): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  return Buffer.concat(chunks);
}

export function rememberingDocumentFetch(fetchFn: Fetch, options: DocumentFetchOptions): Fetch {
  const outcomes = new LRUCache<string, Promise<Outcome>>({
    max: options.maxEntries ?? 10_000,
    ttl: options.rememberMs,
  });
  const fetchOnce = async (url: URL | string, init: RequestInit): Promise<Outcome> => {
    const deadline = AbortSignal.timeout(options.deadlineMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    const response = await fetchFn(url, { ...init, signal });
    const body = await readBounded(response, options.maxBytes + 1);
    const headers = [...response.headers].filter(([name]) => !['content-length', 'content-encoding'].includes(name));
    return { status: response.status, statusText: response.statusText, headers, body };
  };
  return async (url, init) => {
    const key = String(url);
    let outcome = outcomes.get(key);
    if (!outcome) {
      outcome = fetchOnce(url, init);
      // Remembered whatever it turns out to be; a failure is rethrown to each caller that asks.
      outcome.catch(() => undefined);
      outcomes.set(key, outcome);
    }
    const { status, statusText, headers, body } = await outcome;
    return new Response(status === 204 || status === 304 ? null : body, { status, statusText, headers });
  };
}
