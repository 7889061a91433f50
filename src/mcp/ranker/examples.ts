import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AnyOperation } from '../../../operations/define.js';
import { trainingDir } from './files.js';

/** A request labelled with the operation it asks for, and the set it was written in (for leaving a set out). */
export interface Example {
  query: string;
  expected: string;
  set: string;
}

/**
 * The examples of a JSONL file: one object a line with `query`, `expected` (an operationId) and `set`. A line that is not
 * one, or names an operation the registry does not have, stops the load with its file and line.
 */
export function readExamples(file: string, known: ReadonlySet<string>): Example[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, at) => {
      if (line.trim() === '') return [];
      const where = `${path.basename(file)}:${at + 1}`;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new Error(`${where}: not a JSON object`);
      }
      const { query, expected, set } = (parsed ?? {}) as Record<string, unknown>;
      if (typeof query !== 'string' || query.trim() === '')
        throw new Error(`${where}: query must be a non-empty string`);
      if (typeof expected !== 'string' || !known.has(expected))
        throw new Error(`${where}: expected must be an operationId of the registry, not ${JSON.stringify(expected)}`);
      return [{ query, expected, set: typeof set === 'string' ? set : path.basename(file, '.jsonl') }];
    });
}

/** Every labelled phrasing of the folder, in the order of its files' names and their lines. */
export function labelledPhrasings(operations: readonly AnyOperation[], dir = trainingDir): Example[] {
  const known = new Set(operations.map((operation) => operation.operationId));
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) => readExamples(path.join(dir, name), known));
}

/**
 * The operations' own words as examples: the title, the summary, each sentence of the description, each keyword and
 * the words of the operationId, each labelled with its operation. They are what an agent reads of an operation, and
 * what a request written from those words is nearest to.
 */
export function ownWords(operations: readonly AnyOperation[]): Example[] {
  return operations.flatMap((operation) =>
    [
      operation.title,
      operation.summary,
      ...operation.description.split(/(?<=\.)\s+/),
      ...operation.keywords,
      operation.operationId.replace(/([A-Z])/g, ' $1'),
    ].map((query) => ({ query, expected: operation.operationId, set: 'registry' })),
  );
}
