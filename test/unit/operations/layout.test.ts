import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { AnyOperation } from '../../../operations/define.js';
import { operations } from '../../../operations/index.js';
import type { BoundHandler } from '../../../src/runner/handler.js';

/**
 * An operation is one place: a folder operations/<category>/<name>/ holding its definition and the
 * function that runs it, side by side. Read from the tree, so that a definition left without its run
 * (or a run that runs another operation) fails here, whatever the lists in index.ts and runs.ts say.
 */
const root = new URL('../../../operations/', import.meta.url);
const categories = [
  'account',
  'audiences',
  'contacts',
  'enrichment',
  'exclusion-lists',
  'matching',
  'saved-searches',
  'search',
  'watch-lists',
  'webhooks',
];

async function operationFolders(): Promise<string[]> {
  const folders: string[] = [];
  for (const category of categories) {
    for (const entry of await readdir(new URL(`${category}/`, root), { withFileTypes: true })) {
      folders.push(entry.isDirectory() ? `${category}/${entry.name}` : `${category}/${entry.name} (a file)`);
    }
  }
  return folders;
}

const kebab = (operationId: string) => operationId.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

describe('the operations folder', () => {
  it('has a folder of its own for each operation, named after it, and nothing else in a category', async () => {
    const folders = await operationFolders();
    expect(folders.map((folder) => folder.split('/')[1]).sort()).toEqual(
      operations.map((operation) => kebab(operation.operationId)).sort(),
    );
  });

  it('holds in each folder the definition and the run of that one operation', async () => {
    for (const folder of await operationFolders()) {
      const files = (await readdir(new URL(`${folder}/`, root))).sort();
      expect(files, folder).toEqual(['definition.ts', 'run.ts']);
      const definitions = Object.values(
        (await import(new URL(`${folder}/definition.ts`, root).href)) as Record<string, AnyOperation>,
      );
      const run = ((await import(new URL(`${folder}/run.ts`, root).href)) as { run: BoundHandler }).run;
      expect(definitions.map((definition) => definition.operationId).filter(Boolean), folder).toContain(
        run.operationId,
      );
      expect(kebab(run.operationId), folder).toBe(folder.split('/')[1]);
    }
  });

  it('has no category besides the known ones', async () => {
    const entries = await readdir(root, { withFileTypes: true });
    const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.sort()).toEqual([...categories, 'schemas'].sort());
  });
});
