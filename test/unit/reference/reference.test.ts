import { describe, expect, it } from 'vitest';
import { slugify } from '../../../src/seed/generate/text.js';
import {
  COUNTRIES,
  DOMAIN_FORMS,
  INDUSTRIES,
  INDUSTRY_GROUPS,
  NAME_PREFIXES,
  NAME_SUFFIXES,
  alpha3FromAlpha2,
  listIndustries,
  listRegions,
} from '../../../reference/index.js';

const industrySlugs = new Set(INDUSTRIES.map((i) => i.slug));

describe('reference data', () => {
  it('lists real countries with matching ISO codes and real subdivisions', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(60);
    expect(new Set(COUNTRIES.map((c) => c.code2)).size).toBe(COUNTRIES.length);
    for (const country of COUNTRIES) {
      expect(country.code2).toMatch(/^[A-Z]{2}$/);
      expect(alpha3FromAlpha2(country.code2)).toBe(country.code3);
      expect(country.states.length + country.cities.length).toBeGreaterThan(0);
      expect(country.tld).toMatch(/^\.[a-z]+(\.[a-z]+)?$/);
    }
    for (const code of ['US', 'CA', 'GB', 'DE', 'FR', 'IN', 'AU', 'BR']) {
      const country = COUNTRIES.find((c) => c.code2 === code);
      expect(country?.states.length, code).toBeGreaterThanOrEqual(4);
    }
    expect(COUNTRIES.find((c) => c.code2 === 'US')?.states.map((s) => s.name)).toContain('Texas');
  });

  it('has an industry taxonomy of kebab-case slugs under the V2 groups', () => {
    expect(INDUSTRIES.length).toBeGreaterThanOrEqual(100);
    expect(INDUSTRIES.length).toBeLessThanOrEqual(150);
    expect(new Set(INDUSTRIES.map((i) => i.slug)).size).toBe(INDUSTRIES.length);
    for (const industry of INDUSTRIES) {
      expect(industry.slug).toBe(slugify(industry.name));
      expect(INDUSTRY_GROUPS).toContain(industry.group);
      expect(industry.keywords.length).toBeGreaterThanOrEqual(4);
    }
    expect(industrySlugs).toContain('software-development');
    expect(industrySlugs).toContain('financial-services');
    expect(industrySlugs).toContain('hospitals-and-health-care');
  });

  it('serves the regions and industries enums in their API shapes', () => {
    const regions = listRegions();
    expect(regions.regions).toContain('North America');
    const us = regions.countries.find((c) => c.code2 === 'US');
    expect(us).toMatchObject({ name: 'United States', code3: 'USA', region: 'North America' });
    expect(us?.states).toContain('California');
    const industries = listIndustries();
    expect(industries).toContainEqual({
      slug: 'software-development',
      name: 'Software Development',
      group: 'Technology, Information and Media',
    });
    expect(Object.keys(industries[0] ?? {}).sort()).toEqual(['group', 'name', 'slug']);
  });

  it('spells a distinct domain label for every stem and form', () => {
    const labels = new Set<string>();
    for (const prefix of NAME_PREFIXES) {
      for (const suffix of NAME_SUFFIXES) {
        const stem = (prefix + suffix).toLowerCase();
        for (const form of DOMAIN_FORMS) labels.add(form.prefix + stem + form.suffix);
      }
    }
    expect(labels.size).toBe(NAME_PREFIXES.length * NAME_SUFFIXES.length * DOMAIN_FORMS.length);
  });
});
