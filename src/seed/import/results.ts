// What an import reports: rows read, loaded and rejected (with line numbers and fields at fault).

export type ImportKind = 'companies' | 'people';
export type ImportFormat = 'jsonl' | 'csv';

export interface ImportRejection {
  line: number;
  problems: string[];
}

export interface ImportResult {
  kind: ImportKind;
  /** Data rows read (header and blank lines excluded). */
  read: number;
  inserted: number;
  updated: number;
  rejected: ImportRejection[];
  /** People only: contact points added. */
  contacts: number;
  /** People only: rows whose current company was found in the catalog by slug or domain. */
  companiesResolved: number;
  milliseconds: number;
}

/** A problem with the file as a whole (unreadable, unknown format or columns): nothing was loaded. */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}

export function formatRejection(rejection: ImportRejection): string {
  return rejection.problems.map((problem) => `line ${rejection.line}: ${problem}`).join('\n');
}
