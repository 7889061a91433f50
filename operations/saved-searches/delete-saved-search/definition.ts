import { defineOperation, deleteById } from '../../define.js';
import { savedSearchId } from '../../schemas/saved-searches.js';

export const deleteSavedSearch = defineOperation({
  operationId: 'deleteSavedSearch',
  title: 'Delete a saved search',
  summary: 'Delete a saved search with its runs and records; scheduled runs stop.',
  description:
    'Deletes the saved search, its runs and the records they delivered, and stops its schedule. A run in progress is cancelled and charges nothing. Free.',
  category: 'search',
  keywords: [
    'saved search',
    'delete',
    'remove',
    'unsubscribe',
    'stop watching',
    'cancel alert',
    'discard',
    'drop',
    'stop alerts',
    'stop notifications',
    'turn off',
    'kill',
    'no longer need',
  ],
  ...deleteById('/v1/saved-searches/{savedSearchId}', savedSearchId),
  workflow: { before: ['listSavedSearches'], after: [] },
});
