import { execFile } from 'node:child_process';

export interface ToolOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command-line tool (src/cli/TOOL.ts) in a process of its own, as an operator would, and answers its exit code
 * and output. Each run compiles the tool's sources (tsx) and connects to the database, which on a loaded machine takes
 * seconds; a run still going after `timeoutMs` is killed and fails the test with the command and what it printed,
 * rather than holding the test until the runner's own timeout, which names no step.
 */
export function runTool(
  tool: string,
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<ToolOutcome> {
  const command = `npm run ${tool} -- ${args.join(' ')}`;
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `src/cli/${tool}.ts`, ...args],
      { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, timeout: timeoutMs },
      (error, stdout, stderr) => {
        if (!error) {
          resolve({ code: 0, stdout, stderr });
          return;
        }
        if (typeof error.code === 'number') {
          resolve({ code: error.code, stdout, stderr });
          return;
        }
        const why = error.killed
          ? `did not end within ${timeoutMs / 1000} s and was stopped`
          : `could not run (${error.message})`;
        reject(new Error(`${command} ${why}.\nstdout: ${stdout || '(nothing)'}\nstderr: ${stderr || '(nothing)'}`));
      },
    );
  });
}
