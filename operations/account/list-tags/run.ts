import { listTags } from './definition.js';
import * as enums from '../../../src/core/reference/enums.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listTags, async () => ({ output: enums.listTags() }));
