import { loadConfig } from '../config.js';
import { parseFlags, runCli, UsageError } from './cli.js';
import { createLogger } from '../log.js';
import { isCatalogEmpty, seedCatalog } from '../seed/load.js';
import { CATALOG_TABLES } from '../store/tables/catalog.js';
import type { Queryable } from '../store/db.js';
import { openStore } from '../store/open.js';

const usage = `Generate the demo catalog (companies, people, contact points) and load it.

  npm run seed -- [--companies N] [--people M] [--seed S] [--reset]

  --companies N   companies to generate (default: SEED_COMPANIES, else 20000)
  --people M      people to generate (default: SEED_PEOPLE, else 200000)
  --seed S        any integer; the same seed gives the same data everywhere (default: SEED, else 42)
  --reset         empty companies, people and person_contacts first (otherwise a
                  non-empty catalog is left alone and the command fails)
  --force         with --reset: replace the catalog even though audiences or exclusion
                  lists refer to its records (they would then name other records, or none)

Uses DATABASE_URL, or the embedded server under DATA_DIR (the service must not be running on it).`;

function integerFlag(
  value: string | undefined,
  flag: string,
  fallback: number,
  options: { min?: number } = {},
): number {
  if (value === undefined) return fallback;
  const parsed = /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed)) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
  if (options.min !== undefined && parsed < options.min)
    throw new UsageError(`${flag} must be at least ${options.min}, got "${value}"`);
  return parsed;
}

async function main(): Promise<number> {
  const values = parseFlags(
    process.argv.slice(2),
    {
      companies: { type: 'string' },
      people: { type: 'string' },
      seed: { type: 'string' },
      reset: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    usage,
  );
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const config = loadConfig();
  const companies = integerFlag(values.companies, '--companies', config.SEED_COMPANIES, { min: 0 });
  const people = integerFlag(values.people, '--people', config.SEED_PEOPLE, { min: 0 });
  const seed = integerFlag(values.seed, '--seed', config.SEED);
  if (people > 0 && companies === 0) throw new UsageError('--people needs at least one company (--companies > 0)');

  const store = await openStore(config, createLogger('warn'));
  try {
    if (!(await isCatalogEmpty(store.db))) {
      if (!values.reset) {
        process.stderr.write('The catalog is not empty: nothing was changed. Pass --reset to replace it.\n');
        return 1;
      }
      const references = await catalogReferences(store.db.pool);
      if ((references.audiences > 0 || references.exclusionLists > 0) && !values.force) {
        process.stderr.write(
          `The catalog is referred to by ${references.audiences} audience(s) and ${references.exclusionLists} exclusion list(s): ` +
            'a new catalog would leave them naming companies and people that are gone or different. Nothing was changed. ' +
            'Pass --reset --force to replace it anyway.\n',
        );
        return 1;
      }
      process.stdout.write(`Emptying ${CATALOG_TABLES.join(', ')} ...\n`);
      await store.db.pool.query(`TRUNCATE ${CATALOG_TABLES.join(', ')}`);
    }
    process.stdout.write(
      `Seeding ${companies.toLocaleString('en')} companies and ${people.toLocaleString('en')} people (seed ${seed}) ...\n`,
    );
    let lastTable = '';
    let lastShown = 0;
    const result = await seedCatalog(store.db, {
      companies,
      people,
      seed,
      onProgress: ({ table, done, total }) => {
        const now = Date.now();
        if (table !== lastTable || done === total || now - lastShown >= 2000) {
          lastTable = table;
          lastShown = now;
          const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
          process.stdout.write(
            `  ${table.padEnd(10)} ${done.toLocaleString('en')} / ${total.toLocaleString('en')} (${percent}%)\n`,
          );
        }
      },
    });
    const seconds = result.milliseconds / 1000;
    const rows = result.companies + result.people + result.contacts;
    process.stdout.write(
      `Loaded ${result.companies.toLocaleString('en')} companies, ${result.people.toLocaleString('en')} people and ` +
        `${result.contacts.toLocaleString('en')} contact points in ${seconds.toFixed(1)} s ` +
        `(${Math.round(rows / Math.max(seconds, 0.001)).toLocaleString('en')} rows/s).\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}

/** What of the accounts' data holds catalog ids: audiences (their members) and exclusion lists. */
async function catalogReferences(db: Queryable): Promise<{ audiences: number; exclusionLists: number }> {
  const result = await db.query<{ audiences: number; lists: number }>(
    `SELECT (SELECT count(*) FROM audiences)::int AS audiences, (SELECT count(*) FROM exclusion_lists)::int AS lists`,
  );
  const row = result.rows[0];
  return { audiences: row?.audiences ?? 0, exclusionLists: row?.lists ?? 0 };
}

runCli(main);
