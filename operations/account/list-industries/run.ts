import { listIndustries } from './definition.js';
import { listIndustries as industryTaxonomy } from '../../../reference/index.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listIndustries, async () => ({ output: { industries: industryTaxonomy() } }));
