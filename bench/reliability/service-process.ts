import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The service as operators run it, `node dist/src/main.js` in a process of its own on loopback,
 * so that a reliability scenario's clients never share the server's event loop and the server
 * can be killed and started again.
 */
export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** The last lines it wrote (its log, at LOG_LEVEL warn by default): what a failed scenario shows. */
  recentOutput(): string;
  /** Ends the process with the signal (SIGTERM: an orderly stop; SIGKILL: a crash) and waits for it. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** The built service; tests pass `tsxSources` to run src/ as it is, without a build. */
export const builtService = ['dist/src/main.js'];
export const tsxSources = ['--import', 'tsx', 'src/main.ts'];

export async function startServiceProcess(
  env: Record<string, string>,
  dataDir?: string,
  entry: readonly string[] = builtService,
): Promise<ServiceProcess> {
  const folder = dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'pds-rel-app-')));
  // node itself (not npx), so that a signal reaches the process that holds the jobs.
  const child = spawn(process.execPath, [...entry], {
    env: {
      ...process.env,
      DATA_DIR: folder,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SEED_ON_EMPTY: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      const match = /is listening on (http:\/\/[^\s]+)/.exec(output);
      if (match) resolve(match[1] as string);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.once('exit', (code) =>
      reject(new Error(`the service exited (${code}) before listening:\n${output.slice(-2000)}`)),
    );
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url,
    child,
    recentOutput: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
      if (!dataDir) await rm(folder, { recursive: true, force: true });
    },
  };
}
