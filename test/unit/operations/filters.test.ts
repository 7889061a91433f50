import { describe, expect, it } from 'vitest';
import { operations } from '../../../operations/index.js';
import { inputJsonSchema } from '../../../operations/json-schema.js';
import { companySearch } from '../../../operations/search/company-search/definition.js';
import { peopleSearch } from '../../../operations/search/people-search/definition.js';
import { describeIssues } from '../../../src/validation.js';

const emptyMessage = (item: string) =>
  `an empty list restricts to nothing; omit the field to search without it, or give at least one ${item}`;

const companyLists: Record<string, string> = {
  keywords: 'keyword',
  headquartersCountryCode: 'country code',
  headquartersStateName: 'state name',
  headquartersLocation: 'location',
  stage: 'stage',
  industriesV2: 'industry slug',
  domains: 'domain',
  networkSlugs: 'slug',
  tlds: 'top-level domain',
  specialFlags: 'flag',
};

const refusal = (schema: typeof companySearch.input | typeof peopleSearch.input, value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : describeIssues(parsed.error, schema);
};

describe('lists that restrict never widen', () => {
  it.each(Object.entries(companyLists))(
    'companySearch searchParams.%s: [] is refused, naming the field',
    (field, item) => {
      expect(refusal(companySearch.input, { searchParams: { [field]: [] } })).toEqual([
        { field: `searchParams.${field}`, message: emptyMessage(item) },
      ]);
    },
  );

  it.each([
    [{ searchParams: {}, currentCompanies: [] }, 'currentCompanies', 'company'],
    [{ searchParams: { country3LetterCode: [] } }, 'searchParams.country3LetterCode', 'country code'],
    [{ searchParams: { tags: { anyOf: [] } } }, 'searchParams.tags.anyOf', 'tag'],
    [{ searchParams: { tags: { allOf: [] } } }, 'searchParams.tags.allOf', 'tag'],
    [{ searchParams: { education: { schools: [] } } }, 'searchParams.education.schools', 'school'],
    [{ searchParams: { education: { degreeTypes: [] } } }, 'searchParams.education.degreeTypes', 'degree type'],
  ])('peopleSearch %j is refused', (value, field, item) => {
    expect(refusal(peopleSearch.input, value)).toEqual([{ field, message: emptyMessage(item) }]);
  });

  it('lists that remove things may be empty: they remove nothing', () => {
    expect(
      peopleSearch.input.safeParse({
        searchParams: { jobTitleV2: { included: ['CTO'], excluded: [] }, tags: { noneOf: [] } },
        prospectExclusionListIDs: [],
        companyExclusionListIDs: [],
      }).success,
    ).toBe(true);
    // jobTitleV2.included's own default is []: given, it means any title, as it always did.
    expect(
      peopleSearch.input.safeParse({
        searchParams: { jobTitleV2: { included: [], excluded: ['intern'] } },
        prospectExclusionListIDs: [],
        companyExclusionListIDs: [],
      }).success,
    ).toBe(true);
    expect(companySearch.input.safeParse({ searchParams: {}, companyExclusionListIDs: [] }).success).toBe(true);
  });

  it('every operation taking these filters refuses the empty list, and says minItems in its JSON Schema', () => {
    const takers = operations.filter((operation) => JSON.stringify(inputJsonSchema(operation)).includes('"domains"'));
    expect(takers.map((o) => o.operationId)).toEqual(
      expect.arrayContaining([
        'companySearch',
        'companyCount',
        'updateAudienceSearchParams',
        'createSavedSearch',
        'updateSavedSearch',
      ]),
    );
    for (const operation of [companySearch, peopleSearch]) {
      const schema = JSON.stringify(inputJsonSchema(operation));
      expect(schema).toMatch(/"minItems":1/);
    }
    const people = inputJsonSchema(peopleSearch) as { properties: { currentCompanies: { minItems?: number } } };
    expect(people.properties.currentCompanies.minItems).toBe(1);
  });
});

describe('a company record as companySearch returns it is a currentCompanies entry', () => {
  const record = {
    preferred_name: 'Acme',
    domains: ['acme.com', 'acme.io'],
    network_primary_slug: 'acme',
    network_org_id: null,
    standard_industries: ['software-development'],
    description: 'ignored',
  };

  it('is matched by its most precise key, its other fields ignored', () => {
    const parsed = peopleSearch.input.parse({
      searchParams: {},
      currentCompanies: [
        record,
        { ...record, network_org_id: '1234' },
        { ...record, network_primary_slug: null },
        { preferred_name: 'Beta', domains: [] },
        { domain: 'gamma.com' },
      ],
    });
    expect(parsed.currentCompanies).toEqual([
      { networkSlugOrURL: 'acme' },
      { networkOrgID: '1234' },
      { domain: 'acme.com' },
      { name: 'Beta' },
      { domain: 'gamma.com' },
    ]);
  });

  it('an object with neither reference keys nor a record key is refused', () => {
    expect(refusal(peopleSearch.input, { searchParams: {}, currentCompanies: [{}] })).toEqual([
      { field: 'currentCompanies.0', message: 'give at least one of domain, networkSlugOrURL, name, networkOrgID' },
    ]);
  });
});
