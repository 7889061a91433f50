/**
 * The layers of the codebase, from the bottom. A module imports only from its own layer or the
 * ones below it; `npm run check` (ESLint) fails on an import against the grain, and
 * test/repo/layers.test.ts shows that it does.
 *
 *   reference/, operations/        plain data: reference lists, the operation registry (each operation's
 *                                  definition.ts, its shared schemas, index.ts)
 *   src/config.ts errors.ts log.ts foundations: configuration (its variables by concern in src/config/), the error class,
 *                                  the logger (and small helpers beside them)
 *   src/store/                     PostgreSQL: pools, migrations, table declarations, the embedded server
 *   src/job-queue/                 the job queue (table access, defineJob, retention tasks)
 *   src/core/                      the domain; core/ports/ declares what it needs from the outside world
 *   src/providers/                 adapters that implement core's ports (network, contact vendors, mail, files)
 *   src/seed/                      the demo dataset and the import
 *   src/auth/                      API keys, the /mcp/v3 authorization server and sign-in
 *   src/http/                      HTTP plumbing the surfaces share: request log, metrics, downloads, llms.txt
 *   src/runner/                    running an operation for a principal, whichever surface asks: rate limits,
 *                                  concurrency caps, idempotency, charging, the envelope (REST and MCP both call it);
 *                                  handler.ts is the shape of an operation's run
 *   operations/<category>/<name>/run.ts, operations/runs.ts
 *                                  each operation's run, beside its definition: a thin call into core, in the shape
 *                                  the runner declares (as providers implement core's ports); only the composition
 *                                  root imports the table of runs, and hands it to the runner
 *   src/api/, src/mcp/, src/dashboard/   the surfaces, side by side: none imports another (the dashboard
 *                                  is the people's surface: sign-in through auth, everything else through core)
 *   src/worker/                    the job loop that runs core's jobs
 *   src/app.ts service.ts main.ts cli/   composition: the only places that wire everything together
 *
 * src/context.ts names the types of every layer (the services the composition root builds); it
 * holds types only and is imported with `import type`.
 */
const layers = [
  ['store'],
  ['job-queue'],
  ['core'],
  ['providers'],
  ['seed'],
  ['auth'],
  ['http'],
  ['runner'],
  ['api', 'mcp', 'dashboard'],
  ['worker'],
];
const composition = '(^|/)(app|service|main)\\.js$|(^|/)cli/';
/** The files of operations/ that are code above core: every run.ts, and runs.ts, the table of them. */
const runFiles = ['operations/*/*/run.ts', 'operations/runs.ts'];
const runImports = '(^|/)operations/(.+/)?runs?\\.js$';
const folders = (names) => `(^|/)(${names.join('|')})/`;
const why = (what) =>
  `${what}: an import against the layers (see layers.config.js); move the shared code down, or pass it in`;

const restrict = (files, patterns, message) => ({
  files,
  rules: {
    '@typescript-eslint/no-restricted-imports': ['error', { patterns: patterns.map((regex) => ({ regex, message })) }],
  },
});

export const layerRules = [
  restrict(['reference/**/*.ts'], ['(^|/)src/', '(^|/)operations/'], why('reference/ is plain data below everything')),
  {
    ...restrict(
      ['operations/**/*.ts'],
      ['(^|/)src/', '(^|/)runs?\\.js$'],
      why("operations/ (but its run.ts files) is plain data below src/, and imports no operation's run"),
    ),
    ignores: runFiles,
  },
  restrict(
    runFiles,
    [folders(['api', 'mcp', 'dashboard', 'worker']), composition],
    why("an operation's run sits above the runner and below the surfaces, the worker and the composition root"),
  ),
  restrict(
    ['src/config.ts', 'src/config/**/*.ts', 'src/errors.ts', 'src/log.ts', 'src/validation.ts'],
    [folders(layers.flat()), composition, runImports],
    why('a foundation imports no layer'),
  ),
  ...layers
    .map((names, index) => {
      const above = layers.slice(index + 1).flat();
      // The surfaces sit side by side: each is forbidden the other as well as what is above both.
      return names.map((name) =>
        restrict(
          [`src/${name}/**/*.ts`],
          [folders([...above, ...names.filter((other) => other !== name)]), composition, runImports],
          why(
            `src/${name}/ sits below ${[...above, 'the composition root'].join(', ')}${names.length > 1 ? ` and beside ${names.filter((other) => other !== name).join(', ')}` : ''}, and an operation's run (operations/**/run.ts) is the composition root's to import`,
          ),
        ),
      );
    })
    .flat(),
];
