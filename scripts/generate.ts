import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBenchmarkSections, renderBenchmarksDoc } from '../bench/report.js';
import { environmentSchema } from '../src/config.js';
import { withGeneratedBlock } from '../src/http/llms-txt.js';
import { modelFile } from '../src/mcp/ranker/files.js';
import { modelText } from '../src/mcp/ranker/index.js';
import { renderConfigurationDoc } from './config-docs.js';
import { withRateLimitClasses } from './rate-limit-docs.js';
import { renderSchemaDoc, schemaDocIsCurrent } from './schema-docs.js';
import { readMigrations } from '../src/store/migrate.js';

/**
 * Rewrites the generated files from their sources: llms.txt's operation list (the operation registry),
 * docs/configuration.md (src/config.ts), the rate-limit classes of docs/rest-api.md (both), docs/benchmarks.md (bench/results/),
 * docs/schema.md (the migrations, through a database they build: only when they changed since, and `--check` compares the
 * digest the page names) and the ranker's model. With `--check` it writes nothing and
 * exits 1 naming each file that differs (`npm run check` runs it so).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

const targets: Array<{ file: string; source: string; render: (before: string) => string | Promise<string> }> = [
  { file: 'llms.txt', source: 'the operation registry', render: (before) => withGeneratedBlock(before) },
  {
    file: 'docs/configuration.md',
    source: 'the .describe() texts of src/config.ts',
    render: () => renderConfigurationDoc(environmentSchema),
  },
  {
    file: 'docs/rest-api.md',
    source: "the operations' rate-limit classes and src/config.ts's limits",
    render: (before) => withRateLimitClasses(before),
  },
  {
    file: 'docs/benchmarks.md',
    source: 'bench/results/*.md',
    render: async () => renderBenchmarksDoc(await readBenchmarkSections(path.join(root, 'bench/results'))),
  },
  {
    file: 'docs/schema.md',
    source: 'the migrations (src/store/migrations/)',
    render: async (before) =>
      schemaDocIsCurrent(before, await readMigrations()) ? before : check ? '' : await renderSchemaDoc(),
  },
  // search_endpoints' model, trained on the ranker's labelled phrasings and the registry's own words (seconds of CPU).
  {
    file: path.relative(root, modelFile),
    source: "data/ranker/training and the operations' own words",
    render: () => modelText(),
  },
];

const stale: string[] = [];
for (const target of targets) {
  const file = path.join(root, target.file);
  const before = await readFile(file, 'utf8').catch(() => '');
  const after = await target.render(before);
  if (after === before) {
    if (!check) process.stdout.write(`${target.file}: up to date\n`);
    continue;
  }
  if (check) {
    stale.push(`${target.file} differs from ${target.source}`);
  } else {
    await writeFile(file, after);
    process.stdout.write(`${target.file}: regenerated from ${target.source}\n`);
  }
}
if (stale.length > 0) {
  process.stderr.write(`${stale.join('\n')}\nRun \`npm run generate\` and commit the result.\n`);
  process.exit(1);
}
