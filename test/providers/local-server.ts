import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on a free local port that plays an outside service (the network source,
 * a contact vendor) in tests. Each test sets `handler`; every request is recorded.
 */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export type Reply = { status: number; json?: unknown; text?: string; delayMs?: number };

export interface LocalServer {
  url: string;
  requests: RecordedRequest[];
  handler: (request: RecordedRequest) => Reply | Promise<Reply>;
  close(): Promise<void>;
}

export async function startLocalServer(
  handler: LocalServer['handler'] = () => ({ status: 404 }),
): Promise<LocalServer> {
  const state: LocalServer = {
    url: '',
    requests: [],
    handler,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {
          // keep the text
        }
        const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
        state.requests.push(recorded);
        const reply = await state.handler(recorded);
        if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
        if (res.destroyed) return;
        if (reply.json !== undefined) {
          res.writeHead(reply.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(reply.json));
        } else {
          res.writeHead(reply.status, { 'content-type': 'text/plain' });
          res.end(reply.text ?? '');
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
