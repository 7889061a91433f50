import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/**
 * Outgoing connections to addresses a caller chose (OAuth client metadata documents, webhook
 * endpoints) must never reach what is not globally routable: a metadata service, an internal
 * admin API, the database. The check is made when the connection is opened, on the addresses DNS
 * actually answered, so a name that resolves to a private address (or starts to, after it was
 * registered) is refused as surely as an IP literal. An IP literal skips DNS: `refusedUrlHost`
 * checks it before the call.
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

/** Which addresses a guarded connection may reach besides the globally routable ones. */
export interface AddressPolicy {
  /** Loopback (127.0.0.0/8, ::1): development and tests. */
  allowLoopback: boolean;
  /** Everything, private and link-local included: development and tests (WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  allowPrivate?: boolean;
}

/** Why an address may not be reached, or null when it may. */
export function refusedAddress(address: string, policy: AddressPolicy): string | null {
  const { allowLoopback, allowPrivate = false } = policy;
  const family = isIP(address);
  if (family === 0) return `${address} is not an IP address`;
  if (allowPrivate) return null;
  const mapped = family === 6 && /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const [value, type] = mapped
    ? [mapped, 'ipv4' as const]
    : [address, family === 4 ? ('ipv4' as const) : ('ipv6' as const)];
  if (loopback.check(value, type)) return allowLoopback ? null : `${address} is a loopback address`;
  if (specialUse.check(value, type)) return `${address} is a private or reserved address`;
  return null;
}

/** The host of a URL when it is an IP literal (which no lookup will see): why it is refused, or null. */
export function refusedUrlHost(url: URL, policy: AddressPolicy): string | null {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(hostname) ? refusedAddress(hostname, policy) : null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** How a name is resolved: node:dns's lookup by default; tests pass one that answers what they need. */
export type Resolver = (hostname: string, callback: (error: Error | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, callback) =>
  dnsLookup(hostname, { all: true }, (error, addresses) => callback(error, addresses ?? []));

/**
 * A `lookup` for undici's connector (`new Agent({ connect: { lookup } })`) that resolves the name
 * and refuses the connection when any of its addresses is refused, so that no answer of a
 * round-robin or rebinding name can slip through.
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error, []);
      if (!addresses.length)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      const refusal = addresses.map((a) => refusedAddress(a.address, policy)).find((r) => r !== null);
      if (refusal)
        return callback(
          Object.assign(new Error(`refused to connect to ${hostname}: ${refusal}`), { code: 'EADDRNOTAVAIL' }),
          [],
        );
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}
