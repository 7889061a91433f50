import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { operations } from '../../operations/index.js';

/**
 * llms.txt at the repository root is written by hand around one generated block, the
 * operation list, which `npm run generate` rewrites from the registry. A test fails when
 * the committed file drifts from the registry.
 */
export const generatedBlockStart =
  '<!-- operations:start (generated from operations/ by `npm run generate`; do not edit) -->';
export const generatedBlockEnd = '<!-- operations:end -->';

export function renderOperationList(): string {
  const lines: string[] = [];
  for (const operation of operations) {
    const paths = [operation.path, ...(operation.aliasPaths ?? [])].join(' | ');
    const poll = operation.pollIntervalSeconds ? ` Poll every ${operation.pollIntervalSeconds} s.` : '';
    const confirm = operation.confirmation === 'always' ? ' Needs explicit user confirmation.' : '';
    const task = operation.startsJob
      ? ` MCP task: with the tasks extension it answers a task that follows ${operation.startsJob.statusOperationId}.`
      : '';
    lines.push(
      `- ${operation.operationId}: ${operation.method} ${paths}. ${operation.summary} Credits: ${operation.credits.rule}${poll}${confirm}${task}`,
    );
  }
  return lines.join('\n');
}

export function withGeneratedBlock(document: string): string {
  const start = document.indexOf(generatedBlockStart);
  const end = document.indexOf(generatedBlockEnd);
  if (start < 0 || end < start) throw new Error('llms.txt lacks the generated operations block markers');
  return `${document.slice(0, start + generatedBlockStart.length)}\n${renderOperationList()}\n${document.slice(end)}`;
}

/**
 * The committed file says the catalog's size neutrally, on the line that carries this marker; the
 * service serves it with this instance's own count instead (src/core/catalog-size.ts).
 */
export const catalogSizeMarker = '<!-- catalog-size -->';

export function withCatalogLine(document: string, sentence: string): string {
  return document
    .split('\n')
    .map((line) => (line.includes(catalogSizeMarker) ? `- ${sentence}` : line))
    .join('\n');
}

const here = path.dirname(fileURLToPath(import.meta.url));
// Run from source (src/http) or compiled (dist/src/http): the file sits at the repository root.
const candidates = [path.resolve(here, '../..', 'llms.txt'), path.resolve(here, '../../..', 'llms.txt')];

export async function readLlmsTxt(): Promise<string> {
  for (const candidate of candidates) {
    try {
      return await readFile(candidate, 'utf8');
    } catch {
      // try the next location
    }
  }
  throw new Error('llms.txt not found');
}
