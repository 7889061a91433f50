import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateApiKey } from '../../src/core/api-keys.js';
import { loadConfig } from '../../src/config.js';
import type { Services } from '../../src/context.js';
import { createAccount, type Plan } from '../../src/core/accounts.js';
import { addMailRecipient } from '../../src/core/mail-recipients.js';
import { createLogger, type Logger } from '../../src/log.js';
import { startService, type RunningService } from '../../src/service.js';
import type { Database } from '../../src/store/db.js';
import { createTestDatabase } from './database.js';
import { createLogScanner } from './log-scanner.js';

export interface TestApp {
  url: string;
  /** Key of the demo account, which starts with `demoCredits` credits. */
  apiKey: string;
  service: RunningService;
  db: Database;
  dataDir: string;
  /** Another account, with its own key and credits. */
  /** `recipients`: addresses its notifications may be mailed to (besides `email`). */
  createAccount(options?: {
    credits?: number;
    plan?: Plan;
    email?: string;
    recipients?: string[];
  }): Promise<{ accountId: number; apiKey: string }>;
  /** JSON over HTTP: returns status, parsed body and headers. */
  request(method: string, pathAndQuery: string, body?: unknown): Promise<TestResponse>;
  stop(): Promise<void>;
}

export interface TestResponse {
  status: number;
  body: any;
  headers: Headers;
}

export interface TestAppOptions {
  catalog?: 'seeded' | 'empty';
  env?: Record<string, string>;
  demoCredits?: number;
  /** Replacements for services built from the configuration (see `replaceable` for ones a test changes between cases). */
  services?: Partial<Services>;
  /** Where the service logs; by default a scanner that fails `stop()` when a line holds a key, token, email or phone number. */
  log?: Logger;
}

/** The real service on a free port, on a database of its own. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase(options.catalog ?? 'seeded');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-app-'));
  const apiKey = generateApiKey();
  const config = loadConfig({
    DATABASE_URL: database.connectionString,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SEED_ON_EMPTY: 'false',
    DEMO_API_KEY: apiKey,
    DEMO_CREDITS: String(options.demoCredits ?? 1_000_000),
    JOB_POLL_INTERVAL_MS: '50',
    // CI runs the MCP tests a second time with MCP_DIRECT_PATH=false: every answer then comes from the SDK's path.
    ...(process.env.MCP_DIRECT_PATH ? { MCP_DIRECT_PATH: process.env.MCP_DIRECT_PATH } : {}),
    ...options.env,
  });
  const scanner = options.log ? null : createLogScanner();
  const service = await startService(config, {
    log: options.log ?? createLogger('debug', scanner?.stream),
    ...(options.services ? { services: options.services } : {}),
  });
  const request = async (method: string, pathAndQuery: string, body?: unknown): Promise<TestResponse> => {
    const response = await fetch(`${service.url}${pathAndQuery}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (CSV, text): keep the text
    }
    return { status: response.status, body: parsed, headers: response.headers };
  };
  return {
    url: service.url,
    apiKey,
    service,
    db: database.db,
    dataDir,
    request,
    createAccount: async ({ credits = 1000, plan = 'pro', email, recipients = [] } = {}) => {
      const created = await createAccount(database.db, {
        name: `Test account ${Math.random().toString(36).slice(2, 8)}`,
        plan,
        email: email ?? null,
        initialCredits: credits,
      });
      for (const recipient of recipients) await addMailRecipient(database.db.pool, created.account.id, recipient);
      return { accountId: created.account.id, apiKey: created.apiKey };
    },
    stop: async () => {
      await service.stop();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
      if (scanner?.findings.length) {
        throw new Error(
          `The service logged what it must not (${scanner.findings.length} lines):\n${scanner.findings.slice(0, 10).join('\n')}`,
        );
      }
    },
  };
}
