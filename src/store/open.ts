import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { openDatabase, type Database } from './db.js';
import { embeddedSettingsOf, startEmbeddedPostgres, type EmbeddedServer } from './embedded.js';
import { migrate } from './migrate.js';

export interface OpenStore {
  db: Database;
  close(): Promise<void>;
}

/**
 * For command-line tools: the configured server (DATABASE_URL) or the embedded one under
 * DATA_DIR, migrated. The embedded data folder admits one server at a time, so the tools
 * run while the service is stopped, or against DATABASE_URL.
 */
export async function openStore(config: Config, log: Logger): Promise<OpenStore> {
  let embedded: EmbeddedServer | null = null;
  let url = config.DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedPostgres(config.dataDir, log, { settings: embeddedSettingsOf(config) });
    url = embedded.connectionString;
  }
  const db = openDatabase(url, config.DATABASE_POOL_SIZE);
  await migrate(db.pool);
  return {
    db,
    close: async () => {
      await db.close();
      await embedded?.stop();
    },
  };
}
