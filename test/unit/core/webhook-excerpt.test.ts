import { describe, expect, it } from 'vitest';
import { redactedExcerpt } from '../../../src/core/webhooks/excerpt.js';
import { scrubText } from '../../../src/log.js';

/**
 * What the delivery log keeps of an endpoint's answer, and what the logs keep of free text: phone
 * numbers in the forms people write them are replaced (one test each), and numbers that are no
 * phone (ids, amounts, dates, addresses, versions) are kept as they are.
 */
describe('phone numbers in the delivery log excerpt and in logged text', () => {
  const phones: Array<[string, string]> = [
    ['international with spaces', 'call +1 415 555 0100'],
    ['North American with a bracketed area code', '(415) 555-0100'],
    ['British with spaces', '+44 20 7946 0958'],
    ['E.164 without separators', '+14155550100'],
    ['international with hyphens', '+1-415-555-0100'],
    ['international with dots', '+1.415.555.0100'],
    ['international with a bracketed area code', '+1 (415) 555-0100'],
    ['international with a bracketed trunk 0', '+44 (0)20 7946 0958'],
    ['French in pairs', '+33 1 23 45 67 89'],
    ['German with a long subscriber number', '+49 30 1234567'],
    ['North American with hyphens', '415-555-0100'],
    ['North American with dots', '415.555.0100'],
    ['North American with spaces', '415 555 0100'],
    ['national with a trunk 0 (British)', '020 7946 0958'],
    ['national with a trunk 0 (French)', '01 23 45 67 89'],
    ['after tel:', 'tel:+1-415-555-0100'],
  ];
  it.each(phones)('redacts a phone number written %s', (_form, phone) => {
    const answer = `{"error":"user not found","contact":"${phone}","hint":"retry"}`;
    const excerpt = redactedExcerpt(answer) as string;
    expect(excerpt).toContain('[phone]');
    expect(excerpt.replace(/\D/g, '')).not.toMatch(/\d{4}/);
    expect(excerpt).toContain('user not found');
    const logged = scrubText(`the receiver said: ${phone}.`);
    expect(logged).toMatch(/^the receiver said: .*\[phone\]\.$/);
    expect(logged).not.toMatch(/\d{3}/);
  });

  const notPhones: Array<[string, string]> = [
    ['an id', 'order 12345678 failed'],
    ['a ten-digit id', 'id 4155550100 unknown'],
    ['an id with a leading 0', 'account 0123456789'],
    ['an amount with thousands separators', 'total 1,234,567.89 USD'],
    ['an amount with spaces', 'total 1 234 567 EUR'],
    ['an amount with a sign', '+100 credits'],
    ['a decimal', 'price 0.99'],
    ['a timestamp', 'at 2026-12-01T22:33:00.000+01:00'],
    ['an IP address', 'from 203.0.113.10'],
    ['a version', 'version 10.2.3'],
    ['a UUID', 'request 123e4567-e89b-12d3-a456-426614174000'],
    ['an ISBN', 'ISBN 978-3-16-148410-0'],
  ];
  it.each(notPhones)('keeps %s', (_what, text) => {
    expect(scrubText(text)).toBe(text);
    expect(redactedExcerpt(text)).not.toContain('[phone]');
  });
});
