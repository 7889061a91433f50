import { z } from 'zod';
import { defineOperation, free } from '../../define.js';

export const listLanguages = defineOperation({
  operationId: 'listLanguages',
  title: 'List languages',
  summary: 'List the languages profiles list, and the proficiency levels they are given in.',
  description:
    'Reference data: the language names that appear in profile records (languages[].name) and the proficiency levels (languages[].proficiency_name), ' +
    'with the languages most often listed as second languages marked. Free.',
  category: 'account',
  keywords: [
    'languages',
    'language',
    'spoken',
    'speaks',
    'proficiency',
    'fluent',
    'bilingual',
    'enum',
    'reference',
    'values',
    'language names',
    'languages spoken',
    'proficiency levels',
  ],
  method: 'GET',
  path: '/v1/enums/languages',
  input: z.strictObject({}),
  output: z.object({
    languages: z.array(z.object({ name: z.string(), commonSecondLanguage: z.boolean() })),
    proficiencies: z.array(z.string()),
  }),
  credits: free(),
  rateLimitClass: 'standard',
  readOnly: true,
  destructive: false,
  idempotent: true,
  openWorld: false,
  confirmation: 'above-threshold',
  example: {},
  workflow: { before: [], after: ['peopleSearch'] },
});
