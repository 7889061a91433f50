import { describe, expect, it } from 'vitest';
import { TITLES } from '../../../../reference/titles.js';
import { singular, titlePhrases, titleTerms, titleVariants, wordMask } from '../../../../src/core/titles/normalise.js';

const words = (title: string) => titleTerms(title).words;
/** Does a filter match a stored title, as the SQL does (a phrase between spaces)? */
const matches = (filter: string, title: string) =>
  titlePhrases(filter).some((phrase) => words(title).includes(` ${phrase.join(' ')} `));

describe('title normaliser', () => {
  it.each([
    ['VP, Sales'],
    ['VP of Sales'],
    ['VP Sales'],
    ['Vice President - Sales'],
    ['vice president of sales'],
    ['V.P. Sales'],
    ['Vice-President, Sales'],
  ])('reads %s as "vice president sales"', (title) => {
    expect(words(title)).toBe(' vice president sales ');
  });

  it.each([
    ['CTO', ' chief technology officer '],
    ['Chief Technology Officer (CTO)', ' chief technology officer '],
    ['CTO @ Acme Robotics', ' chief technology officer '],
    ['Head of IT | Fintech', ' head information technology '],
    ['Engineer at Google', ' engineer '],
    ['Sr. Software Engineer', ' senior software engineer '],
    ['Snr Software Engineer', ' senior software engineer '],
    ['Software Engineers', ' software engineer '],
    ['Software Engineer II', ' software engineer ii '],
    ['Co-Founder & CEO', ' co founder chief executive officer '],
    ['Cofounder and CEO', ' co founder chief executive officer '],
    ['HR Manager', ' human resource manager '],
    ['Human Resources Manager', ' human resource manager '],
    ['Head of R&D', ' head research development '],
    ['Director of Sales', ' director sales '],
    ['Sales Director', ' sales director '],
    ['Directora de Ventas', ' directora de venta '],
    ['Sales Mgr', ' sales manager '],
    ['  Marketing   Manager  ', ' marketing manager '],
  ])('reads %s as %s', (title, expected) => {
    expect(words(title)).toBe(expected);
  });

  it('keeps an ambiguous abbreviation as every meaning', () => {
    expect(titleVariants('PM')).toEqual([
      ['product', 'manager'],
      ['project', 'manager'],
    ]);
    expect(words('Senior PM')).toBe(' senior product manager | senior project manager ');
    expect(matches('Product Manager', 'PM')).toBe(true);
    expect(matches('Project Manager', 'PM')).toBe(true);
    expect(matches('PM', 'Project Manager')).toBe(true);
  });

  it('singularises plurals but leaves words that only end in s', () => {
    expect(singular('engineers')).toBe('engineer');
    expect(singular('technologies')).toBe('technology');
    expect(singular('sales')).toBe('sales');
    expect(singular('analytics')).toBe('analytics');
    expect(singular('business')).toBe('business');
    expect(singular('boxes')).toBe('box');
    expect(singular('it')).toBe('it');
  });

  it('keeps "engineer" and "engineering" apart', () => {
    expect(matches('Engineer', 'Engineering Manager')).toBe(false);
    expect(matches('Engineers', 'Software Engineer')).toBe(true);
    expect(matches('Engineering', 'Director of Engineering')).toBe(true);
  });

  it('matches whole words, never letters inside a word', () => {
    expect(matches('CTO', 'Managing Director')).toBe(false);
    expect(matches('CTO', 'Director of Marketing')).toBe(false);
    expect(matches('CTO', 'Plant Director')).toBe(false);
    expect(matches('CTO', 'Chief Technology Officer')).toBe(true);
    expect(matches('Chief Technology Officer', 'Co-Founder & CTO')).toBe(true);
    expect(matches('IT', 'Security Analyst')).toBe(false);
    expect(matches('Sales', 'Salesforce Administrator')).toBe(false);
  });

  it('matches function and level in either order', () => {
    for (const filter of ['Sales Director', 'Director of Sales', 'Director, Sales']) {
      for (const title of ['Sales Director', 'Director of Sales', 'Director, Sales', 'Regional Sales Director']) {
        expect(matches(filter, title), `${filter} / ${title}`).toBe(true);
      }
    }
    expect(matches('VP Sales', 'Sales VP')).toBe(true);
    expect(matches('Marketing Director', 'Director of Sales')).toBe(false);
  });

  it('matches abbreviations and their words both ways', () => {
    const pairs = [
      ['VP Sales', 'Vice President of Sales'],
      ['Sr. Software Engineer', 'Senior Software Engineer'],
      ['HR Manager', 'Human Resources Manager'],
      ['CEO', 'Chief Executive Officer'],
      ['SDR', 'Sales Development Representative'],
      ['QA Engineer', 'Quality Assurance Engineer'],
      ['Ops Manager', 'Operations Manager'],
      ['Mktg Director', 'Director of Marketing'],
      ['SVP Sales', 'Senior Vice President of Sales'],
      ['CISO', 'Chief Information Security Officer'],
    ];
    for (const [a, b] of pairs) {
      expect(matches(a as string, b as string), `${a} finds ${b}`).toBe(true);
      expect(matches(b as string, a as string), `${b} finds ${a}`).toBe(true);
    }
  });

  it('reads a filter of stop words and punctuation as nothing', () => {
    for (const filter of ['&', 'of', 'and the', ' - ', '|', '()']) expect(titlePhrases(filter)).toEqual([]);
    expect(titleTerms('')).toEqual({ words: '', mask: 0, seniority: null, jobFunction: null });
  });

  it("gives a title's mask every bit of each phrase it holds", () => {
    const titles = Object.values(TITLES).flatMap((bySeniority) => Object.values(bySeniority).flat());
    for (const title of titles) {
      const { mask } = titleTerms(title);
      expect(Number.isSafeInteger(mask)).toBe(true);
      for (const phrase of titlePhrases(title)) {
        const bits = wordMask(phrase);
        // As the SQL tests it: no bit of the phrase missing from the title's mask.
        expect(BigInt(bits) & ~BigInt(mask)).toBe(0n);
      }
    }
  });

  it.each([
    ['Co-Founder & CEO', 'owner', 'general_management'],
    ['CTO', 'c_suite', 'engineering'],
    ['VP Sales', 'vp', 'sales'],
    ['SVP of Engineering', 'vp', 'engineering'],
    ['Director of Marketing', 'director', 'marketing'],
    ['Head of IT | Fintech', 'director', 'information_technology'],
    ['HR Manager', 'manager', 'human_resources'],
    ['Sr. Software Engineer', 'senior', 'engineering'],
    ['Software Engineer II', 'entry', 'engineering'],
    ['Sales Development Representative', 'entry', 'sales'],
    ['Marketing Intern', 'training', 'marketing'],
    ['Managing Partner', 'partner', 'general_management'],
    ['HR Business Partner', 'senior', 'human_resources'],
    ['Chief of Staff', 'senior', 'general_management'],
    ['Technical Account Manager', 'manager', 'customer_success'],
    ['Product Marketing Manager', 'manager', 'marketing'],
    ['Registered Nurse', 'entry', 'healthcare'],
    ['Wizard', 'entry', 'other'],
  ])('reads %s as seniority %s, function %s', (title, seniority, jobFunction) => {
    expect(titleTerms(title)).toMatchObject({ seniority, jobFunction });
  });

  it('gives every title of the demo vocabulary a seniority and a known function', () => {
    const titles = Object.values(TITLES).flatMap((bySeniority) => Object.values(bySeniority).flat());
    const others = titles.filter((title) => titleTerms(title).jobFunction === 'other');
    expect(others).toEqual([]);
  });
});
