/* global process, Headers, Request */
// Loaded into the conformance CLI (node --import): the suite has no option for request
// headers, so this adds the service's x-api-key to every request it makes, through fetch and
// through undici's global dispatcher (which its raw-HTTP scenarios use).
import { Agent, setGlobalDispatcher } from 'undici';

const apiKey = process.env.MCP_CONFORMANCE_API_KEY;
if (!apiKey) throw new Error('MCP_CONFORMANCE_API_KEY is not set');

const withKey = (headers) => {
  const merged = new Headers(headers);
  merged.set('x-api-key', apiKey);
  return merged;
};

const originalFetch = globalThis.fetch;
globalThis.fetch = (input, init = {}) =>
  originalFetch(input, {
    ...init,
    headers: withKey(init.headers ?? (input instanceof Request ? input.headers : undefined)),
  });

setGlobalDispatcher(
  new Agent().compose((dispatch) => (options, handler) => {
    const headers = options.headers;
    let next;
    if (Array.isArray(headers)) next = [...headers, 'x-api-key', apiKey];
    else if (headers && typeof headers[Symbol.iterator] === 'function') next = [...headers, ['x-api-key', apiKey]];
    else next = { ...(headers ?? {}), 'x-api-key': apiKey };
    return dispatch({ ...options, headers: next }, handler);
  }),
);
