import { describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../../../src/core/query-parser/parse-search-query.js';
import { readSearchQuery } from '../../../../src/core/query-parser/read-search-query.js';
import { labelled, score } from './labelled-set.js';

/**
 * The sentence parser on its labelled set (data/query-parser/labelled.jsonl): scored field by field
 * on the evaluation half, which the parser was never tuned on, with the floors of issue 34.
 */
describe('parseSearchQuery on the labelled set', () => {
  it('holds at least 200 sentences, split into a training and an evaluation half that share none', () => {
    expect(labelled.length).toBeGreaterThanOrEqual(200);
    const training = new Set(labelled.filter((r) => r.set === 'training').map((r) => r.text.toLowerCase()));
    const evaluation = labelled.filter((r) => r.set === 'evaluation');
    expect(training.size).toBeGreaterThanOrEqual(100);
    expect(evaluation.length).toBeGreaterThanOrEqual(100);
    expect(evaluation.filter((r) => training.has(r.text.toLowerCase()))).toEqual([]);
  });

  it('reads the evaluation half with field-level precision ≥ 95 % and recall ≥ 90 %', () => {
    const result = score('evaluation');
    expect(result.precision, JSON.stringify(result.misses.slice(0, 10))).toBeGreaterThanOrEqual(0.95);
    expect(result.recall, JSON.stringify(result.misses.slice(0, 10))).toBeGreaterThanOrEqual(0.9);
  });

  it('gives filters the searches accept as they are, for every labelled sentence', () => {
    for (const row of labelled) {
      const read = readSearchQuery(row.text);
      expect(
        read.unsupported.filter((u) => u.reason.startsWith('not a valid')),
        row.text,
      ).toEqual([]);
    }
  });
});

describe('parseSearchQuery', () => {
  it('reads the issue’s three examples', () => {
    expect(parseSearchQuery('Series B fintech companies in Germany with 50 to 200 employees')).toMatchObject({
      kind: 'companies',
      companySearchParams: {
        stage: ['SERIES_B'],
        industriesV2: ['financial-services'],
        headquartersCountryCode: ['DE'],
        employeeCountV2: { min: 50, max: 200 },
      },
      notUnderstood: [],
    });
    expect(parseSearchQuery('VPs of engineering at fintech startups in Germany')).toMatchObject({
      kind: 'companiesThenPeople',
      companySearchParams: { industriesV2: ['financial-services'] },
      prospectSearchParams: { jobTitleV2: { included: ['VP of Engineering'] }, country3LetterCode: ['DEU'] },
    });
    const recruiters = parseSearchQuery('recruiters in London who speak French');
    expect(recruiters).toMatchObject({
      kind: 'people',
      prospectSearchParams: { jobTitleV2: { included: ['Recruiter'] }, country3LetterCode: ['GBR'] },
      unsupported: [{ words: 'speak French', reason: 'people search has no language filter' }],
    });
    expect(recruiters.interpretations.find((i) => i.words === 'London')?.note).toMatch(/GBR/);
  });

  it('reports the words it did not understand, and the words each filter came from', () => {
    const parsed = parseSearchQuery('fintech companies in Germany that sell zorbulators');
    expect(parsed.notUnderstood).toEqual(['sell zorbulators']);
    expect(parsed.interpretations).toEqual([
      { words: 'fintech', field: 'companySearchParams.industriesV2', value: 'financial-services' },
      { words: 'Germany', field: 'companySearchParams.headquartersCountryCode', value: ['DE'] },
    ]);
  });

  it('puts a place on the companies when the sentence says they are headquartered there', () => {
    const parsed = parseSearchQuery('CTOs at companies headquartered in France');
    expect(parsed.kind).toBe('companiesThenPeople');
    expect(parsed.companySearchParams).toEqual({ headquartersCountryCode: ['FR'] });
    expect(parsed.prospectSearchParams).toEqual({ jobTitleV2: { included: ['CTO'], excluded: [] } });
  });

  it('is deterministic', () => {
    const text = 'senior data scientists with a PhD in the Nordics, not interns';
    expect(parseSearchQuery(text)).toEqual(parseSearchQuery(text));
  });
});
