import { describe, expect, it } from 'vitest';
import { companySearch } from '../../operations/search/company-search/definition.js';
import { peopleSearch } from '../../operations/search/people-search/definition.js';
import { updateAudienceSearchParams } from '../../operations/audiences/update-audience-search-params/definition.js';
import { describeIssues, keysAt, nearestKey, parseWith } from '../../src/validation.js';
import { AppError } from '../../src/errors.js';
import type { z } from 'zod';

const issuesOf = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected the value to be refused');
  return describeIssues(parsed.error, schema);
};

describe('unknown fields name the nearest known one', () => {
  it('by prefix, case and edit distance, at the path of the unknown field', () => {
    expect(issuesOf(peopleSearch.input, { searchParams: { jobTitle: { included: ['CTO'] } } })).toEqual([
      { field: 'searchParams.jobTitle', message: 'unknown field; did you mean jobTitleV2?' },
    ]);
    expect(issuesOf(peopleSearch.input, { searchParams: {}, pagesize: 10 })).toEqual([
      { field: 'pagesize', message: 'unknown field; did you mean pageSize?' },
    ]);
    expect(issuesOf(companySearch.input, { searchParams: { industires: ['software-development'] } })).toEqual([
      { field: 'searchParams.industires', message: 'unknown field; did you mean industriesV2?' },
    ]);
  });

  it('inside arrays and unions (a currentCompanies entry)', () => {
    const issues = issuesOf(peopleSearch.input, { searchParams: {}, currentCompanies: [{ domian: 'acme.com' }] });
    expect(issues).toContainEqual({
      field: 'currentCompanies.0.domian',
      message: 'unknown field; did you mean domain?',
    });
  });

  it('inside nested params of another operation', () => {
    const issues = issuesOf(updateAudienceSearchParams.input, {
      audienceId: '1',
      prospectSearchParams: { tag: { anyOf: ['x'] } },
    });
    expect(issues).toContainEqual({ field: 'prospectSearchParams.tag', message: 'unknown field; did you mean tags?' });
  });

  it('says only "unknown field" when nothing is near, and without the schema', () => {
    expect(issuesOf(companySearch.input, { searchParams: { zzzzzz: 1 } })).toEqual([
      { field: 'searchParams.zzzzzz', message: 'unknown field' },
    ]);
    const parsed = companySearch.input.safeParse({ searchParams: { industires: [] } });
    expect(parsed.success ? [] : describeIssues(parsed.error)).toEqual([
      { field: 'searchParams.industires', message: 'unknown field' },
    ]);
  });

  it('keysAt and nearestKey', () => {
    expect(keysAt(peopleSearch.input, ['searchParams', 'tags'])).toEqual(['anyOf', 'allOf', 'noneOf']);
    expect(keysAt(peopleSearch.input, ['currentCompanies', 0])).toEqual(
      expect.arrayContaining(['domain', 'networkSlugOrURL', 'preferred_name', 'network_primary_slug']),
    );
    expect(nearestKey('PAGESIZE', ['pageSize', 'cursor'])).toBe('pageSize');
    expect(nearestKey('curser', ['pageSize', 'cursor'])).toBe('cursor');
    expect(nearestKey('x', ['pageSize', 'cursor'])).toBeNull();
  });
});

describe('country codes of the wrong length name the right one', () => {
  it('a two-letter code where three are needed', () => {
    expect(issuesOf(peopleSearch.input, { searchParams: { country3LetterCode: ['DE'] } })).toEqual([
      { field: 'searchParams.country3LetterCode.0', message: 'DE: expected a three-letter code such as DEU' },
    ]);
  });

  it('a three-letter code where two are needed', () => {
    expect(issuesOf(companySearch.input, { searchParams: { headquartersCountryCode: ['deu'] } })).toEqual([
      { field: 'searchParams.headquartersCountryCode.0', message: 'deu: expected a two-letter code such as DE' },
    ]);
  });

  it('a code that is no country says what is expected', () => {
    const [issue] = issuesOf(peopleSearch.input, { searchParams: { country3LetterCode: ['XQ'] } });
    expect(issue?.message).toBe('expected an ISO 3166 three-letter country code, such as DEU');
  });

  it('parseWith puts the hints in the 400 message', () => {
    let error: unknown;
    try {
      parseWith(peopleSearch.input, { searchParams: { jobTitle: 'CTO', country3LetterCode: ['US'] } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toContain('searchParams.jobTitle: unknown field; did you mean jobTitleV2?');
    expect((error as AppError).message).toContain('US: expected a three-letter code such as USA');
  });
});
