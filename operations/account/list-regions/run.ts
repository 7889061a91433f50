import { listRegions } from './definition.js';
import { listRegions as regionReference } from '../../../reference/index.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(listRegions, async () => ({ output: regionReference() }));
