import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * `npm run check` fails on an import against the layers (layers.config.js): each case lints a
 * file placed in a layer, as ESLint would find it in the tree, and expects the layer rule to
 * refuse the import, or to let it through.
 */
const eslint = new ESLint();

async function layerErrors(filePath: string, importLine: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${importLine}\nexport const probe = typeof imported;\n`, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

describe('the layer rules', () => {
  it.each([
    ['src/core/audiences/probe.ts', "import { imported } from '../../api/router.js';", 'src/core/'],
    ['src/core/probe.ts', "import { imported } from '../providers/mailer.js';", 'src/core/'],
    ['src/core/probe.ts', "import { imported } from '../service.js';", 'src/core/'],
    ['src/store/probe.ts', "import { imported } from '../core/credits.js';", 'src/store/'],
    ['src/job-queue/probe.ts', "import { imported } from '../worker/index.js';", 'src/job-queue/'],
    ['src/mcp/probe.ts', "import { imported } from '../api/router.js';", 'src/mcp/'],
    ['src/api/probe.ts', "import { imported } from '../mcp/index.js';", 'src/api/'],
    ['src/http/probe.ts', "import { imported } from '../mcp/fast-path.js';", 'src/http/'],
    // The operation runner sits below both surfaces, which call it: it may import neither.
    ['src/runner/probe.ts', "import { imported } from '../api/router.js';", 'src/runner/'],
    ['src/runner/probe.ts', "import { imported } from '../mcp/gateway.js';", 'src/runner/'],
    ['src/http/probe.ts', "import { imported } from '../runner/run-operation.js';", 'src/http/'],
    ['src/providers/probe.ts', "import { imported } from '../auth/bearer.js';", 'src/providers/'],
    ['operations/search/probe.ts', "import { imported } from '../../src/core/credits.js';", 'operations/'],
    // An operation's run (run.ts beside its definition) sits above core and the runner, below the surfaces;
    // its definition stays plain data, and only the composition root imports the table of runs.
    [
      'operations/search/people-search/definition.ts',
      "import { imported } from '../../../src/core/credits.js';",
      'operations/',
    ],
    ['operations/index.ts', "import { imported } from './search/people-search/run.js';", 'operations/'],
    [
      'operations/search/people-search/run.ts',
      "import { imported } from '../../../src/mcp/gateway.js';",
      "an operation's run",
    ],
    ['operations/runs.ts', "import { imported } from '../src/api/router.js';", "an operation's run"],
    ['src/core/probe.ts', "import { imported } from '../../operations/search/people-search/run.js';", 'src/core/'],
    ['src/runner/probe.ts', "import { imported } from '../../operations/runs.js';", 'src/runner/'],
    ['src/api/probe.ts', "import { imported } from '../../operations/runs.js';", 'src/api/'],
    ['reference/probe.ts', "import { imported } from '../operations/index.js';", 'reference/'],
    ['src/log.ts', "import { imported } from './store/db.js';", 'foundation'],
    ['src/dashboard/probe.ts', "import { imported } from '../api/router.js';", 'src/dashboard/'],
    ['src/dashboard/probe.ts', "import { imported } from '../mcp/index.js';", 'src/dashboard/'],
    ['src/dashboard/probe.ts', "import { imported } from '../app.js';", 'src/dashboard/'],
    ['src/api/probe.ts', "import { imported } from '../dashboard/index.js';", 'src/api/'],
    ['src/core/probe.ts', "import { imported } from '../dashboard/sessions.js';", 'src/core/'],
    ['src/auth/probe.ts', "import { imported } from '../dashboard/index.js';", 'src/auth/'],
  ])('refuses in %s: %s', async (file, line, layer) => {
    const errors = await layerErrors(file, line);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(layer);
    expect(errors[0]).toMatch(/against the layers/);
  });

  it.each([
    ['src/core/probe.ts', "import { imported } from '../store/db.js';"],
    ['src/core/probe.ts', "import { imported } from '../../operations/index.js';"],
    ['src/providers/probe.ts', "import { imported } from '../core/ports/mailer.js';"],
    ['src/api/probe.ts', "import { imported } from '../auth/api-key-authenticator.js';"],
    ['src/mcp/probe.ts', "import { imported } from '../http/access-log.js';"],
    ['src/mcp/probe.ts', "import { imported } from '../runner/run-operation.js';"],
    ['src/api/probe.ts', "import { imported } from '../runner/run-operation.js';"],
    ['src/runner/probe.ts', "import { imported } from '../auth/scopes.js';"],
    ['src/service.ts', "import { imported } from './mcp/index.js';"],
    ['src/core/probe.ts', "import type { imported } from '../context.js';"],
    ['src/dashboard/probe.ts', "import { imported } from '../auth/identities.js';"],
    ['src/dashboard/probe.ts', "import { imported } from '../core/account-members.js';"],
    ['src/app.ts', "import { imported } from './dashboard/index.js';"],
    ['src/app.ts', "import { imported } from '../operations/runs.js';"],
    ['operations/runs.ts', "import { imported } from './search/people-search/run.js';"],
    ['operations/search/people-search/run.ts', "import { imported } from '../../../src/core/search/people-search.js';"],
    ['operations/search/people-search/run.ts', "import { imported } from '../../../src/runner/handler.js';"],
    ['operations/search/people-search/run.ts', "import { imported } from './definition.js';"],
    ['src/core/saved-searches/probe.ts', "import { imported } from './runs.js';"],
  ])('lets through in %s: %s', async (file, line) => {
    expect(await layerErrors(file, line)).toEqual([]);
  });
});
