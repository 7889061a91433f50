import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from '../../log.js';
import { cannotRun, EmbeddedPostgresError, type Cluster } from './common.js';
import { serverFlags } from './settings.js';

/** The server process: started on a free port, waited for, stopped; and one left running by an earlier process. */

/** Servers of this process, stopped if it exits without stopping them (an uncaught error, say). */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

export async function startServer(
  cluster: Cluster,
  tuning: string[],
  log: Logger,
): Promise<{ port: number; stop(): Promise<void> }> {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const child of running) child.kill('SIGINT');
    });
  }
  for (let attempt = 1; ; attempt++) {
    const port = await findFreePort();
    // A process group of its own: Ctrl-C reaches the service, which then stops its work and this
    // server in order, rather than the server vanishing under the work's last queries.
    const child = spawn(
      path.join(cluster.binDir, 'postgres'),
      ['-D', cluster.databaseDir, '-p', String(port), ...serverFlags, ...tuning],
      {
        ...(cluster.owner ?? {}),
        cwd: cluster.privateDir,
        env: { ...process.env, LC_MESSAGES: 'C' },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let recent = '';
    const onOutput = (chunk: Buffer) => {
      const message = chunk.toString();
      recent = (recent + message).slice(-4000);
      log.debug({ postgres: message.trim() }, 'embedded postgres');
    };
    child.stdout?.on('data', onOutput);
    child.stderr?.on('data', onOutput);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
    running.add(child);
    try {
      await waitUntilReady(cluster.databaseDir, child, { exited, closed, spawnError }, () => recent);
    } catch (error) {
      running.delete(child);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGQUIT');
      if (attempt < 5 && /could not bind|Address already in use/i.test(recent)) continue; // another process took the port
      throw error;
    }
    return {
      port,
      stop: async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGINT'); // fast shutdown: roll back open transactions, write a checkpoint
          const slow = setTimeout(() => child.kill('SIGQUIT'), 60_000);
          await exited;
          clearTimeout(slow);
        }
        running.delete(child);
      },
    };
  }
}

/** The postmaster writes "ready" into postmaster.pid once it accepts connections. */
async function waitUntilReady(
  databaseDir: string,
  child: ChildProcess,
  events: { exited: Promise<void>; closed: Promise<void>; spawnError: Promise<Error> },
  output: () => string,
): Promise<void> {
  let gone: (() => Promise<Error>) | null = null;
  void events.exited.then(() => {
    gone ??= async () => {
      // Its last words may still be on their way through the pipe.
      await Promise.race([events.closed, new Promise((resolve) => setTimeout(resolve, 1000))]);
      return new Error(`The embedded PostgreSQL server stopped while starting: ${output()}`);
    };
  });
  void events.spawnError.then((error) => {
    gone ??= () => Promise.resolve(cannotRun('postgres', error));
  });
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    if (gone) throw await (gone as () => Promise<Error>)();
    const lines = await readFile(pidFile, 'utf8').then(
      (text) => text.split('\n'),
      () => [],
    );
    if (Number(lines[0]) === child.pid && lines[7]?.trim() === 'ready') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The embedded PostgreSQL server did not become ready within 120 s: ${output()}`);
}

/**
 * A process killed without its shutdown leaves its PostgreSQL running and the data folder
 * locked; ask that server to stop so this start can take the folder over. A server whose
 * owning process is still alive is in use (the service is running): refuse instead.
 */
export async function stopOrphanedServer(databaseDir: string, ownerFile: string, log: Logger): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid) || !(await isPostgres(pid))) return;
  const owner = existsSync(ownerFile) ? Number(await readFile(ownerFile, 'utf8')) : NaN;
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
    throw new EmbeddedPostgresError(
      `The embedded database in ${databaseDir} is in use by process ${owner} (is the service running?). ` +
        'Stop it first, or point DATABASE_URL at a PostgreSQL server.',
    );
  }
  log.warn({ pid }, 'stopping a PostgreSQL server left running by an earlier process');
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 30_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** After a reboot the pid of a stale postmaster.pid may belong to anything: signal PostgreSQL only. */
async function isPostgres(pid: number): Promise<boolean> {
  if (os.platform() !== 'linux') return true;
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('postgres');
  } catch {
    return false;
  }
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
