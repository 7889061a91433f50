import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withGeneratedBlock } from '../src/http/llms-txt.js';

/** Rewrites the generated parts of committed files from the operation registry. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const llmsTxt = path.join(root, 'llms.txt');
const before = await readFile(llmsTxt, 'utf8');
const after = withGeneratedBlock(before);
if (after !== before) {
  await writeFile(llmsTxt, after);
  process.stdout.write('llms.txt: operation list regenerated\n');
} else {
  process.stdout.write('llms.txt: up to date\n');
}
