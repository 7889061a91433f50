import { listJobTitleTaxonomy } from './definition.js';
import * as enums from '../../../src/core/reference/enums.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listJobTitleTaxonomy, async () => ({ output: enums.listJobTitleTaxonomy() }));
