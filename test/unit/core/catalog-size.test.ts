import { describe, expect, it } from 'vitest';
import { catalogSentence, formatCount } from '../../../src/core/catalog-size.js';
import { withCatalogLine } from '../../../src/http/llms-txt.js';
import { withCatalogSize } from '../../../src/api/openapi.js';

describe('the catalog size as the surfaces state it', () => {
  it('counts as people read them', () => {
    expect(formatCount(1_000)).toBe('1,000');
    expect(formatCount(999_999)).toBe('999,999');
    expect(formatCount(10_000_000)).toBe('10 million');
    expect(formatCount(1_234_567)).toBe('1.23 million');
    expect(formatCount(847_000_000)).toBe('847 million');
  });

  it('one sentence: counted, estimated, or not known', () => {
    expect(catalogSentence({ companies: 1_000, people: 10_000, counted: true })).toBe(
      "This instance's catalog holds 1,000 companies and 10,000 people profiles.",
    );
    expect(catalogSentence({ companies: 1_000, people: 10_000, counted: false })).toContain('about 1,000 companies');
    expect(catalogSentence(null)).toContain('not known yet');
  });

  it("replaces llms.txt's neutral line, and appends to openapi.json's descriptions", () => {
    const served = withCatalogLine('# T\n- <!-- catalog-size --> neutral text\nrest', 'The catalog holds 3 companies.');
    expect(served).toBe('# T\n- The catalog holds 3 companies.\nrest');
    const document = {
      info: { description: 'API.' },
      paths: {
        '/v1/company-search': { post: { operationId: 'companySearch', description: 'Search.' } },
        '/v1/credits': { get: { operationId: 'getCreditBalance', description: 'Balance.' } },
      },
    };
    const stated = withCatalogSize(document, 'N companies.') as typeof document;
    expect(stated.info.description).toBe('API. N companies.');
    expect(stated.paths['/v1/company-search'].post.description).toBe('Search. N companies.');
    expect(stated.paths['/v1/credits'].get.description).toBe('Balance.');
    expect(document.info.description).toBe('API.');
  });
});
