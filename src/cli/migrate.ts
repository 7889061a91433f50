import { loadConfig } from '../config.js';
import { createLogger } from '../log.js';
import { openDatabase } from '../store/db.js';
import { embeddedSettingsOf, startEmbeddedPostgres, type EmbeddedServer } from '../store/embedded.js';
import { EditedMigrationError, migrate, PendingMigrationsError } from '../store/migrate.js';
import { parseFlags, runCli } from './cli.js';

const usage = `Apply the database migrations the service needs, then exit: the deploy step on a server.

  npm run migrate [-- --check]

  --check   apply nothing: exit 0 when the database has every migration, 1 naming those it lacks

Uses DATABASE_URL, or the embedded server under DATA_DIR (the service must not be running on it).
Migrations marked to run outside a transaction build their indexes without blocking writes, and
may take minutes on a large catalog; run this before starting the new version's instances (with
MIGRATE_ON_START=false, which makes a start refuse a database that lacks a migration). Exit 1 as
well when an applied migration was edited since it ran.`;

async function main(): Promise<number> {
  const values = parseFlags(process.argv.slice(2), { check: { type: 'boolean' }, help: { type: 'boolean' } }, usage);
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const config = loadConfig();
  const log = createLogger(config.LOG_LEVEL);
  let embedded: EmbeddedServer | null = null;
  let url = config.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedPostgres(config.dataDir, log, { settings: embeddedSettingsOf(config) });
    url = embedded.connectionString;
  }
  const db = openDatabase(url, 2);
  try {
    const applied = await migrate(db.pool, {
      apply: !values.check,
      onProgress: (message) => process.stdout.write(`${message}\n`),
    });
    process.stdout.write(
      applied.length ? `Applied ${applied.length} migration(s).\n` : 'The database has every migration.\n',
    );
    return 0;
  } finally {
    await db.close();
    await embedded?.stop();
  }
}

runCli(main, (error) =>
  error instanceof EditedMigrationError || error instanceof PendingMigrationsError
    ? { message: error.message, exitCode: 1 }
    : undefined,
);
