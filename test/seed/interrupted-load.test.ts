import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { readSearchIndexDefinitions } from '../../src/seed/search-indexes.js';
import { startService } from '../../src/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * A large seed drops the search indexes, commits the rows and builds the indexes again. A process stopped after the
 * commit left a catalog that no later start seeded or indexed: every search read every row. The next start repairs it.
 */
describe('a start after a load stopped before its indexes were built', () => {
  let database: TestDatabase | null = null;
  let dataDir: string | null = null;
  afterAll(async () => {
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('builds the missing search indexes and keeps the rows as they are', async () => {
    database = await createTestDatabase('seeded');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-interrupted-'));
    const { pool } = database.db;
    const dropped = ['people_title_words_trgm', 'companies_state_lower'];
    const definitions = new Map(
      (await readSearchIndexDefinitions()).map((definition) => [definition.name, definition]),
    );
    for (const name of dropped) expect(definitions.has(name), name).toBe(true);
    for (const name of dropped) await pool.query(`DROP INDEX ${name}`);
    const countsBefore = await pool.query(
      'SELECT (SELECT count(*) FROM companies) AS companies, (SELECT count(*) FROM people) AS people',
    );

    const lines: string[] = [];
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    const service = await startService(
      loadConfig({
        DATABASE_URL: database.connectionString,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        JOB_WORKER: 'false',
      }),
      { log: createLogger('info', sink) },
    );
    await service.stop();

    const present = await pool.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE indexname = ANY($1)`,
      [dropped],
    );
    expect(present.rows.map((row) => row.indexname).sort()).toEqual([...dropped].sort());
    expect(present.rows.find((row) => row.indexname === 'people_title_words_trgm')?.indexdef).toMatch(/gin_trgm_ops/);
    const countsAfter = await pool.query(
      'SELECT (SELECT count(*) FROM companies) AS companies, (SELECT count(*) FROM people) AS people',
    );
    expect(countsAfter.rows).toEqual(countsBefore.rows);
    const warning = lines
      .map((line) => JSON.parse(line) as { msg: string; built?: string[] })
      .find((entry) => entry.msg === 'missing search indexes built');
    expect(warning?.built?.sort()).toEqual([...dropped].sort());
  });

  it('builds nothing when every index is in place', async () => {
    const lines: string[] = [];
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => lines.push(chunk.toString('utf8')));
    const service = await startService(
      loadConfig({
        DATABASE_URL: (database as TestDatabase).connectionString,
        DATA_DIR: dataDir as string,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        JOB_WORKER: 'false',
      }),
      { log: createLogger('info', sink) },
    );
    await service.stop();
    expect(lines.join('')).not.toContain('missing search indexes built');
  });
});
