import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, cp, lstat, mkdir, readdir, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../log.js';
import { writePrivateFile } from '../data-dir.js';
import { rootPreparation, serverPrograms } from './binaries.js';
import { cannotRun, EmbeddedPostgresError, rootStateDir, superuser, type Cluster } from './common.js';
import { scramVerifier } from './credentials.js';
import { stopOrphanedServer } from './server.js';
import { serverFlags } from './settings.js';

/** The cluster's folder: where it lives, the move of an older version's, its creation, and the programs run on it. */

/** Where the cluster lives and who runs it; see rootStateDir for why root differs. */
export async function clusterFor(dataDir: string): Promise<Cluster> {
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
 * Older versions kept the cluster in DATA_DIR/postgres even as root (with DATA_DIR opened to
 * 0711 for the postgres user). As root it now lives under rootStateDir: move it there, once.
 */
export async function adoptLegacyCluster(
  legacyDir: string,
  cluster: Cluster,
  ownerFile: string,
  log: Logger,
): Promise<void> {
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

export async function initialise(cluster: Cluster, superuserPassword: string): Promise<void> {
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

export async function setSuperuserPassword(cluster: Cluster, password: string): Promise<void> {
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

export async function writeClusterFile(cluster: Cluster, name: string, content: string): Promise<void> {
  const file = path.join(cluster.databaseDir, name);
  await writePrivateFile(file, content);
  if (cluster.owner) await chown(file, cluster.owner.uid, cluster.owner.gid);
}
