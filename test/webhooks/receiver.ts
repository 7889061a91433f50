import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A webhook receiver over loopback for the tests: it records every request (headers and raw
 * body, as a receiver verifies them) and answers what the test says, by default 200. `hang`
 * holds a request unanswered until the receiver closes (an endpoint that never answers).
 */
export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  answer: (request: ReceivedWebhook, index: number) => Answer;
  /** Resolves with the requests once there are at least `count` (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const events = new EventEmitter();
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: '',
    received: [],
    answer: () => ({ status: 200, body: 'ok' }),
    waitFor: (count, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        if (receiver.received.length >= count) return resolve(receiver.received);
        const timer = setTimeout(() => {
          events.off('request', check);
          reject(new Error(`the receiver got ${receiver.received.length} requests, not ${count}, in ${timeoutMs} ms`));
        }, timeoutMs);
        function check(): void {
          if (receiver.received.length < count) return;
          clearTimeout(timer);
          events.off('request', check);
          resolve(receiver.received);
        }
        events.on('request', check);
      }),
    close: async () => {
      for (const response of hanging) response.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedWebhook = {
        path: req.url ?? '',
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      const index = receiver.received.length;
      receiver.received.push(request);
      const answer = receiver.answer(request, index);
      events.emit('request');
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? '');
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
