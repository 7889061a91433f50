/**
 * Prospect tags, company special flags and funding stages: the closed vocabularies of the
 * `tags`, `special_flags` and `stage` columns.
 */

export interface Labelled {
  slug: string;
  description: string;
}

export const PROSPECT_TAGS: readonly Labelled[] = [
  { slug: 'decision-maker', description: 'Director level or above, or an owner: signs off purchases.' },
  { slug: 'budget-holder', description: 'Controls a budget (VP, C-level, owner).' },
  { slug: 'hiring-manager', description: 'Manages a team and is hiring for it.' },
  { slug: 'recently-promoted', description: 'Moved into a more senior role at the same company in the last year.' },
  { slug: 'new-in-role', description: 'Started the current role less than a year ago.' },
  { slug: 'open-to-work', description: 'Signals openness to new job opportunities.' },
  { slug: 'technical', description: 'Works in an engineering, data, IT or research function.' },
  { slug: 'founder', description: 'Founded or co-founded the current company.' },
  { slug: 'influencer', description: 'Posts often and has a large following.' },
  { slug: 'job-changer', description: 'Changed companies in the last 90 days.' },
  { slug: 'remote', description: 'Works remotely.' },
  { slug: 'speaker', description: 'Speaks at industry events.' },
];

export const PROSPECT_TAG_SLUGS: readonly string[] = PROSPECT_TAGS.map((t) => t.slug);

export const COMPANY_FLAGS: readonly Labelled[] = [
  { slug: 'HIGH_GROWTH', description: 'Headcount grew more than 20% in the last year.' },
  { slug: 'HIRING', description: 'Has open job postings.' },
  { slug: 'BOOTSTRAPPED', description: 'Self-funded: no outside venture funding.' },
  { slug: 'VC_BACKED', description: 'Raised venture capital.' },
  { slug: 'PUBLIC', description: 'Publicly traded.' },
  { slug: 'REMOTE_FIRST', description: 'Most employees work remotely.' },
  { slug: 'B2B', description: 'Sells mainly to businesses.' },
  { slug: 'B2C', description: 'Sells mainly to consumers.' },
  { slug: 'NON_PROFIT', description: 'A non-profit or public-sector organisation.' },
  { slug: 'FORTUNE_500', description: 'On the Fortune 500 list.' },
  { slug: 'RECENTLY_FUNDED', description: 'Raised a round in the last 12 months.' },
  { slug: 'ACQUIRED', description: 'Acquired by another company.' },
  { slug: 'FAMILY_OWNED', description: 'Owned and run by a family.' },
];

export const COMPANY_FLAG_SLUGS: readonly string[] = COMPANY_FLAGS.map((f) => f.slug);

export const FUNDING_STAGES = [
  'PRE_SEED',
  'SEED',
  'SERIES_A',
  'SERIES_B',
  'SERIES_C',
  'LATE_STAGE',
  'IPO',
  'BOOTSTRAPPED',
] as const;
export type FundingStage = (typeof FUNDING_STAGES)[number];
