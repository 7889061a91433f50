import { createExclusionListFromAudience } from './definition.js';
import * as lists from '../../../src/core/exclusion-lists.js';
import { handle } from '../../../src/runner/handler.js';

export const run = handle(createExclusionListFromAudience, async (input, { context, principal }) => ({
  output: await lists.createExclusionListFromAudience(context.db, principal.accountId, input),
}));
