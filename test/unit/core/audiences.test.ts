import { describe, expect, it } from 'vitest';
import { csvField, csvRecord } from '../../../src/core/audiences/csv.js';
import { LinkSigner } from '../../../src/core/audiences/links.js';
import { cleanName } from '../../../src/core/audiences/names.js';
import {
  formatDuration,
  normalizeOptions,
  priceScope,
  type EnrichmentScope,
} from '../../../src/core/audiences/pricing.js';
import { parseCsv } from '../../audiences/helpers.js';

describe('CSV writing (RFC 4180)', () => {
  it('quotes only what needs quoting and doubles quotes; records end with CRLF', () => {
    expect(csvRecord(['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\rhere', ''])).toBe(
      'plain,"a,b","say ""hi""","two\nlines","cr\rhere",\r\n',
    );
    const tricky = ['Zoë, Ltd.', 'quote " inside', 'multi\r\nline', 'ünïcödé 東京'];
    expect(parseCsv(csvRecord(tricky))).toEqual([tricky]);
  });

  it('defuses every cell a spreadsheet would evaluate, and leaves plain numbers (and phone numbers stored as +digits) alone', () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('+cmd|calc')).toBe("'+cmd|calc");
    expect(csvField('-1-1')).toBe("'-1-1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('+1 (415) 555-0100')).toBe("'+1 (415) 555-0100");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    expect(csvField('-42')).toBe('-42');
    expect(csvField('-3.5e2')).toBe('-3.5e2');
    expect(csvField('+14155550100')).toBe('+14155550100');
    expect(csvField('Acme - Robotics')).toBe('Acme - Robotics');
  });
});

describe('name cleaning', () => {
  it.each([
    ['ANA 🚀', 'Ana'],
    ['smith, MBA', 'Smith'],
    ['Dr. Jane', 'Jane'],
    ["o'neil", "O'Neil"],
    ['jean-luc', 'Jean-Luc'],
    ['Ana (she/her)', 'Ana'],
    ['Müller PhD', 'Müller'],
    ['McDonald', 'McDonald'],
    ['José', 'José'],
    ['🚀', '🚀'],
  ])('%s → %s', (raw, clean) => {
    expect(cleanName(raw)).toBe(clean);
  });
});

describe('download link signatures', () => {
  const signer = new LinkSigner(Buffer.alloc(32, 7));
  it('verifies its own links and detects any change, and expiry', () => {
    const now = Date.UTC(2026, 0, 1);
    const expires = now / 1000 + 60;
    const signature = signer.signature(3, 9, expires);
    expect(signer.verify(3, 9, expires, signature, now)).toBe('valid');
    expect(signer.verify(3, 10, expires, signature, now)).toBe('invalid');
    expect(signer.verify(4, 9, expires, signature, now)).toBe('invalid');
    expect(signer.verify(3, 9, expires + 1, signature, now)).toBe('invalid');
    expect(signer.verify(3, 9, expires, `${signature}x`, now)).toBe('invalid');
    expect(signer.verify(3, 9, expires, signature, now + 61_000)).toBe('expired');
    expect(new LinkSigner(Buffer.alloc(32, 8)).verify(3, 9, expires, signature, now)).toBe('invalid');
  });
  it('builds absolute links on the public URL', () => {
    const url = new URL(signer.downloadUrl('https://api.example.com', 3, 9, new Date(Date.UTC(2026, 0, 1))));
    expect(url.origin + url.pathname).toBe('https://api.example.com/downloads/exports/9');
    expect(url.searchParams.get('expires')).toBe(String(Date.UTC(2026, 0, 1) / 1000));
  });
});

describe('enrichment pricing', () => {
  const scope: EnrichmentScope = {
    prospects: 100,
    prospectCapId: 1,
    companies: 30,
    liveCompaniesCharged: 25,
    liveProspectsCharged: 100,
    contactsCharged: { workEmail: 90, personalEmail: 100, phone: 100 },
  };
  it('applies the credit table and the discounts', () => {
    const options = normalizeOptions({
      runCompanyLiveEnrichment: true,
      runProfileLiveEnrichment: true,
      runProfileSalesNav: true,
      runContactEnrichment: true,
      enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: true },
    });
    const estimate = priceScope(options, scope);
    expect(estimate.breakdown).toEqual({
      salesNav: { credits: 0, isFree: true },
      liveCompany: { credits: 50, discounted: true },
      liveProspect: { credits: 200, discounted: false },
      waterfall: {
        credits: 180 + 300,
        originalCredits: 200 + 300,
        discount: 20,
        operations: { workEmail: 180, personalEmail: 0, phone: 300 },
      },
      validation: { credits: 0, isFree: true },
    });
    expect(estimate.totalCredits).toBe(50 + 200 + 480);
  });
  it('formats durations for people', () => {
    expect(formatDuration(1)).toBe('about 1 second');
    expect(formatDuration(45)).toBe('about 45 seconds');
    expect(formatDuration(90)).toBe('about 2 minutes');
    expect(formatDuration(3 * 3600 + 60)).toBe('about 3 hours 1 minute');
  });
});
