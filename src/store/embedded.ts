import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, cp, lstat, mkdir, readdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { ensurePrivateFolder, writePrivateFile } from './data-dir.js';

export interface EmbeddedServer {
  /** The service's connection: a role that owns the database and its objects but is not a superuser. */
  connectionString: string;
  /** The superuser's connection, for tools that create and drop databases (the test harness, benchmarks). */
  adminConnectionString: string;
  /** Where the cluster's files are (PGDATA). */
  databaseDir: string;
  /** The settings it was started with beyond the fixed ones (sized to the machine, then the overrides). */
  settings: Record<string, string>;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** Delete the cluster when it stops: for throwaway data folders (tests, benchmarks). */
  temporary?: boolean;
  /** How to size the server (EMBEDDED_PG_MEMORY_MB, EMBEDDED_PG_SETTINGS); unset: to this machine, nothing overridden. */
  settings?: EmbeddedTuning;
}

export interface EmbeddedTuning {
  /** The memory the settings are sized for; unset: the machine's (or its cgroup's limit, when lower). */
  memoryBytes?: number | undefined;
  /** Server settings that replace the computed ones or add to them, by name. */
  overrides?: Record<string, string> | undefined;
}

/** Said when the embedded server cannot work here at all, with what to do instead. */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

const databaseName = 'prospecting';
const superuser = 'postgres';
const serviceRole = 'prospecting';
/**
 * As root: PostgreSQL refuses to run as root, so it runs as the `postgres` system user, which
 * cannot enter a private DATA_DIR (nor the node_modules of a private clone). Its binaries and its
 * cluster live here instead, one cluster per DATA_DIR, owned by that user and private to it.
 */
export const rootStateDir = '/var/lib/prospecting-data-service/embedded-postgres';
const insteadAdvice = 'Run the service as an ordinary user, or set DATABASE_URL to a PostgreSQL server.';

const execFileAsync = promisify(execFile);

interface Cluster {
  /** PGDATA. */
  databaseDir: string;
  binDir: string;
  /** The user the server runs as when we are root; null: this process's own user. */
  owner: { uid: number; gid: number } | null;
  /** A folder that only the server's user (and root) can enter: the server's working directory. */
  privateDir: string;
  /** What `temporary` removes. */
  removable: string[];
}

interface Credentials {
  superuserPassword: string;
  servicePassword: string;
}

/**
 * Starts the PostgreSQL server shipped in the embedded-postgres package, listening on a free
 * loopback port behind SCRAM passwords: random ones, made on the first start and kept in
 * DATA_DIR/postgres-credentials (0600). The service connects as a role that owns its database but
 * is not a superuser. Data folders of older versions (superuser password `embedded`) are upgraded
 * here: the password is replaced and the role created. Nothing is downloaded.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  options: EmbeddedOptions = {},
): Promise<EmbeddedServer> {
  await ensurePrivateFolder(dataDir, log);
  const cluster = await clusterFor(dataDir);
  const ownerFile = path.join(dataDir, 'postgres.owner');
  const legacyDir = path.join(dataDir, 'postgres');
  if (legacyDir !== cluster.databaseDir) await adoptLegacyCluster(legacyDir, cluster, ownerFile, log);
  await stopOrphanedServer(cluster.databaseDir, ownerFile, log);

  const { credentials, pending } = await credentialsOf(dataDir);
  if (!existsSync(path.join(cluster.databaseDir, 'PG_VERSION'))) {
    if (!pending) {
      // As root the cluster is found by the data folder's path: a moved folder finds none.
      log.warn(
        { databaseDir: cluster.databaseDir },
        'this data folder has database credentials but no cluster: starting an empty one (did the data folder move? see docs/getting-started.md)',
      );
    }
    await rm(cluster.databaseDir, { recursive: true, force: true });
    log.info({ databaseDir: cluster.databaseDir }, 'initialising embedded PostgreSQL');
    await initialise(cluster, credentials.superuserPassword);
  } else if (pending) {
    // No credentials of ours yet (a folder from an older version, or the file was lost): set the
    // superuser's password without knowing the old one, in single-user mode, with no server listening.
    log.info({ databaseDir: cluster.databaseDir }, 'embedded PostgreSQL: replacing the superuser password');
    await setSuperuserPassword(cluster, credentials.superuserPassword);
  }
  await writeClusterFile(cluster, 'pg_hba.conf', hostBasedAuthentication);

  const settings = embeddedSettings(options.settings ?? {});
  log.info({ settings }, 'embedded PostgreSQL settings');
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(cluster, settingFlags(settings), log);
  } catch (error) {
    // A throwaway cluster that never started (a setting the server refused, say) goes too.
    if (options.temporary)
      for (const removable of cluster.removable) await rm(removable, { recursive: true, force: true });
    throw error;
  }
  try {
    await writePrivateFile(ownerFile, String(process.pid));
    await prepareDatabase(server.port, credentials);
    if (pending) await rename(pendingCredentialsFile(dataDir), credentialsFile(dataDir));
  } catch (error) {
    await server.stop();
    throw error;
  }
  log.info({ port: server.port, databaseDir: cluster.databaseDir }, 'embedded PostgreSQL started');
  const url = (user: string, password: string, database: string) =>
    `postgres://${user}:${password}@127.0.0.1:${server.port}/${database}`;
  let stopping: Promise<void> | null = null;
  return {
    connectionString: url(serviceRole, credentials.servicePassword, databaseName),
    adminConnectionString: url(superuser, credentials.superuserPassword, 'postgres'),
    databaseDir: cluster.databaseDir,
    settings,
    stop: () =>
      (stopping ??= (async () => {
        await server.stop();
        await rm(ownerFile, { force: true });
        if (options.temporary)
          for (const removable of cluster.removable) await rm(removable, { recursive: true, force: true });
        log.info('embedded PostgreSQL stopped');
      })()),
  };
}

// Loopback TCP only, and only with a password: the port is no secret (other local users can see it).
const hostBasedAuthentication = [
  '# Written by the Prospecting Data Service at every start: loopback TCP with SCRAM passwords only.',
  'host all all 127.0.0.1/32 scram-sha-256',
  '',
].join('\n');

const serverFlags = [
  '-c',
  'listen_addresses=127.0.0.1',
  '-c',
  'unix_socket_directories=',
  '-c',
  'password_encryption=scram-sha-256',
  '-c',
  'lc_messages=C',
  // Nothing replicates from this server, so minimal WAL: bulk loads (COPY FREEZE, index builds)
  // then skip most WAL writing.
  '-c',
  'wal_level=minimal',
  '-c',
  'max_wal_senders=0',
];

const MB = 2 ** 20;
const GB = 2 ** 30;
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
const megabytes = (bytes: number) => `${Math.floor(bytes / MB)}MB`;

/**
 * The embedded server's settings for a machine of this memory and these cores. PostgreSQL's own
 * defaults (128 MB of shared buffers, 4 MB of work memory, the costs of a spinning disk) suit a
 * small shared host; this server is the service's own, on the machine it runs on:
 * - shared_buffers a quarter of memory (at most 8 GB: past that the OS cache serves as well),
 *   effective_cache_size three quarters (what the OS cache and the buffers hold together);
 * - work_mem sized so that the sorts and hashes of many connections at once stay well inside what
 *   the buffers leave (at most 64 MB: a page of 1000 sorts a few MB);
 * - maintenance_work_mem a sixteenth (at most 1 GB): index builds of a large seed or import;
 * - parallel workers: one per two cores for a query, every core in all;
 * - random_page_cost and effective_io_concurrency of an SSD (set random_page_cost=4 on spinning disks).
 */
export function tunedSettings(machine: { memoryBytes: number; cpus: number }): Record<string, string> {
  const memory = Math.max(machine.memoryBytes, 512 * MB);
  const cpus = Math.max(1, Math.floor(machine.cpus));
  const sharedBuffers = clamp(memory / 4, 128 * MB, 8 * GB);
  return {
    shared_buffers: megabytes(sharedBuffers),
    effective_cache_size: megabytes(Math.max(sharedBuffers, (memory * 3) / 4)),
    work_mem: megabytes(clamp((memory - sharedBuffers) / 256, 4 * MB, 64 * MB)),
    maintenance_work_mem: megabytes(clamp(memory / 16, 64 * MB, 1 * GB)),
    max_worker_processes: String(Math.max(8, cpus)),
    max_parallel_workers: String(cpus),
    max_parallel_workers_per_gather: String(clamp(Math.floor(cpus / 2), 1, 4)),
    max_parallel_maintenance_workers: String(clamp(Math.floor(cpus / 2), 1, 4)),
    random_page_cost: '1.1',
    effective_io_concurrency: '200',
    max_wal_size: megabytes(clamp(memory / 8, 1 * GB, 8 * GB)),
  };
}

/** This machine's memory: the cgroup's limit when it sets a lower one (a container), else the total. */
export function machineMemoryBytes(): number {
  let memory = os.totalmem();
  for (const file of ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes']) {
    try {
      const limit = Number(readFileSync(file, 'utf8').trim());
      if (Number.isFinite(limit) && limit > 0) memory = Math.min(memory, limit);
    } catch {
      // no such cgroup file, or "max": no limit there
    }
  }
  return memory;
}

/** The settings a server started with these options gets: sized to the machine, then the overrides. */
export function embeddedSettings(tuning: EmbeddedTuning): Record<string, string> {
  const computed = tunedSettings({
    memoryBytes: tuning.memoryBytes ?? machineMemoryBytes(),
    cpus: os.availableParallelism(),
  });
  return { ...computed, ...(tuning.overrides ?? {}) };
}

/** The tuning the configuration asks for. */
export function embeddedSettingsOf(
  config: Pick<Config, 'EMBEDDED_PG_MEMORY_MB' | 'EMBEDDED_PG_SETTINGS'>,
): EmbeddedTuning {
  return {
    memoryBytes: config.EMBEDDED_PG_MEMORY_MB === undefined ? undefined : config.EMBEDDED_PG_MEMORY_MB * MB,
    overrides: config.EMBEDDED_PG_SETTINGS,
  };
}

function settingFlags(settings: Record<string, string>): string[] {
  return Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
}

function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/** Where the cluster lives and who runs it; see rootStateDir for why root differs. */
async function clusterFor(dataDir: string): Promise<Cluster> {
  const { binDir, owner } = await serverPrograms();
  if (!owner) {
    const databaseDir = path.join(dataDir, 'postgres');
    return { databaseDir, binDir, owner, privateDir: dataDir, removable: [databaseDir] };
  }
  return rootPreparation(async () => {
    const clusters = path.join(rootStateDir, 'clusters');
    await mkdir(clusters, { recursive: true });
    await chmod(clusters, 0o711); // enterable, not listable: the names derive from data folders' paths
    const realDataDir = await realpath(dataDir);
    const key = createHash('sha256').update(realDataDir).digest('hex').slice(0, 16);
    const clusterDir = path.join(clusters, key);
    await mkdir(clusterDir, { recursive: true });
    await chown(clusterDir, owner.uid, owner.gid);
    await chmod(clusterDir, 0o700);
    // For an operator wondering whose cluster this is (the server's user cannot change it).
    const label = path.join(clusters, `${key}.data-dir`);
    await writePrivateFile(label, `${realDataDir}\n`);
    return {
      databaseDir: path.join(clusterDir, 'data'),
      binDir,
      owner,
      privateDir: clusterDir,
      removable: [clusterDir, label],
    };
  });
}

/**
 * The folder of the server's programs, runnable by the user the server runs as, and that user
 * (null: this process's own). Exported for tests that rebuild the data folders of older versions.
 */
export async function serverPrograms(): Promise<{ binDir: string; owner: { uid: number; gid: number } | null }> {
  const packaged = await packagedBinaries();
  if (!runningAsRoot()) return { binDir: path.join(packaged.nativeDir, 'bin'), owner: null };
  const owner = await serverUser();
  return rootPreparation(async () => {
    for (const folder of [path.dirname(rootStateDir), rootStateDir]) {
      await mkdir(folder, { recursive: true });
      await chmod(folder, 0o755);
    }
    const binaries = await installBinaries(
      packaged.nativeDir,
      path.join(rootStateDir, `postgresql-${packaged.version}`),
    );
    return { binDir: path.join(binaries, 'bin'), owner };
  });
}

async function rootPreparation<T>(prepare: () => Promise<T>): Promise<T> {
  try {
    return await prepare();
  } catch (error) {
    throw new EmbeddedPostgresError(
      `Running as root, the embedded PostgreSQL keeps its files under ${rootStateDir}, owned by the postgres user ` +
        `(PostgreSQL refuses to run as root, and that user cannot enter a private DATA_DIR), but that folder could not be prepared: ` +
        `${(error as Error).message}. ${insteadAdvice}`,
      { cause: error },
    );
  }
}

async function packagedBinaries(): Promise<{ nativeDir: string; version: string }> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let initdb: unknown;
  try {
    initdb = ((await import(name)) as { initdb?: unknown }).initdb;
  } catch (error) {
    throw new EmbeddedPostgresError(
      `No PostgreSQL binaries for this platform (${name} is not installed): run npm ci, or set DATABASE_URL to a PostgreSQL server.`,
      { cause: error },
    );
  }
  if (typeof initdb !== 'string')
    throw new EmbeddedPostgresError(
      `${name} does not name its initdb binary; set DATABASE_URL to a PostgreSQL server.`,
    );
  const nativeDir = path.dirname(path.dirname(initdb));
  const { version } = JSON.parse(await readFile(path.join(nativeDir, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return { nativeDir, version };
}

/** A copy of the binaries that every user can read and run, made once per version. */
async function installBinaries(source: string, target: string): Promise<string> {
  if (existsSync(path.join(target, 'bin', 'postgres'))) return target;
  const staging = `${target}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await cp(source, staging, { recursive: true, verbatimSymlinks: true });
    await makeReadableByAll(staging);
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // Another process may have installed the same version first.
    if (!existsSync(path.join(target, 'bin', 'postgres'))) throw error;
  }
  return target;
}

async function makeReadableByAll(folder: string): Promise<void> {
  await chmod(folder, 0o755);
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const entryPath = path.join(folder, entry.name);
    if (entry.isDirectory()) await makeReadableByAll(entryPath);
    else if (entry.isFile()) await chmod(entryPath, (await stat(entryPath)).mode & 0o100 ? 0o755 : 0o644);
  }
}

async function serverUser(): Promise<{ uid: number; gid: number }> {
  const existing = await lookUpUser(superuser);
  if (existing) return existing;
  try {
    await execFileAsync('useradd', [
      '--system',
      '--user-group',
      '--home-dir',
      '/nonexistent',
      '--no-create-home',
      '--shell',
      '/usr/sbin/nologin',
      superuser,
    ]);
  } catch (error) {
    const createdMeanwhile = await lookUpUser(superuser);
    if (createdMeanwhile) return createdMeanwhile;
    throw new EmbeddedPostgresError(
      `Running as root, the embedded PostgreSQL needs a "${superuser}" system user to run as (PostgreSQL refuses to run as root), ` +
        `and it could not be created: ${(error as Error).message.trim()}. Create it (useradd --system --user-group ${superuser}), or: ${insteadAdvice}`,
      { cause: error },
    );
  }
  const created = await lookUpUser(superuser);
  if (!created)
    throw new EmbeddedPostgresError(`The "${superuser}" user was created but cannot be found. ${insteadAdvice}`);
  return created;
}

async function lookUpUser(name: string): Promise<{ uid: number; gid: number } | null> {
  try {
    const [uid, gid] = await Promise.all([execFileAsync('id', ['-u', name]), execFileAsync('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return null;
  }
}

/**
 * Older versions kept the cluster in DATA_DIR/postgres even as root (with DATA_DIR opened to
 * 0711 for the postgres user). As root it now lives under rootStateDir: move it there, once.
 */
async function adoptLegacyCluster(legacyDir: string, cluster: Cluster, ownerFile: string, log: Logger): Promise<void> {
  if (!existsSync(path.join(legacyDir, 'PG_VERSION'))) return;
  await stopOrphanedServer(legacyDir, ownerFile, log);
  if (existsSync(path.join(cluster.databaseDir, 'PG_VERSION'))) {
    throw new EmbeddedPostgresError(
      `Two embedded databases belong to this data folder: ${legacyDir} (made by an older version) and ${cluster.databaseDir}. ` +
        'Move the one you do not want out of the way, then start again.',
    );
  }
  log.info(
    { from: legacyDir, to: cluster.databaseDir },
    'moving the embedded PostgreSQL cluster where its server user can reach it',
  );
  await rm(cluster.databaseDir, { recursive: true, force: true });
  try {
    await rename(legacyDir, cluster.databaseDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await cp(legacyDir, cluster.databaseDir, { recursive: true, verbatimSymlinks: true });
    await rm(legacyDir, { recursive: true, force: true });
  }
  const owner = cluster.owner;
  if (owner && (await stat(cluster.databaseDir)).uid !== owner.uid)
    await chownTree(cluster.databaseDir, owner.uid, owner.gid);
}

async function chownTree(target: string, uid: number, gid: number): Promise<void> {
  const info = await lstat(target);
  await (info.isSymbolicLink() ? Promise.resolve() : chown(target, uid, gid));
  if (info.isDirectory())
    for (const entry of await readdir(target)) await chownTree(path.join(target, entry), uid, gid);
}

const credentialsFile = (dataDir: string) => path.join(dataDir, 'postgres-credentials');
const pendingCredentialsFile = (dataDir: string) => `${credentialsFile(dataDir)}.pending`;

/**
 * The passwords in force, or (`pending`) new ones to put in force. New ones are written before the
 * cluster changes and promoted only once it has taken them, so a crash in between loses nothing:
 * the next start puts the same pending passwords in force again.
 */
async function credentialsOf(dataDir: string): Promise<{ credentials: Credentials; pending: boolean }> {
  const pendingFile = pendingCredentialsFile(dataDir);
  if (existsSync(pendingFile)) return { credentials: await readCredentials(pendingFile), pending: true };
  if (existsSync(credentialsFile(dataDir)))
    return { credentials: await readCredentials(credentialsFile(dataDir)), pending: false };
  const credentials: Credentials = {
    superuserPassword: randomBytes(32).toString('base64url'),
    servicePassword: randomBytes(32).toString('base64url'),
  };
  await writePrivateFile(pendingFile, `${JSON.stringify(credentials, null, 2)}\n`);
  return { credentials, pending: true };
}

async function readCredentials(file: string): Promise<Credentials> {
  const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<Credentials>;
  if (typeof parsed.superuserPassword !== 'string' || typeof parsed.servicePassword !== 'string') {
    throw new EmbeddedPostgresError(
      `${file} is not a credentials file of this service; move it away and start again (new passwords are then set).`,
    );
  }
  return { superuserPassword: parsed.superuserPassword, servicePassword: parsed.servicePassword };
}

/**
 * The form PostgreSQL stores a SCRAM-SHA-256 password in (RFC 5803): statements carry this, never
 * the password, so a server log line quoting one gives nothing away.
 */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest('base64');
  const serverKey = createHmac('sha256', salted).update('Server Key').digest('base64');
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey}:${serverKey}`;
}

async function initialise(cluster: Cluster, superuserPassword: string): Promise<void> {
  const passwordFile = path.join(cluster.privateDir, `.initdb-password-${randomBytes(6).toString('hex')}`);
  await writePrivateFile(passwordFile, `${superuserPassword}\n`);
  try {
    if (cluster.owner) await chown(passwordFile, cluster.owner.uid, cluster.owner.gid);
    await runProgram(cluster, 'initdb', [
      `--pgdata=${cluster.databaseDir}`,
      `--username=${superuser}`,
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '--encoding=UTF8',
      '--locale=C',
    ]);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

async function setSuperuserPassword(cluster: Cluster, password: string): Promise<void> {
  const output = await runProgram(
    cluster,
    'postgres',
    ['--single', '-D', cluster.databaseDir, ...serverFlags, 'postgres'],
    `ALTER ROLE ${superuser} WITH PASSWORD '${scramVerifier(password)}';\n`,
  );
  if (/\b(ERROR|FATAL):/.test(output))
    throw new Error(`Could not set the embedded superuser's password: ${output.slice(-2000)}`);
}

/** Runs one of the server's programs as the server's user; resolves with its output. */
function runProgram(cluster: Cluster, program: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(cluster.binDir, program), args, {
      ...(cluster.owner ?? {}),
      cwd: cluster.privateDir,
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => reject(cannotRun(program, error)));
    child.on('close', (code, signal) =>
      code === 0
        ? resolve(output)
        : reject(
            new Error(`${program} failed (code ${code ?? 'none'}, signal ${signal ?? 'none'}): ${output.slice(-2000)}`),
          ),
    );
    child.stdin?.end(input);
  });
}

function cannotRun(program: string, error: Error): Error {
  return new EmbeddedPostgresError(
    `Cannot run the embedded PostgreSQL's ${program}: ${error.message}. ${insteadAdvice}`,
    { cause: error },
  );
}

async function writeClusterFile(cluster: Cluster, name: string, content: string): Promise<void> {
  const file = path.join(cluster.databaseDir, name);
  await writePrivateFile(file, content);
  if (cluster.owner) await chown(file, cluster.owner.uid, cluster.owner.gid);
}

/** Servers of this process, stopped if it exits without stopping them (an uncaught error, say). */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

async function startServer(
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
 * Every start: the service's role (not a superuser, its password from the credentials file), its
 * database, owned by that role, and what the migrations cannot do themselves (pg_trgm). Objects
 * the superuser owns there (all of them, in folders made by older versions) are handed over to
 * the role, so that the migrations that alter them keep working.
 */
async function prepareDatabase(port: number, credentials: Credentials): Promise<void> {
  const connect = async (database: string) => {
    const client = new pg.Client({
      host: '127.0.0.1',
      port,
      user: superuser,
      password: credentials.superuserPassword,
      database,
    });
    await client.connect();
    return client;
  };
  const server = await connect('postgres');
  try {
    const exists = (await server.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [serviceRole])).rowCount === 1;
    await server.query(
      `${exists ? 'ALTER' : 'CREATE'} ROLE ${serviceRole} WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS ` +
        `PASSWORD '${scramVerifier(credentials.servicePassword)}'`,
    );
    const database = await server.query<{ owner: string }>(
      'SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1',
      [databaseName],
    );
    if (!database.rows[0]) await server.query(`CREATE DATABASE ${databaseName} OWNER ${serviceRole}`);
    else if (database.rows[0].owner !== serviceRole)
      await server.query(`ALTER DATABASE ${databaseName} OWNER TO ${serviceRole}`);
  } finally {
    await server.end();
  }
  const database = await connect(databaseName);
  try {
    await database.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await database.query(handOverToServiceRole);
  } finally {
    await database.end();
  }
}

const handOverToServiceRole = `
DO $$
DECLARE
  statement text;
BEGIN
  FOR statement IN
    SELECT format('ALTER SCHEMA %I OWNER TO ${serviceRole}', n.nspname)
      FROM pg_namespace n
     WHERE n.nspowner = '${superuser}'::regrole AND n.nspname <> 'public' AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
    UNION ALL
    SELECT format('ALTER %s %s OWNER TO ${serviceRole}',
                  CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE'
                                 WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
                  c.oid::regclass)
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relowner = '${superuser}'::regrole AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
       AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
       -- sequences of serial and identity columns follow their table; extensions keep their objects
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i', 'e'))
    UNION ALL
    SELECT format('ALTER ROUTINE %s OWNER TO ${serviceRole}', p.oid::regprocedure)
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE p.proowner = '${superuser}'::regrole AND p.prokind IN ('f', 'p')
       AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
    UNION ALL
    SELECT format('ALTER TYPE %s OWNER TO ${serviceRole}', t.oid::regtype)
      FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE t.typowner = '${superuser}'::regrole AND t.typtype IN ('e', 'd', 'r')
       AND n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema'
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e')
  LOOP
    EXECUTE statement;
  END LOOP;
END
$$`;

/**
 * A process killed without its shutdown leaves its PostgreSQL running and the data folder
 * locked; ask that server to stop so this start can take the folder over. A server whose
 * owning process is still alive is in use (the service is running): refuse instead.
 */
async function stopOrphanedServer(databaseDir: string, ownerFile: string, log: Logger): Promise<void> {
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
