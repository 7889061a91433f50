import { describe, expect, it } from 'vitest';
import {
  companyUrlOf,
  normaliseDomain,
  profileUrlOf,
  slugFromUrlOrSlug,
  tldOf,
  userIdFromUrn,
} from '../../../src/core/network-urls.js';

describe('network identifiers', () => {
  it.each<[string, 'company' | 'in', string | null]>([
    ['Acme-Robotics', 'company', 'acme-robotics'],
    ['https://network.example.com/company/Acme/', 'company', 'acme'],
    ['network.example.com/school/mit?x=1', 'company', 'mit'],
    ['https://network.example.com/showcase/acme-labs#top', 'company', 'acme-labs'],
    ['https://network.example.com/in/ada-lovelace', 'in', 'ada-lovelace'],
    ['https://network.example.com/pub/grace%20hopper', 'in', 'grace hopper'],
    ['https://network.example.com/in/ada', 'company', null],
    ['https://example.com/about', 'in', null],
    ['https://network.example.com/in/%E0%A4%A', 'in', null],
    ['   ', 'in', null],
  ])('read %j as a %s slug: %j', (value, kind, slug) => {
    expect(slugFromUrlOrSlug(value, kind)).toBe(slug);
  });

  it.each<[string, number | null]>([
    ['urn:li:fs_salesProfile:(12345,NAME_SEARCH,abc)', 12345],
    ['urn:li:member:678', 678],
    ['urn:li:member:abc', null],
    ['12345', null],
  ])('read the user id of %j: %j', (urn, id) => {
    expect(userIdFromUrn(urn)).toBe(id);
  });

  it.each([
    ['https://www.Acme.com/about?x', 'acme.com'],
    ['  ACME.io.  ', 'acme.io'],
    ['http://sub.acme.co.uk#x', 'sub.acme.co.uk'],
    ['acme.com', 'acme.com'],
  ])('normalise the domain %j to %j', (value, domain) => {
    expect(normaliseDomain(value)).toBe(domain);
  });

  it.each([
    ['acme.com', '.com'],
    ['shop.co.uk', '.co.uk'],
    ['ACME.IO', '.io'],
    ['co.uk', '.uk'],
  ])('give the TLD of %j as %j', (domain, tld) => {
    expect(tldOf(domain)).toBe(tld);
  });

  it('build profile and company URLs from a slug, and nothing from none', () => {
    expect(profileUrlOf('ada')).toBe('https://network.example.com/in/ada');
    expect(companyUrlOf('acme')).toBe('https://network.example.com/company/acme');
    expect(profileUrlOf(null)).toBeNull();
    expect(companyUrlOf('')).toBeNull();
  });
});
