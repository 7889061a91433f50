import { COUNTRIES, REGIONS } from './countries.js';
import { INDUSTRIES } from './industries.js';

export * from './countries.js';
export * from './iso-countries.js';
export * from './industries.js';
export * from './names.js';
export * from './titles.js';
export * from './job-titles.js';
export * from './education.js';
export * from './languages.js';
export * from './tags.js';
export * from './company-names.js';
export * from './company-sizes.js';

export interface RegionsEnum {
  countries: Array<{ name: string; code2: string; code3: string; region: string; states: string[] }>;
  regions: string[];
}

/** The countries (with their states or provinces) and regions the API lists as filterable. */
export function listRegions(): RegionsEnum {
  return {
    countries: COUNTRIES.map((c) => ({
      name: c.name,
      code2: c.code2,
      code3: c.code3,
      region: c.region,
      states: c.states.map((s) => s.name),
    })),
    regions: [...REGIONS],
  };
}

/** The industry taxonomy the API lists for `industriesV2`. */
export function listIndustries(): Array<{ slug: string; name: string; group: string }> {
  return INDUSTRIES.map((i) => ({ slug: i.slug, name: i.name, group: i.group }));
}

export * from './email.js';
