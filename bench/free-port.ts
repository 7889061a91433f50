import { createServer } from 'node:net';

/**
 * A loopback port free at the time of asking, for a server that must be told its port before it
 * starts (PostgreSQL, a service restarted on the same URL). Another process may take it first;
 * a server that can listen on port 0 and report its port should do that instead.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
