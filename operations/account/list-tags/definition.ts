import { z } from 'zod';
import { defineOperation, free } from '../../define.js';

const labelled = z.object({ slug: z.string(), description: z.string() });

export const listTags = defineOperation({
  operationId: 'listTags',
  title: 'List tags, company flags and stages',
  summary:
    'List the prospect tags (tags filter), company special flags (specialFlags) and funding stages (stage) the filters accept.',
  description:
    "Reference data: prospectTags are the slugs of peopleSearch's tags filter (anyOf, allOf, noneOf), companyFlags those of companySearch's specialFlags, " +
    'fundingStages the values of stage. Each tag and flag says what it means. Free.',
  category: 'account',
  keywords: [
    'tags',
    'tag',
    'labels',
    'flags',
    'special flags',
    'stages',
    'enum',
    'reference',
    'values',
    'vocabulary',
    'decision maker',
    'allowed',
    'funding stages',
    'company flags',
    'prospect tags',
    'allowed values',
  ],
  method: 'GET',
  path: '/v1/enums/tags',
  input: z.strictObject({}),
  output: z.object({
    prospectTags: z.array(labelled),
    companyFlags: z.array(labelled),
    fundingStages: z.array(z.string()),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {},
  workflow: { before: [], after: ['peopleSearch', 'companySearch'] },
});
