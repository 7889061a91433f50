import { chmod, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { startService } from '../../src/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * DATA_DIR holds the demo key (and the database credentials, exports, mail): with DATABASE_URL
 * too, the service makes it private whatever mode it had and whatever the umask.
 */
describe('the data folder', () => {
  let database: TestDatabase | null = null;
  let parent: string | null = null;
  afterAll(async () => {
    await database?.drop();
    if (parent) await rm(parent, { recursive: true, force: true });
  });

  it('is made 0700, and the demo key file 0600, from a folder left open and under umask 0', async () => {
    database = await createTestDatabase('empty');
    parent = await mkdtemp(path.join(os.tmpdir(), 'pds-datadir-'));
    const dataDir = path.join(parent, 'data');
    await mkdir(dataDir);
    await chmod(dataDir, 0o755);
    const umask = process.umask(0);
    try {
      const service = await startService(
        loadConfig({
          DATABASE_URL: database.connectionString,
          DATA_DIR: dataDir,
          PORT: '0',
          HOST: '127.0.0.1',
          LOG_LEVEL: 'silent',
          SEED_ON_EMPTY: 'false',
          JOB_WORKER: 'false',
        }),
        { log: createLogger('silent') },
      );
      await service.stop();
      expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
      const keyFile = path.join(dataDir, 'demo-api-key');
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
      expect((await readFile(keyFile, 'utf8')).trim()).toBe(service.demoApiKey);
    } finally {
      process.umask(umask);
    }
  });
});
