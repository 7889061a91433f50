import { z } from 'zod';
import { defineOperation, free } from '../../define.js';

export const listJobTitleTaxonomy = defineOperation({
  operationId: 'listJobTitleTaxonomy',
  title: 'List seniorities and job functions',
  summary:
    'List the seniorities (seniority filter) and job functions (jobFunction filter) a profile is given from its title.',
  description:
    'Reference data: every profile carries a seniority (owner, c_suite, vp, director, manager, senior, entry, ...) and a job_function ' +
    '(engineering, sales, marketing, ...), read from its current title by the job-title vocabulary; peopleSearch, peopleCount and ' +
    "audiences' prospect filters accept them as seniority and jobFunction (any of). Each value says what it covers. Free.",
  category: 'account',
  keywords: [
    'seniority',
    'seniorities',
    'job function',
    'job functions',
    'department',
    'departments',
    'level',
    'levels',
    'role',
    'c-suite',
    'executives',
    'enum',
    'reference',
    'taxonomy',
    'allowed values',
    'title levels',
  ],
  method: 'GET',
  path: '/v1/enums/job-titles',
  input: z.strictObject({}),
  output: z.object({
    seniorities: z.array(z.object({ slug: z.string(), description: z.string() })),
    jobFunctions: z.array(z.object({ slug: z.string(), description: z.string() })),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {},
  workflow: { before: [], after: ['peopleSearch', 'peopleCount'] },
});
