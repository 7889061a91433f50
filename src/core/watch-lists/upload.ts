import { readUploadColumn, type UploadColumn } from '../upload-column.js';
import type { WatchListKind } from './watch-lists.js';

/**
 * A CSV file of watch-list items, uploaded in the dashboard: one person (profile URL, slug or id)
 * or company (domain, company URL, slug or id) a row, in the column readUploadColumn finds. Each
 * value goes to addWatchListItems as the bare string the API also takes, so a row is resolved,
 * or reported unresolved, exactly as the same value sent through the API would be.
 */

export const maxWatchListUploadRows = 10_000;

const headers: Record<WatchListKind, RegExp[]> = {
  people: [
    /^(profile|profile ?url|linkedin|linkedin ?url|network ?url|person ?url)$/i,
    /^(url|slug|profile ?slug)$/i,
    /^(id|person ?id)$/i,
  ],
  companies: [
    /^(domain|domains|website|web ?site|company ?website|company ?domain|company ?url|network ?url)$/i,
    /^(url|slug|company ?slug)$/i,
    /^(id|company ?id)$/i,
    /^company$/i,
  ],
};

export function watchListItemsFromCsv(kind: WatchListKind, text: string): UploadColumn {
  return readUploadColumn(text, {
    headers: headers[kind],
    looksLikeValue: (cell) => /[./\d]/.test(cell) || (kind === 'people' && cell.includes('-')),
    maxRows: maxWatchListUploadRows,
  });
}
