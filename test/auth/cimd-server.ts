import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import selfsigned from 'selfsigned';

/**
 * Client ID metadata documents served the way a real MCP client would host them: over HTTPS,
 * here on localhost with a self-signed certificate that only the service under test trusts
 * (OAUTH_CIMD_CA_FILE), so that the production rule (https, no plain http) stays as it is.
 * Besides a good document it serves the bad ones the negative tests need.
 */
export interface CimdServer {
  origin: string;
  caFile: string;
  /** The URL of a document; `name` is one of the routes below. */
  url(name: 'client' | 'large' | 'slow' | 'mismatch' | 'plain-http' | 'slow-body' | 'broken-body'): string;
  fetched: string[];
  stop(): Promise<void>;
}

export async function startCimdServer(dir: string, redirectUri: string): Promise<CimdServer> {
  const pems = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const caFile = path.join(dir, 'cimd-ca.pem');
  await writeFile(caFile, pems.cert);
  const fetched: string[] = [];
  let origin = '';
  const document = (name: string, extra: Record<string, unknown> = {}) => ({
    client_id: `${origin}/${name}.json`,
    client_name: 'Metadata Document Client',
    client_uri: 'https://client.example',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });
  const server: Server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    const name = (req.url ?? '').replace(/^\//, '').replace(/\.json$/, '');
    fetched.push(name);
    const send = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' });
      res.end(JSON.stringify(body));
    };
    if (name === 'client') return send(document('client'));
    // Over the 5 KiB the authorization server accepts.
    if (name === 'large') return send(document('large', { padding: 'x'.repeat(6 * 1024) }));
    if (name === 'mismatch') return send(document('mismatch', { client_id: `${origin}/someone-else.json` }));
    // A web client's plain-http redirect URI on a host that is not loopback.
    if (name === 'plain-http') return send(document('plain-http', { redirect_uris: ['http://evil.example/cb'] }));
    if (name === 'slow-body' || name === 'broken-body') {
      // Headers at once, then a body that trickles for longer than the fetch may take, or breaks off.
      const body = JSON.stringify(document(name));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.write(body.slice(0, 10));
      if (name === 'broken-body') {
        res.socket?.destroy();
        return undefined;
      }
      let sent = 10;
      const timer = setInterval(() => {
        res.write(body.slice(sent, sent + 1));
        sent += 1;
        if (sent >= body.length) {
          clearInterval(timer);
          res.end();
        }
      }, 500);
      res.on('close', () => clearInterval(timer));
      return undefined;
    }
    if (name === 'slow') {
      // No answer until the authorization server gives up (it waits 2.5 s) and closes the connection.
      return undefined;
    }
    res.writeHead(404).end();
    return undefined;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `https://localhost:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    caFile,
    url: (name) => `${origin}/${name}.json`,
    fetched,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
