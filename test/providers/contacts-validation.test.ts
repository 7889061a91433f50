import { createSocket, type Socket } from 'node:dgram';
import { promises as dns } from 'node:dns';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContactValidator,
  EmbeddedMailDomainChecker,
  normaliseEmail,
  normalisePhone,
} from '../../src/core/contacts/validation.js';
import { DnsMailDomainChecker } from '../../src/providers/contacts/dns-mail-domains.js';

describe('syntax', () => {
  it('accepts deliverable address forms and lowercases them', () => {
    expect(normaliseEmail(' Jane.Doe@AcmeRobotics.io ')).toBe('jane.doe@acmerobotics.io');
    expect(normaliseEmail("o'neil+sales@acme.co.uk")).toBe("o'neil+sales@acme.co.uk");
  });

  it.each([
    'plainaddress',
    '@acme.com',
    'jane@',
    'jane@acme',
    'jane..doe@acme.com',
    '.jane@acme.com',
    'jane.@acme.com',
    'jane doe@acme.com',
    'jane@-acme.com',
    'jane@acme-.com',
    'jane@acme.123',
    'jane@[10.0.0.1]',
    `${'a'.repeat(65)}@acme.com`,
    `jane@${'a'.repeat(64)}.com`,
  ])('refuses %s', (value) => {
    expect(normaliseEmail(value)).toBeNull();
  });

  it('normalises phone numbers to E.164 and refuses what cannot be one', () => {
    expect(normalisePhone('+33 4 72 00 00 00')).toBe('+33472000000');
    expect(normalisePhone('+1 (415) 555-0100')).toBe('+14155550100');
    expect(normalisePhone('415.555.0100')).toBe('4155550100');
    expect(normalisePhone('12345')).toBeNull();
    expect(normalisePhone('+1234567890123456')).toBeNull();
    expect(normalisePhone('call me')).toBeNull();
    expect(normalisePhone('+1 415 555 01OO')).toBeNull();
  });
});

describe('EmbeddedMailDomainChecker', () => {
  const checker = new EmbeddedMailDomainChecker();

  it('refuses reserved and special-use names, the same way every time', async () => {
    for (const domain of [
      'example.com',
      'mail.example.org',
      'acme.test',
      'acme.invalid',
      'host.localhost',
      'printer.local',
      'acme.example',
    ]) {
      expect(await checker.acceptsMail(domain), domain).toBe(false);
    }
    for (const domain of ['acmerobotics.io', 'gmail.com', 'acme.co.uk', 'examples.com']) {
      expect(await checker.acceptsMail(domain), domain).toBe(true);
    }
  });

  it('makes the validator refuse emails at such domains but never phone numbers for it', async () => {
    const validator = new ContactValidator(checker);
    expect(await validator.validate('workEmails', 'jane@example.com')).toBeNull();
    expect(await validator.validate('workEmails', 'Jane@Acme.io')).toBe('jane@acme.io');
    expect(await validator.validate('phoneNumbers', '+1 415 555 0100')).toBe('+14155550100');
  });
});

/**
 * A tiny authoritative DNS server over UDP, enough for node's resolver: MX and A questions
 * about a few names, NXDOMAIN for the rest, SERVFAIL for one.
 */
interface Zone {
  mx: Record<string, Array<{ priority: number; exchange: string }>>;
  a: Record<string, string[]>;
  servfail: Set<string>;
}

function encodeName(name: string): Buffer {
  if (name === '' || name === '.') return Buffer.from([0]);
  const parts = name
    .replace(/\.$/, '')
    .split('.')
    .map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'ascii')]));
  return Buffer.concat([...parts, Buffer.from([0])]);
}

function answerQuery(query: Buffer, zone: Zone): Buffer {
  let offset = 12;
  const labels: string[] = [];
  while (query[offset] !== 0) {
    const length = query[offset] as number;
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString('ascii'));
    offset += length + 1;
  }
  offset += 1;
  const qtype = query.readUInt16BE(offset);
  const question = query.subarray(12, offset + 4);
  const name = labels.join('.').toLowerCase();
  const known = name in zone.mx || name in zone.a;
  const answers: Buffer[] = [];
  if (qtype === 15) {
    for (const record of zone.mx[name] ?? []) {
      const exchange = encodeName(record.exchange);
      const rdata = Buffer.alloc(2 + exchange.length);
      rdata.writeUInt16BE(record.priority, 0);
      exchange.copy(rdata, 2);
      answers.push(resourceRecord(15, rdata));
    }
  } else if (qtype === 1) {
    for (const address of zone.a[name] ?? [])
      answers.push(resourceRecord(1, Buffer.from(address.split('.').map(Number))));
  }
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  const rcode = zone.servfail.has(name) ? 2 : known ? 0 : 3;
  header.writeUInt16BE(0x8180 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(rcode === 0 ? answers.length : 0, 6);
  return Buffer.concat([header, question, ...(rcode === 0 ? answers : [])]);
}

function resourceRecord(type: number, rdata: Buffer): Buffer {
  const fixed = Buffer.alloc(12);
  fixed.writeUInt16BE(0xc00c, 0);
  fixed.writeUInt16BE(type, 2);
  fixed.writeUInt16BE(1, 4);
  fixed.writeUInt32BE(60, 6);
  fixed.writeUInt16BE(rdata.length, 10);
  return Buffer.concat([fixed, rdata]);
}

describe('DnsMailDomainChecker against a real DNS server', () => {
  let socket: Socket;
  let resolver: InstanceType<typeof dns.Resolver>;
  const queries: string[] = [];
  const zone: Zone = {
    mx: {
      'acme.io': [{ priority: 10, exchange: 'mx1.acme.io' }],
      'nullmx.io': [{ priority: 0, exchange: '' }],
      'aonly.io': [],
    },
    a: { 'aonly.io': ['192.0.2.10'], 'nomail.io': [] },
    servfail: new Set(['flaky.io']),
  };

  beforeAll(async () => {
    socket = createSocket('udp4');
    socket.on('message', (message, remote) => {
      queries.push(message.toString('latin1'));
      socket.send(answerQuery(message, zone), remote.port, remote.address);
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
    resolver = new dns.Resolver({ timeout: 500, tries: 1 });
    resolver.setServers([`127.0.0.1:${(socket.address() as AddressInfo).port}`]);
  });
  afterAll(() => socket?.close());

  it('accepts a domain with MX records, or with only an address record (implicit MX)', async () => {
    const checker = new DnsMailDomainChecker(resolver);
    expect(await checker.acceptsMail('acme.io')).toBe(true);
    expect(await checker.acceptsMail('aonly.io')).toBe(true);
  });

  it('refuses a null MX, a name with neither MX nor address, and a name that does not exist', async () => {
    const checker = new DnsMailDomainChecker(resolver);
    expect(await checker.acceptsMail('nullmx.io')).toBe(false);
    expect(await checker.acceptsMail('nomail.io')).toBe(false);
    expect(await checker.acceptsMail('does-not-exist.io')).toBe(false);
  });

  it('accepts when the resolver fails (a DNS hiccup must not discard a contact)', async () => {
    const checker = new DnsMailDomainChecker(resolver);
    expect(await checker.acceptsMail('flaky.io')).toBe(true);
  });

  it('caches answers per domain', async () => {
    const checker = new DnsMailDomainChecker(resolver);
    await checker.acceptsMail('acme.io');
    const before = queries.length;
    expect(await checker.acceptsMail('ACME.io')).toBe(true);
    expect(queries.length).toBe(before);
  });

  it('drives the validator', async () => {
    const validator = new ContactValidator(new DnsMailDomainChecker(resolver));
    expect(await validator.validate('workEmails', 'jane@acme.io')).toBe('jane@acme.io');
    expect(await validator.validate('personalEmails', 'jane@does-not-exist.io')).toBeNull();
  });
});
