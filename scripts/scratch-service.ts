import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { generateApiKey } from '../src/core/api-keys.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';
import { startService, type RunningService } from '../src/service.js';

export interface ScratchService {
  service: RunningService;
  /** A folder of its own (0755, so that tools run beside it can read it), removed by stop(). */
  scratch: string;
  /** The demo account's key. */
  apiKey: string;
  stop(): Promise<void>;
}

/**
 * The service for a script that checks it from outside (the MCP conformance suite, the Inspector):
 * on loopback, silent, with a demo key, on a database of its own (one made on DATABASE_URL's
 * server, else a temporary embedded cluster, which as root lives outside the scratch folder) that
 * stop() removes with everything else.
 */
export async function startScratchService(name: string, env: Record<string, string>): Promise<ScratchService> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), `pds-${name}-`));
  await chmod(scratch, 0o755);
  const adminUrl = process.env.DATABASE_URL;
  const databaseName = `pds_${name}_${process.pid}`;
  let databaseUrl: string | undefined;
  if (adminUrl) {
    await withClient(adminUrl, (client) => client.query(`CREATE DATABASE ${databaseName}`));
    const url = new URL(adminUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  const apiKey = generateApiKey();
  const service = await startService(
    loadConfig({
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      DATA_DIR: path.join(scratch, 'data'),
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'silent',
      DEMO_API_KEY: apiKey,
      JOB_WORKER: 'false',
      // The conformance suite runs once with the direct path and once without it (MCP_DIRECT_PATH=false).
      ...(process.env.MCP_DIRECT_PATH ? { MCP_DIRECT_PATH: process.env.MCP_DIRECT_PATH } : {}),
      ...env,
    }),
    { log: createLogger('silent'), temporaryDatabase: true },
  );
  return {
    service,
    scratch,
    apiKey,
    stop: async () => {
      await service.stop();
      if (adminUrl)
        await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`));
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

async function withClient(connectionString: string, use: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await use(client);
  } finally {
    await client.end();
  }
}
