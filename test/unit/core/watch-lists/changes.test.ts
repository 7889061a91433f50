import { describe, expect, it } from 'vitest';
import {
  companyChanges,
  personChanges,
  type CompanySnapshot,
  type PersonSnapshot,
} from '../../../../src/core/watch-lists/changes.js';

const person: PersonSnapshot = {
  company: { name: 'Acme', slug: 'acme', domain: 'acme.com' },
  title: 'Engineer',
  location: { city: 'Berlin', countryCode: 'DE' },
};
const company: CompanySnapshot = {
  name: 'Acme',
  domain: 'acme.com',
  headcount: { min: 51, max: 200 },
  headquarters: { city: 'Berlin', stateName: null, countryCode: 'DE' },
  latestFunding: { stage: 'SEED', amountUsd: 2_000_000, announcedOn: '2025-01-01' },
};

describe('changes between two snapshots', () => {
  it('finds nothing when nothing changed', () => {
    expect(personChanges(person, structuredClone(person))).toEqual([]);
    expect(companyChanges(company, structuredClone(company), null)).toEqual([]);
  });

  it('names a new employer job_changed (a title change with it is part of it), else a new title title_changed', () => {
    const moved = { ...person, company: { name: 'Globex', slug: 'globex', domain: 'globex.com' }, title: 'Lead' };
    expect(personChanges(person, moved)).toEqual([
      {
        kind: 'job_changed',
        before: { company: person.company, title: 'Engineer' },
        after: { company: moved.company, title: 'Lead' },
      },
    ]);
    expect(personChanges(person, { ...person, title: 'Senior Engineer' })).toEqual([
      { kind: 'title_changed', before: 'Engineer', after: 'Senior Engineer' },
    ]);
    expect(personChanges(person, { ...person, location: { city: 'Paris', countryCode: 'FR' } })).toEqual([
      { kind: 'location_changed', before: person.location, after: { city: 'Paris', countryCode: 'FR' } },
    ]);
  });

  it('records headcount only beyond the threshold, a new round, a move and a rename', () => {
    const grown = { ...company, headcount: { min: 201, max: 500 } };
    expect(companyChanges(company, grown, null).map((c) => c.kind)).toEqual(['headcount_changed']);
    // 125.5 to 350.5 is +179 %: not beyond a threshold of 200 %.
    expect(companyChanges(company, grown, 200)).toEqual([]);
    const raised = {
      ...company,
      latestFunding: { stage: 'SERIES_A', amountUsd: 9_000_000, announcedOn: '2026-02-01' },
    };
    expect(companyChanges(company, raised, null)).toEqual([
      { kind: 'funding_raised', before: company.latestFunding, after: raised.latestFunding },
    ]);
    const moved = { ...company, headquarters: { city: 'Munich', stateName: 'Bavaria', countryCode: 'DE' } };
    expect(companyChanges(company, moved, null).map((c) => c.kind)).toEqual(['moved']);
    expect(companyChanges(company, { ...company, name: 'Acme Labs' }, null).map((c) => c.kind)).toEqual(['renamed']);
  });

  it('judges no funding change when the source says nothing of funding', () => {
    const { latestFunding: _unknown, ...silent } = company;
    expect(companyChanges(company, silent, null)).toEqual([]);
    expect(companyChanges(silent, company, null)).toEqual([]);
  });
});
