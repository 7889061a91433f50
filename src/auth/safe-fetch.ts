import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { readFileSync } from 'node:fs';
import { BlockList, isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, fetch as undiciFetch } from 'undici';

/**
 * The fetch the authorization server uses for client ID metadata documents: https only (the
 * library checks the URL), and never to an address that is not globally routable (SSRF: a
 * client_id naming an internal service). The check happens at connection time on the
 * addresses DNS actually returned, so a name that resolves to a private address is refused as
 * surely as an IP literal. Loopback can be allowed for development and tests
 * (OAUTH_CIMD_ALLOW_LOOPBACK), together with an extra trusted certificate authority
 * (OAUTH_CIMD_CA_FILE) for a self-signed local certificate; https stays required.
 */

const specialUse = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  specialUse.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  specialUse.addSubnet(network, prefix, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** Why an address may not be fetched, or null when it may. */
export function refusedAddress(address: string, allowLoopback: boolean): string | null {
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  const mapped = family === 6 && /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const [value, type] = mapped
    ? [mapped, 'ipv4' as const]
    : [address, family === 4 ? ('ipv4' as const) : ('ipv6' as const)];
  if (loopback.check(value, type)) return allowLoopback ? null : `${address} is a loopback address`;
  if (specialUse.check(value, type)) return `${address} is a private or reserved address`;
  return null;
}

export interface SafeFetchOptions {
  allowLoopback: boolean;
  extraCaFile?: string;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export function createSafeFetch(options: SafeFetchOptions) {
  const guardedLookup = (hostname: string, lookupOptions: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refusal = addresses.map((a) => refusedAddress(a.address, options.allowLoopback)).find((r) => r !== null);
      if (refusal)
        return callback(
          Object.assign(new Error(`refused to connect to ${hostname}: ${refusal}`), { code: 'EADDRNOTAVAIL' }),
          [],
        );
      if (lookupOptions.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
  const ca = options.extraCaFile ? [...rootCertificates, readFileSync(options.extraCaFile, 'utf8')] : undefined;
  const agent = new Agent({ connect: { lookup: guardedLookup as never, ...(ca ? { ca } : {}) } });

  return async (url: URL | string, init: RequestInit & { dispatcher?: unknown }): Promise<Response> => {
    const target = new URL(String(url));
    const hostname = target.hostname.replace(/^\[|\]$/g, '');
    // An IP literal skips DNS, so it is checked here.
    if (isIP(hostname)) {
      const refusal = refusedAddress(hostname, options.allowLoopback);
      if (refusal) throw new Error(`refused to fetch ${target.origin}: ${refusal}`);
    }
    const { dispatcher: _libraryDispatcher, ...rest } = init;
    return (await undiciFetch(target, {
      ...(rest as Parameters<typeof undiciFetch>[1]),
      dispatcher: agent,
      redirect: 'manual',
    })) as unknown as Response;
  };
}
