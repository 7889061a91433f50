import { describe, expect, it } from 'vitest';
import { operations } from '../../../operations/index.js';
import { catalog } from '../../../src/mcp/catalog.js';
import { conceptsOfRequest, corrected, spellingOf } from '../../../src/mcp/ranker/concepts.js';
import { searchEndpoints } from '../../../src/mcp/search.js';

/**
 * search_endpoints without the server: what it returns for a ranking, its filters, and how a request is read for its
 * concepts. How well it ranks is the eval tier's (test/eval/ranker.test.ts).
 */

describe('searchEndpoints', () => {
  it('says what an agent needs to call each operation, best first, with scores that never rise down the list', () => {
    const results = searchEndpoints('start enrichment of the audience', { limit: 4 });
    expect(results).toHaveLength(4);
    expect(results[0]).toMatchObject({
      operationId: 'triggerEnrichment',
      method: 'POST',
      path: '/v1/audiences/{audienceId}/enrich',
      charged: 'upfront',
      requiredFields: ['audienceId'],
      category: 'enrichment',
      readOnly: false,
      workflow: { audienceWorkflowStep: 6, before: ['estimateEnrichmentCost'], after: ['getEnrichmentStatus'] },
    });
    expect(results[0]?.score).toBeGreaterThan(0);
    for (let at = 1; at < results.length; at += 1)
      expect(results[at]?.score).toBeLessThanOrEqual(results[at - 1]?.score ?? 1);
    expect(searchEndpoints('start enrichment of the audience')).toHaveLength(5);
    expect(searchEndpoints('zzzz qqqq')).toEqual([]);
  });

  it('keeps only the operations that pass every filter, ranked among themselves', () => {
    const all = searchEndpoints('enrich emails phones audience', { limit: operations.length });
    expect(all).toHaveLength(operations.length);
    const free = searchEndpoints('enrich emails phones audience', { freeOnly: true, limit: 25 });
    expect(free.length).toBeGreaterThan(0);
    expect(free.every((r) => r.charged === 'free')).toBe(true);
    // The same relative order as without the filter.
    const order = all.map((r) => r.operationId).filter((id) => free.some((r) => r.operationId === id));
    expect(free.map((r) => r.operationId)).toEqual(order.slice(0, free.length));
    expect(searchEndpoints('audience', { readOnlyOnly: true, limit: 25 }).every((r) => r.readOnly)).toBe(true);
    expect(searchEndpoints('email', { category: 'contact', limit: 25 }).every((r) => r.category === 'contact')).toBe(
      true,
    );
    const cheap = searchEndpoints('search companies people', { maxCreditsPerCall: 5, limit: 25 });
    expect(cheap.length).toBeGreaterThan(0);
    for (const result of cheap) {
      expect(result.typicalCreditsPerCall).not.toBeNull();
      expect(result.typicalCreditsPerCall).toBeLessThanOrEqual(5);
      expect(catalog.get(result.operationId)?.typicalWorstCase).toBe(result.typicalCreditsPerCall);
    }
    expect(searchEndpoints('credits', { limit: 25 }).length).toBe(Math.min(25, operations.length));
  });
});

describe('reading a request for its concepts', () => {
  it('reads the words people use for an audience as the audience, and an exclusion list as none', () => {
    for (const name of ['segment', 'my list', 'saved list', 'lead list', 'target list', 'prospect list'])
      expect(conceptsOfRequest(`build the ${name}`), name).toContain('o_audience');
    expect(conceptsOfRequest('add acme.com to the exclusion list')).not.toContain('o_audience');
    // "a list of" is no act of listing; a question about what or who is in a thing asks for its contents.
    expect(conceptsOfRequest('give me a list of fintech companies')).not.toContain('a_list');
    for (const question of ["what's on the do-not-contact list", 'who lives in segment 12', 'who are in audience 7'])
      expect(conceptsOfRequest(question), question).toContain('a_list');
    expect(conceptsOfRequest('who works in sales at stripe.com')).not.toContain('a_list');
  });

  it('says quoted literals in words: an email address, a profile URL, a headcount', () => {
    expect(conceptsOfRequest('is jane@acme.com real')).toContain('o_emailAddress');
    expect(conceptsOfRequest('phone of linkedin.com/in/jdoe')).toContain('o_person');
    const headcount = conceptsOfRequest('saas firms with 50-200 employees in Spain');
    expect(headcount).not.toContain('o_person');
    expect(headcount).not.toContain('a_batch');
  });

  it('corrects slips to the words it knows, and leaves real words it does not know alone', () => {
    expect(corrected('compnay serach')).toBe('company search');
    expect(spellingOf('audiance')).toBe('audience');
    expect(spellingOf('adress')).toBe('address');
    // One letter away from a known word, yet a word of its own.
    expect(spellingOf('selling')).toBe('selling');
    expect(spellingOf('kubernetes')).toBe('kubernetes');
  });

  it('reads a request without what it refuses, unless keeping someone out is the request', () => {
    expect(corrected("I don't need the export link, is the build of audience 9 finished?")).not.toMatch(/export/);
    expect(corrected("not the run's status: the records run 71 found")).not.toMatch(/status/);
    expect(corrected('do not contact list of people')).toMatch(/contact/);
    expect(corrected('never show me anyone from audience 3 again')).toMatch(/show me anyone/);
    // A refusal ends at a dash; a request that is all refusal is read as typed.
    const request = "not asking if it's done - I want you to START the build of audience 305";
    expect(corrected(request)).toMatch(/START the build/);
    expect(corrected(request)).not.toMatch(/done/);
    expect(corrected('not the saved search')).toBe('not the saved search');
  });
});
