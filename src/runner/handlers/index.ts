import type { BoundHandler } from '../handler.js';
import { accountHandlers } from './account.js';
import { audienceHandlers } from './audiences.js';
import { contactHandlers } from './contacts.js';
import { countHandlers } from './counts.js';
import { exclusionListHandlers } from './exclusion-lists.js';
import { lookupHandlers } from './lookups.js';
import { savedSearchHandlers } from './saved-searches.js';
import { enrichmentHandlers } from './enrichment.js';
import { searchHandlers } from './search.js';
import { webhookHandlers } from './webhooks.js';

/** Every REST handler, attached to its operation by id; test/api checks the two lists agree. */
export const handlers: readonly BoundHandler[] = [
  ...searchHandlers,
  ...accountHandlers,
  ...audienceHandlers,
  ...enrichmentHandlers,
  ...contactHandlers,
  ...countHandlers,
  ...exclusionListHandlers,
  ...savedSearchHandlers,
  ...lookupHandlers,
  ...webhookHandlers,
];
