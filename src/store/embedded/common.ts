/** What the parts of the embedded server (src/store/embedded.ts) share: its names, its error, the cluster's shape. */

/** Said when the embedded server cannot work here at all, with what to do instead. */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

export const databaseName = 'prospecting';
export const superuser = 'postgres';
export const serviceRole = 'prospecting';
/**
 * As root: PostgreSQL refuses to run as root, so it runs as the `postgres` system user, which
 * cannot enter a private DATA_DIR (nor the node_modules of a private clone). Its binaries and its
 * cluster live here instead, one cluster per DATA_DIR, owned by that user and private to it.
 */
export const rootStateDir = '/var/lib/prospecting-data-service/embedded-postgres';
export const insteadAdvice = 'Run the service as an ordinary user, or set DATABASE_URL to a PostgreSQL server.';

/** Where a cluster's files are, which programs run it, and as whom. */
export interface Cluster {
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

export function cannotRun(program: string, error: Error): Error {
  return new EmbeddedPostgresError(
    `Cannot run the embedded PostgreSQL's ${program}: ${error.message}. ${insteadAdvice}`,
    { cause: error },
  );
}
