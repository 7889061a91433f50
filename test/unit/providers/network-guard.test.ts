import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  carryingRanges,
  globalUnicastIpv6,
  loopbackRanges,
  refusedAddress,
  refusedRanges,
  refusedUrlHost,
} from '../../../src/providers/network-guard.js';

/**
 * The address guard of webhook deliveries and client metadata fetches, row by row of its table of
 * special-purpose ranges (the IANA IPv4 and IPv6 registries, multicast and the deprecated IPv6
 * forms): an address in each row is refused and the refusal names the row; an IPv6 address that
 * carries an IPv4 address is judged by it; and docs/webhooks.md lists the same table.
 */
const strict = { allowLoopback: false };
const publicIpv4 = '93.184.216.34';
const publicIpv6 = '2606:2800:220:1:248:1893:25c8:1946';

/** One address inside each refused row. */
const insideRefused: Record<string, string> = {
  '0.0.0.0/8': '0.1.2.3',
  '10.0.0.0/8': '10.0.0.7',
  '100.64.0.0/10': '100.100.100.200',
  '169.254.0.0/16': '169.254.169.254',
  '172.16.0.0/12': '172.31.255.1',
  '192.0.0.0/24': '192.0.0.170',
  '192.0.2.0/24': '192.0.2.10',
  '192.31.196.0/24': '192.31.196.1',
  '192.52.193.0/24': '192.52.193.1',
  '192.88.99.0/24': '192.88.99.1',
  '192.168.0.0/16': '192.168.1.1',
  '192.175.48.0/24': '192.175.48.6',
  '198.18.0.0/15': '198.19.0.1',
  '198.51.100.0/24': '198.51.100.7',
  '203.0.113.0/24': '203.0.113.9',
  '224.0.0.0/4': '239.255.255.250',
  '255.255.255.255/32': '255.255.255.255',
  '240.0.0.0/4': '240.0.0.1',
  '::/128': '::',
  '::/96': '::a9fe:a9fe',
  '::ffff:0:0:0/96': '::ffff:0:a9fe:a9fe',
  '64:ff9b:1::/48': '64:ff9b:1::5db8:d822',
  '100::/64': '100::1',
  '100:0:0:1::/64': '100:0:0:1::1',
  '2001:2::/48': '2001:2::1',
  '2001::/23': '2001:1::1',
  '2001:db8::/32': '2001:db8::1',
  '2620:4f:8000::/48': '2620:4f:8000::1',
  '3fff::/20': '3fff::1',
  '5f00::/16': '5f00::1',
  'fc00::/7': 'fd00::1',
  'fe80::/10': 'fe80::1',
  'fec0::/10': 'fec0::1',
  'ff00::/8': 'ff02::1',
};

/** For each carrying row: an address carrying a link-local IPv4 address (refused), and one carrying a public one. */
const carrying: Record<string, { refused: string[]; allowed: string }> = {
  '::ffff:0:0/96': { refused: ['::ffff:169.254.169.254', '::ffff:a9fe:a9fe'], allowed: `::ffff:${publicIpv4}` },
  '64:ff9b::/96': { refused: ['64:ff9b::a9fe:a9fe', '64:ff9b::10.0.0.1'], allowed: '64:ff9b::5db8:d822' },
  '2002::/16': { refused: ['2002:a9fe:a9fe::1', '2002:7f00:1::1'], allowed: '2002:5db8:d822::1' },
  // Teredo: the server's address in bits 32-63, the client's inverted in the last 32; either refused refuses.
  '2001::/32': {
    refused: ['2001:0:4136:e378:8000:63bf:5601:5601', '2001:0:a00:1:8000:63bf:a247:27dd'],
    allowed: '2001:0:4136:e378:8000:63bf:a247:27dd',
  },
};

describe('the address guard', () => {
  it('has an example address for every row of its table', () => {
    expect(Object.keys(insideRefused).sort()).toEqual(refusedRanges.map((r) => r.cidr).sort());
    expect(Object.keys(carrying).sort()).toEqual(carryingRanges.map((r) => r.cidr).sort());
  });

  it.each(refusedRanges.map((range) => [range.cidr, range.name]))('refuses %s (%s), naming the range', (cidr) => {
    const address = insideRefused[cidr] as string;
    expect(refusedAddress(address, strict)).toContain(cidr);
    // Loopback allowed changes nothing for these; only allowPrivate opens them (development and tests).
    expect(refusedAddress(address, { allowLoopback: true })).toContain(cidr);
    expect(refusedAddress(address, { allowLoopback: true, allowPrivate: true })).toBeNull();
  });

  it.each(carryingRanges.map((range) => [range.cidr, range.name]))(
    'judges %s (%s) by the IPv4 address it carries',
    (cidr) => {
      const cases = carrying[cidr] as { refused: string[]; allowed: string };
      for (const address of cases.refused) expect(refusedAddress(address, strict), address).toMatch(/ carries /);
      expect(refusedAddress(cases.allowed, strict)).toBeNull();
    },
  );

  it('refuses loopback unless the policy allows it, in IPv4, IPv6 and IPv4-mapped forms', () => {
    expect(loopbackRanges.map((r) => r.cidr)).toEqual(['127.0.0.0/8', '::1/128']);
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '64:ff9b::7f00:1']) {
      expect(refusedAddress(address, strict), address).toMatch(/is a loopback address/);
      expect(refusedAddress(address, { allowLoopback: true }), address).toBeNull();
    }
  });

  it(`refuses IPv6 outside the global unicast space (${globalUnicastIpv6}) and passes public addresses`, () => {
    expect(refusedAddress('4000::1', strict)).toContain(globalUnicastIpv6);
    expect(refusedAddress('1234::1', strict)).toContain(globalUnicastIpv6);
    for (const address of [publicIpv4, '8.8.8.8', '1.1.1.1', publicIpv6, '2a00:1450:4001:80b::200e'])
      expect(refusedAddress(address, strict), address).toBeNull();
    expect(refusedAddress('not-an-address', strict)).toBe('not-an-address is not an IP address');
  });

  it('refuses the IPv6 literals of the probe in a URL, however they are spelt', () => {
    for (const url of [
      'http://[::a9fe:a9fe]/',
      'http://[::ffff:0:a9fe:a9fe]/',
      'http://[fec0::1]/',
      'http://[::169.254.169.254]/',
      'http://[0:0:0:0:0:ffff:169.254.169.254]/',
      'http://[64:ff9b::169.254.169.254]/',
      'http://[2002:a9fe:a9fe::]/',
      'http://[FEC0:0:0:0:0:0:0:1]/',
    ])
      expect(refusedUrlHost(new URL(url), strict), url).not.toBeNull();
    expect(refusedUrlHost(new URL(`http://[${publicIpv6}]/`), strict)).toBeNull();
  });

  it('is documented row by row in docs/webhooks.md', () => {
    const page = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
    const documented = [...page.matchAll(/^\| `([0-9a-f.:]+\/\d+)` \|/gm)].map((m) => m[1]);
    const table = [...loopbackRanges, ...carryingRanges, ...refusedRanges].map((r) => r.cidr);
    expect(documented.sort()).toEqual([...table, globalUnicastIpv6].sort());
  });
});
