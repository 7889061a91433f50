import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Outgoing connections to addresses a caller chose (OAuth client metadata documents, webhook
 * endpoints) must never reach what is not globally routable: a metadata service, an internal
 * admin API, the database. The check is made when the connection is opened, on the addresses DNS
 * actually answered, so a name that resolves to a private address (or starts to, after it was
 * registered) is refused as surely as an IP literal. An IP literal skips DNS: `refusedUrlHost`
 * checks it before the call.
 *
 * Every address is judged against the IANA special-purpose registries of IPv4 and IPv6 (and the
 * multicast and deprecated ranges they leave out), parsed by ipaddr.js so that no spelling of an
 * address escapes. An IPv6 address that carries an IPv4 address (IPv4-mapped, NAT64's well-known
 * prefix, 6to4, Teredo) is judged by the IPv4 address it reaches; the forms no public host uses
 * (IPv4-compatible, IPv4-translated, local-use NAT64) are refused whole. docs/webhooks.md lists
 * the same table, and a unit test holds the two together.
 */

/** What an address in a range is: refused, or judged by the IPv4 address(es) it carries. */
export type RangeTreatment = 'refused' | 'carries-ipv4';

export interface SpecialRange {
  cidr: string;
  name: string;
  /** Where the range is defined. */
  source: string;
  treatment: RangeTreatment;
}

const refused = (cidr: string, name: string, source: string): SpecialRange => ({
  cidr,
  name,
  source,
  treatment: 'refused',
});

/** Loopback first: the one kind of special address a policy may allow (development and tests). */
export const loopbackRanges: readonly SpecialRange[] = [
  refused('127.0.0.0/8', 'loopback', 'RFC 1122'),
  refused('::1/128', 'loopback', 'RFC 4291'),
];

/**
 * The IPv6 ranges whose addresses carry an IPv4 address; judged by it. More specific than the
 * refused rows they sit in (Teredo's 2001::/32 is inside 2001::/23), so they are checked first.
 */
export const carryingRanges: readonly SpecialRange[] = [
  { cidr: '::ffff:0:0/96', name: 'IPv4-mapped', source: 'RFC 4291', treatment: 'carries-ipv4' },
  { cidr: '64:ff9b::/96', name: 'IPv4-IPv6 translation (NAT64)', source: 'RFC 6052', treatment: 'carries-ipv4' },
  { cidr: '2002::/16', name: '6to4', source: 'RFC 3056', treatment: 'carries-ipv4' },
  { cidr: '2001::/32', name: 'Teredo', source: 'RFC 4380', treatment: 'carries-ipv4' },
];

/** Every other special-purpose range: never reached. The first row that holds an address names it, so a range comes before one that holds it. */
export const refusedRanges: readonly SpecialRange[] = [
  refused('0.0.0.0/8', '"this network"', 'RFC 791'),
  refused('10.0.0.0/8', 'private-use', 'RFC 1918'),
  refused('100.64.0.0/10', 'shared address space (carrier-grade NAT)', 'RFC 6598'),
  refused('169.254.0.0/16', 'link-local', 'RFC 3927'),
  refused('172.16.0.0/12', 'private-use', 'RFC 1918'),
  refused('192.0.0.0/24', 'IETF protocol assignments', 'RFC 6890'),
  refused('192.0.2.0/24', 'documentation (TEST-NET-1)', 'RFC 5737'),
  refused('192.31.196.0/24', 'AS112-v4', 'RFC 7535'),
  refused('192.52.193.0/24', 'AMT', 'RFC 7450'),
  refused('192.88.99.0/24', 'deprecated 6to4 relay anycast', 'RFC 7526'),
  refused('192.168.0.0/16', 'private-use', 'RFC 1918'),
  refused('192.175.48.0/24', 'direct delegation AS112 service', 'RFC 7534'),
  refused('198.18.0.0/15', 'benchmarking', 'RFC 2544'),
  refused('198.51.100.0/24', 'documentation (TEST-NET-2)', 'RFC 5737'),
  refused('203.0.113.0/24', 'documentation (TEST-NET-3)', 'RFC 5737'),
  refused('224.0.0.0/4', 'multicast', 'RFC 5771'),
  refused('255.255.255.255/32', 'limited broadcast', 'RFC 919'),
  refused('240.0.0.0/4', 'reserved', 'RFC 1112'),
  refused('::/128', 'unspecified', 'RFC 4291'),
  refused('::/96', 'IPv4-compatible (deprecated)', 'RFC 4291'),
  refused('::ffff:0:0:0/96', 'IPv4-translated', 'RFC 6145'),
  refused('64:ff9b:1::/48', 'local-use IPv4-IPv6 translation', 'RFC 8215'),
  refused('100::/64', 'discard-only', 'RFC 6666'),
  refused('100:0:0:1::/64', 'dummy IPv6 prefix', 'RFC 9780'),
  refused('2001:2::/48', 'benchmarking', 'RFC 5180'),
  refused('2001::/23', 'IETF protocol assignments', 'RFC 2928'),
  refused('2001:db8::/32', 'documentation', 'RFC 3849'),
  refused('2620:4f:8000::/48', 'direct delegation AS112 service', 'RFC 7534'),
  refused('3fff::/20', 'documentation', 'RFC 9637'),
  refused('5f00::/16', 'segment routing (SRv6) SIDs', 'RFC 9602'),
  refused('fc00::/7', 'unique-local', 'RFC 4193'),
  refused('fe80::/10', 'link-local', 'RFC 4291'),
  refused('fec0::/10', 'site-local (deprecated)', 'RFC 3879'),
  refused('ff00::/8', 'multicast', 'RFC 4291'),
];

/** Only 2000::/3 is allocated for global unicast; the rest of the IPv6 space is reserved by IANA. */
export const globalUnicastIpv6 = '2000::/3';

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;
const parsedRange = (range: SpecialRange) => ({ range, cidr: ipaddr.parseCIDR(range.cidr) });
const parsedLoopback = loopbackRanges.map(parsedRange);
const parsedCarrying = carryingRanges.map(parsedRange);
const parsedRefused = refusedRanges.map(parsedRange);
const globalUnicast = ipaddr.parseCIDR(globalUnicastIpv6);

function within(address: Parsed, cidr: [Parsed, number]): boolean {
  return address.kind() === cidr[0].kind() && address.match(cidr);
}

/** The IPv4 addresses an IPv6 address of a carrying range reaches (Teredo: its server and its client). */
function carriedIpv4(address: ipaddr.IPv6, range: SpecialRange): ipaddr.IPv4[] {
  const bytes = address.toByteArray();
  const ipv4 = (at: number, mask = 0) => new ipaddr.IPv4(bytes.slice(at, at + 4).map((byte) => byte ^ mask));
  switch (range.cidr) {
    case '2002::/16':
      return [ipv4(2)];
    case '2001::/32':
      // RFC 4380 §4: the server's address in bits 32-63, the client's in the last 32, every bit inverted.
      return [ipv4(4), ipv4(12, 0xff)];
    default:
      return [ipv4(12)];
  }
}

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
  if (isIP(address) === 0 || !ipaddr.isValid(address)) return `${address} is not an IP address`;
  if (allowPrivate) return null;
  return refusedParsed(address, ipaddr.parse(address), allowLoopback);
}

function refusedParsed(written: string, address: Parsed, allowLoopback: boolean): string | null {
  if (parsedLoopback.some(({ cidr }) => within(address, cidr)))
    return allowLoopback ? null : `${written} is a loopback address`;
  if (address.kind() === 'ipv6') {
    const carrying = parsedCarrying.find(({ cidr }) => within(address, cidr));
    if (carrying) {
      for (const ipv4 of carriedIpv4(address as ipaddr.IPv6, carrying.range)) {
        const refusal = refusedParsed(ipv4.toString(), ipv4, allowLoopback);
        if (refusal) return `${written} carries ${ipv4.toString()} (${carrying.range.name}): ${refusal}`;
      }
      return null;
    }
  }
  const special = parsedRefused.find(({ cidr }) => within(address, cidr));
  if (special) return `${written} is not a public address: ${special.range.name}, ${special.range.cidr}`;
  if (address.kind() === 'ipv6' && !within(address, globalUnicast))
    return `${written} is not a public address: outside the global unicast space, ${globalUnicastIpv6}`;
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
 * round-robin or rebinding name can slip through. The refusal does not say which address the
 * name answered: it reaches the caller's delivery log, and would tell an account what an
 * internal name resolves to.
 */
export function guardedLookup(policy: AddressPolicy, resolve: Resolver = systemResolver) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolve(hostname, (error, addresses) => {
      if (error) return callback(error, []);
      if (!addresses.length)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      if (addresses.some((a) => refusedAddress(a.address, policy) !== null))
        return callback(
          Object.assign(new Error(`refused to connect to ${hostname}: the address is not public`), {
            code: 'EADDRNOTAVAIL',
          }),
          [],
        );
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      return callback(null, first.address, first.family);
    });
  };
}
