import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ApiKeyAuthenticator } from '../src/auth/api-key-authenticator.js';
import { generateApiKey } from '../src/core/api-keys.js';
import { createAccount } from '../src/core/accounts.js';
import { createLogger } from '../src/log.js';
import { openDatabase, type Queryable } from '../src/store/db.js';
import { startEmbeddedPostgres, type EmbeddedServer } from '../src/store/embedded.js';
import { migrate } from '../src/store/migrate.js';
import { arg, percentile, round } from './lib.js';

/**
 * A valid API key's authentication while random keys are sprayed at the service (issue 22,
 * item 16): the authenticator of src/auth/api-key-authenticator.ts, in process, on PostgreSQL, with its
 * production settings (5 s time to live, 10,000 valid and 1,000 unknown keys cached apart).
 * The valid key is authenticated as a busy client would, 10 times after every 100 random keys
 * (sent 100 at a time); its latency then is compared with a quiet cache's, and the database round
 * trips it needed are counted (one per time to live is expected; an eviction would add more).
 *
 *   node dist/bench/api-keys.js [--keys 50000]
 * Uses DATABASE_URL's server when set (a fresh database is created on it), else embedded PostgreSQL.
 */
const sprayed = Number(arg('keys', '50000'));
const say = (line: string) => process.stderr.write(`${line}\n`);
const log = createLogger('warn');

let embedded: EmbeddedServer | null = null;
const scratch = await mkdtemp(path.join(os.tmpdir(), 'pds-bench-keys-'));
// As root the embedded server runs as its own user, which must be able to enter this folder.
await chmod(scratch, 0o755);
let adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  embedded = await startEmbeddedPostgres(path.join(scratch, 'pg'), log, { temporary: true });
  adminUrl = embedded.adminConnectionString;
}
const databaseName = `pds_bench_keys_${process.pid}`;
const databaseUrl = new URL(adminUrl);
databaseUrl.pathname = `/${databaseName}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${databaseName}`);
const db = openDatabase(databaseUrl.toString(), 10);
try {
  await migrate(db.pool);
  const { apiKey } = await createAccount(db, { name: 'bench keys', initialCredits: 0 });
  let queries = 0;
  const counting: Queryable = {
    query: ((...args: unknown[]) => {
      queries += 1;
      return (db.pool.query as (...a: unknown[]) => unknown)(...args);
    }) as Queryable['query'],
  };
  const authenticator = new ApiKeyAuthenticator(counting);
  const timed = async (): Promise<number> => {
    const started = process.hrtime.bigint();
    const principal = await authenticator.authenticate(apiKey);
    if (!principal) throw new Error('the valid key did not authenticate');
    return Number(process.hrtime.bigint() - started) / 1000;
  };

  // Quiet: the key cached, nothing else asked.
  await timed();
  const quiet: number[] = [];
  for (let i = 0; i < 5_000; i += 1) quiet.push(await timed());

  say(`spraying ${sprayed} random keys ...`);
  const during: number[] = [];
  let validTrips = 0;
  const sprayStarted = Date.now();
  for (let sent = 0; sent < sprayed; sent += 100) {
    await Promise.all(Array.from({ length: 100 }, () => authenticator.authenticate(generateApiKey())));
    for (let i = 0; i < 10; i += 1) {
      const before = queries;
      during.push(await timed());
      validTrips += queries - before;
    }
  }
  const spraySeconds = (Date.now() - sprayStarted) / 1000;
  const cached = authenticator.cached;

  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return `${round(percentile(sorted, 50), 1)} | ${round(percentile(sorted, 99), 1)} | ${round(sorted.at(-1) ?? NaN, 0)}`;
  };
  process.stdout.write(
    [
      `A valid key authenticated 5,000 times on a quiet cache, then 10 times after every 100 of ${sprayed.toLocaleString('en')} random keys ` +
        `(sent 100 at a time, each a database lookup: ${round(sprayed / spraySeconds, 0).toLocaleString('en')} keys/s, ${round(spraySeconds, 1)} s); ` +
        'in process, production cache settings (5 s time to live; 10,000 valid and 1,000 unknown keys, cached apart).',
      '',
      '| valid key | calls | p50 µs | p99 µs | max µs |',
      '|---|---:|---:|---:|---:|',
      `| quiet cache | ${quiet.length} | ${summary(quiet)} |`,
      `| during the spray | ${during.length} | ${summary(during)} |`,
      '',
      `Database round trips for the valid key during the spray: **${validTrips}** (its 5 s time to live over ${round(spraySeconds, 1)} s ` +
        `allows ${Math.ceil(spraySeconds / 5)}; an eviction by the random keys would add one each time). ` +
        `Cached after the spray: ${cached.known} valid key, ${cached.unknown.toLocaleString('en')} unknown ones (the bound).`,
      '',
    ].join('\n'),
  );
} finally {
  await db.close();
  await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
  await embedded?.stop();
  await rm(scratch, { recursive: true, force: true });
}
