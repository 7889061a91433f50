import { COUNTRIES } from './countries.js';

/**
 * Legal-form suffixes of company names ("GmbH", "Inc.", "S.A.S."), so that "Brightpath Analytics
 * GmbH" and "Brightpath Analytics" are one name to the matcher. The forms each country uses are
 * listed with the country (countries.ts); these are the ones written everywhere, and the long forms.
 */
const WRITTEN_EVERYWHERE: readonly string[] = [
  'Inc',
  'Incorporated',
  'Corp',
  'Corporation',
  'Co',
  'Company',
  'LLC',
  'L.L.C.',
  'Ltd',
  'Limited',
  'PLC',
  'LLP',
  'LP',
  'GmbH & Co. KG',
  'AG & Co. KG',
  'S.A. de C.V.',
  'Pty Ltd',
  'Pvt Ltd',
  'Private Limited',
  'Sdn Bhd',
  'Holdings',
];

export const LEGAL_SUFFIXES: readonly string[] = [
  ...new Set([...WRITTEN_EVERYWHERE, ...COUNTRIES.flatMap((country) => country.legalSuffixes)]),
];
