import { describe, expect, it } from 'vitest';
import {
  enrichmentPrices,
  formatDuration,
  normalizeOptions,
  optionsKey,
  priceScope,
  type EnrichmentOptionsInput,
  type EnrichmentScope,
} from '../../../../src/core/audiences/pricing.js';
import type { AppError } from '../../../../src/errors.js';

const nothing: EnrichmentOptionsInput = {
  runCompanyLiveEnrichment: false,
  runProfileLiveEnrichment: false,
  runProfileSalesNav: false,
  runContactEnrichment: false,
};

const scope: EnrichmentScope = {
  prospects: 10,
  prospectCapId: 99,
  companies: 4,
  liveCompaniesCharged: 4,
  liveProspectsCharged: 10,
  contactsCharged: { workEmail: 10, personalEmail: 10, phone: 10 },
};

function refusal(input: EnrichmentOptionsInput): AppError {
  try {
    normalizeOptions(input);
  } catch (error) {
    return error as AppError;
  }
  throw new Error('accepted');
}

describe('enrichment options', () => {
  it('fill every default: no cap, no contact type', () => {
    expect(normalizeOptions(nothing)).toEqual({
      ...nothing,
      maxProspectsToEnrich: null,
      enrichmentType: { getWorkEmails: false, getPersonalEmails: false, getPhoneNumbers: false },
    });
  });

  it('keep a cap and the contact types asked for', () => {
    const options = normalizeOptions({
      ...nothing,
      maxProspectsToEnrich: 25,
      runContactEnrichment: true,
      enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: true },
    });
    expect(options.maxProspectsToEnrich).toBe(25);
    expect(options.enrichmentType).toEqual({ getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: true });
  });

  it('refuse contact enrichment without a contact type, naming enrichmentType', () => {
    const error = refusal({ ...nothing, runContactEnrichment: true });
    expect(error.code).toBe('invalid_request');
    expect(error.details).toEqual({ issues: [expect.objectContaining({ field: 'enrichmentType' })] });
  });

  it('refuse contact types without contact enrichment, naming runContactEnrichment', () => {
    const error = refusal({
      ...nothing,
      enrichmentType: { getWorkEmails: false, getPersonalEmails: true, getPhoneNumbers: false },
    });
    expect(error.code).toBe('invalid_request');
    expect(error.details).toEqual({ issues: [expect.objectContaining({ field: 'runContactEnrichment' })] });
  });

  it('have one key for equal options and another for any difference', () => {
    const base = normalizeOptions(nothing);
    expect(optionsKey(normalizeOptions({ ...nothing }))).toBe(optionsKey(base));
    expect(optionsKey(normalizeOptions({ ...nothing, maxProspectsToEnrich: 5 }))).not.toBe(optionsKey(base));
    expect(optionsKey(normalizeOptions({ ...nothing, runProfileSalesNav: true }))).not.toBe(optionsKey(base));
  });
});

describe('pricing an enrichment', () => {
  it('costs nothing when nothing chargeable is asked for', () => {
    const estimate = priceScope(normalizeOptions({ ...nothing, runProfileSalesNav: true }), scope);
    expect(estimate.totalCredits).toBe(0);
    expect(estimate.breakdown.salesNav).toEqual({ credits: 0, isFree: true });
    expect(estimate.prospectsToEnrich).toBe(10);
    expect(estimate.companiesToEnrich).toBe(4);
  });

  it.each<[string, Partial<EnrichmentOptionsInput>, number]>([
    ['live companies', { runCompanyLiveEnrichment: true }, 4 * enrichmentPrices.liveCompany],
    ['live prospects', { runProfileLiveEnrichment: true }, 10 * enrichmentPrices.liveProspect],
    [
      'work emails',
      {
        runContactEnrichment: true,
        enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: false },
      },
      10 * enrichmentPrices.workEmail,
    ],
    [
      'personal emails',
      {
        runContactEnrichment: true,
        enrichmentType: { getWorkEmails: false, getPersonalEmails: true, getPhoneNumbers: false },
      },
      10 * enrichmentPrices.personalEmail,
    ],
    [
      'phones',
      {
        runContactEnrichment: true,
        enrichmentType: { getWorkEmails: false, getPersonalEmails: false, getPhoneNumbers: true },
      },
      10 * enrichmentPrices.phone,
    ],
  ])('charges %s by the credit table', (_what, options, credits) => {
    expect(priceScope(normalizeOptions({ ...nothing, ...options }), scope).totalCredits).toBe(credits);
  });

  it('charges only what is not fresh, and says the price is discounted', () => {
    const estimate = priceScope(normalizeOptions({ ...nothing, runCompanyLiveEnrichment: true }), {
      ...scope,
      liveCompaniesCharged: 1,
    });
    expect(estimate.breakdown.liveCompany).toEqual({ credits: 2, discounted: true });
  });

  it('discounts contacts already revealed, against the price of all of them', () => {
    const estimate = priceScope(
      normalizeOptions({
        ...nothing,
        runContactEnrichment: true,
        enrichmentType: { getWorkEmails: true, getPersonalEmails: false, getPhoneNumbers: true },
      }),
      { ...scope, contactsCharged: { workEmail: 4, personalEmail: 10, phone: 10 } },
    );
    expect(estimate.breakdown.waterfall).toEqual({
      credits: 4 * 2 + 10 * 3,
      originalCredits: 10 * (2 + 3),
      discount: 6 * 2,
      operations: { workEmail: 8, personalEmail: 0, phone: 30 },
    });
  });

  it('costs nothing for an empty audience, and still estimates the fixed time', () => {
    const empty: EnrichmentScope = {
      prospects: 0,
      prospectCapId: null,
      companies: 0,
      liveCompaniesCharged: 0,
      liveProspectsCharged: 0,
      contactsCharged: { workEmail: 0, personalEmail: 0, phone: 0 },
    };
    const estimate = priceScope(normalizeOptions({ ...nothing, runCompanyLiveEnrichment: true }), empty);
    expect(estimate.totalCredits).toBe(0);
    expect(estimate.breakdown.liveCompany.discounted).toBe(false);
    expect(estimate.timeEstimate.totalSeconds).toBeGreaterThan(0);
  });

  it('takes longer the more it fetches live', () => {
    const quick = priceScope(normalizeOptions(nothing), scope).timeEstimate.totalSeconds;
    const live = priceScope(normalizeOptions({ ...nothing, runProfileLiveEnrichment: true }), scope).timeEstimate;
    expect(live.totalSeconds).toBeGreaterThan(quick);
    expect(live.formatted).toBe(formatDuration(live.totalSeconds));
  });
});

describe('formatDuration', () => {
  it.each([
    [0, 'about 0 seconds'],
    [1, 'about 1 second'],
    [59, 'about 59 seconds'],
    [60, 'about 1 minute'],
    [150, 'about 3 minutes'],
    [3599, 'about 1 hour'],
    [3600, 'about 1 hour'],
    [7260, 'about 2 hours 1 minute'],
    [7500, 'about 2 hours 5 minutes'],
  ])('says %i s as %j', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});
