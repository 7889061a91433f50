import type { IncomingMessage, ServerResponse } from 'node:http';
import { retryAfterSeconds } from '../errors.js';
import { requestIdOf } from './access-log.js';

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The process's request listener from the moment it listens: until the app is ready (services
 * built, routes mounted), every request is answered at once, 503 `starting` with Retry-After,
 * instead of being left without an answer; then every request goes to the app.
 */
export function untilReady(): { listener: RequestListener; ready(app: RequestListener): void } {
  let app: RequestListener | null = null;
  return {
    listener: (req, res) => {
      if (app) {
        app(req, res);
        return;
      }
      answerStarting(req, res);
    },
    ready: (listener) => {
      app = listener;
    },
  };
}

export function answerStarting(req: IncomingMessage, res: ServerResponse): void {
  const requestId = requestIdOf(req);
  const body = JSON.stringify({
    error: {
      code: 'starting',
      message: `The service is starting and not ready to answer yet; retry in ${retryAfterSeconds.starting} s.`,
      details: {},
      requestId,
    },
  });
  res.writeHead(503, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'retry-after': String(retryAfterSeconds.starting),
    'x-request-id': requestId,
    'cache-control': 'no-store',
  });
  res.end(body);
}
