import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * `npm run check` fails on an import cycle (`npm run cycles`, .dependency-cruiser.js), a cycle
 * through type-only imports included: each case writes a few modules to a folder of their own and
 * runs the check on it with the repository's configuration.
 */
const run = promisify(execFile);
const folders: string[] = [];

afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function cycles(files: Record<string, string>): Promise<{ failed: boolean; output: string }> {
  const folder = await mkdtemp(join(tmpdir(), 'pds-cycles-'));
  folders.push(folder);
  for (const [name, text] of Object.entries(files)) await writeFile(join(folder, name), text);
  const args = ['--config', '.dependency-cruiser.js', '--output-type', 'err', folder];
  try {
    const { stdout } = await run('node_modules/.bin/depcruise', args, { timeout: 60_000 });
    return { failed: false, output: stdout };
  } catch (error) {
    const { stdout, code } = error as { stdout: string; code: unknown };
    if (typeof code !== 'number') throw error;
    return { failed: true, output: stdout };
  }
}

describe('the import-cycle rule', () => {
  it('refuses a cycle of type-only imports', async () => {
    const { failed, output } = await cycles({
      'a.ts': "import type { B } from './b.js';\nexport interface A { b?: B }\n",
      'b.ts': "import type { A } from './a.js';\nexport interface B { a?: A }\n",
    });
    expect(failed).toBe(true);
    expect(output).toMatch(/no-cycle: .*a\.ts/);
  }, 60_000);

  it('refuses a cycle through a third module', async () => {
    const { failed, output } = await cycles({
      'a.ts': "import { b } from './b.js';\nexport const a = () => b();\n",
      'b.ts': "import { c } from './c.js';\nexport const b = () => c();\n",
      'c.ts': "import { a } from './a.js';\nexport const c = (): number => (a ? 1 : 0);\n",
    });
    expect(failed).toBe(true);
    expect(output).toMatch(/b\.ts/);
    expect(output).toMatch(/c\.ts/);
  }, 60_000);

  it('lets imports that go one way through', async () => {
    const { failed } = await cycles({
      'a.ts': "import type { B } from './b.js';\nimport { c } from './c.js';\nexport const a = (b: B) => c(b);\n",
      'b.ts': 'export interface B { n: number }\n',
      'c.ts': "import type { B } from './b.js';\nexport const c = (b: B) => b.n;\n",
    });
    expect(failed).toBe(false);
  }, 60_000);
});
