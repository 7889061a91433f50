import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readBenchmarkSections, renderBenchmarksDoc } from '../../../bench/report.js';
import { configVariables, renderConfigurationDoc } from '../../../scripts/config-docs.js';
import { migrationsDigest, schemaDocIsCurrent } from '../../../scripts/schema-docs.js';
import { environmentSchema, loadConfig } from '../../../src/config.js';
import { migrationOf, readMigrations } from '../../../src/store/migrate.js';

describe('docs/configuration.md, generated from src/config.ts', () => {
  it('is what the generator makes of the schema today (npm run generate)', async () => {
    const committed = await readFile('docs/configuration.md', 'utf8');
    expect(committed).toBe(renderConfigurationDoc(environmentSchema));
  });

  it('documents every variable the service reads, with a description', () => {
    const variables = configVariables(environmentSchema);
    const doc = renderConfigurationDoc(environmentSchema);
    expect(variables.length).toBe(Object.keys(environmentSchema.shape).length);
    for (const variable of variables) {
      expect(variable.description.length, variable.name).toBeGreaterThan(10);
      expect(doc.split('\n').filter((line) => line.startsWith(`| \`${variable.name}\` |`))).toHaveLength(1);
    }
  });

  it("shows each default as loadConfig applies it, and 'unset' where there is none", () => {
    const defaults = loadConfig({});
    for (const variable of configVariables(environmentSchema)) {
      const applied = (defaults as unknown as Record<string, unknown>)[variable.name];
      if (applied === undefined) expect(variable.defaultValue, variable.name).toBe('unset');
      else expect(variable.defaultValue, variable.name).toBe(`\`${String(applied)}\``);
    }
  });

  it('reads the values a variable takes from its schema', () => {
    const byName = new Map(configVariables(environmentSchema).map((v) => [v.name, v]));
    expect(byName.get('PORT')?.values).toBe('integer 0 to 65535');
    expect(byName.get('DATABASE_POOL_SIZE')?.values).toBe('integer ≥ 1');
    expect(byName.get('COSTLY_SEARCH_SUBSTRINGS')?.values).toBe('integer ≥ 0');
    expect(byName.get('NETWORK_SOURCE_FAILURE_RATE')?.values).toBe('number 0 to 1');
    expect(byName.get('RATE_LIMIT_STORE')?.values).toBe('`memory`, `database`');
    expect(byName.get('JOB_WORKER')?.values).toBe('flag');
    expect(byName.get('CORS_ORIGINS')?.values).toBe('comma list');
    expect(byName.get('PUBLIC_URL')?.values).toBe('URL');
    expect(byName.get('SIGNING_SECRET')?.values).toBe('text, 32+ characters');
  });

  it('refuses a variable without a description, naming it', () => {
    const schema = z.object({
      DESCRIBED: z.string().optional().describe('Something a reader needs to know.'),
      NEW_SETTING: z.coerce.number().default(3),
    });
    expect(() => renderConfigurationDoc(schema)).toThrow(/NEW_SETTING has no \.describe\(\) text/);
  });

  it('puts a variable of no known group under "Other settings", and escapes table cells', () => {
    const doc = renderConfigurationDoc(
      z.object({
        PORT: z.coerce.number().int().default(1).describe('Where | it listens.'),
        SOMETHING_NEW: z.enum(['a', 'b']).default('a').describe('A setting no group names.'),
      }),
    );
    expect(doc).toContain('| `PORT` | `1` | integer | Where \\| it listens. |');
    const other = doc.slice(doc.indexOf('## Other settings'));
    expect(other).toContain('| `SOMETHING_NEW` | `a` | `a`, `b` | A setting no group names. |');
    expect(doc).toContain('- [Other settings](#other-settings): 1');
  });
});

describe('docs/benchmarks.md, generated from bench/results/', () => {
  it('is what the generator makes of the committed results (npm run bench, or npm run generate)', async () => {
    const committed = await readFile('docs/benchmarks.md', 'utf8');
    expect(committed).toBe(renderBenchmarksDoc(await readBenchmarkSections('bench/results')));
  });

  it('orders the known benchmarks, adds unknown ones after them, and leaves the reliability sections out', async () => {
    const sections = await readBenchmarkSections('bench/results');
    expect([...sections.keys()].some((name) => name.startsWith('reliability-'))).toBe(false);
    const doc = renderBenchmarksDoc(
      new Map([
        ['zeta', '### zeta\n\nnew figures\n'],
        ['mcp', '### mcp\n\nmcp figures\n'],
        ['search', '### search\n\nsearch figures\n'],
      ]),
    );
    const at = (text: string) => doc.indexOf(text);
    expect(at('### search')).toBeGreaterThan(0);
    expect(at('### search')).toBeLessThan(at('### mcp'));
    expect(at('### mcp')).toBeLessThan(at('### zeta'));
    expect(doc).toContain('- [`zeta`](#zeta)\n');
    expect(doc).toContain('- [`mcp`](#mcp): MCP throughput');
  });
});

describe('docs/schema.md, generated from the migrations', () => {
  it('names the digest of the migrations as they are (else npm run generate)', async () => {
    const migrations = await readMigrations();
    expect(schemaDocIsCurrent(await readFile('docs/schema.md', 'utf8'), migrations)).toBe(true);
  });

  it('goes stale when a migration is added or edited', async () => {
    const migrations = await readMigrations();
    const page = await readFile('docs/schema.md', 'utf8');
    const edited = migrations.map((migration, at) =>
      at === 0 ? migrationOf(migration.file, `${migration.sql}\n-- edited`) : migration,
    );
    expect(schemaDocIsCurrent(page, edited)).toBe(false);
    expect(schemaDocIsCurrent(page, [...migrations, migrationOf('999_next.sql', 'SELECT 1;')])).toBe(false);
    expect(migrationsDigest(migrations)).not.toBe(migrationsDigest(edited));
  });

  it('has a section for every table the migrations create', async () => {
    const page = await readFile('docs/schema.md', 'utf8');
    const created = new Set<string>();
    for (const migration of await readMigrations())
      for (const match of migration.sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/gi))
        created.add((match[1] as string).toLowerCase());
    for (const table of created) expect(page, table).toContain(`\n## ${table}\n`);
  });
});
