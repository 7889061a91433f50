import { createLogger } from '../src/log.js';
import { arg, openBenchDatabase } from './lib.js';

/**
 * Seeds (or, with --reuse, keeps) the search benchmarks' catalog database without measuring, so a
 * long seed can run apart from the measurements:
 *   node dist/bench/prepare.js --companies N --people M [--reuse] [--admin-url postgres://...]
 * On --admin-url's server, else DATABASE_URL's, else the embedded one (kept in BENCH_DATA_DIR with --reuse).
 */
const companies = Number(arg('companies', '20000'));
const people = Number(arg('people', '200000'));
const adminUrl = arg('admin-url');
let lastShown = 0;
const database = await openBenchDatabase({
  name: 'search',
  companies,
  people,
  reuse: process.argv.includes('--reuse'),
  log: createLogger('warn'),
  ...(adminUrl ? { adminUrl } : {}),
  onProgress: ({ table, done, total }) => {
    if (Date.now() - lastShown > 10_000 || done === total) {
      lastShown = Date.now();
      process.stderr.write(`  seeding ${table}: ${done}/${total}\n`);
    }
  },
});
process.stderr.write(
  `${database.seedSeconds === null ? 'reused' : `seeded in ${database.seedSeconds} s`}: ${JSON.stringify(database.settings)}\n`,
);
await database.close();
