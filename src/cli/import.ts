import { loadConfig } from '../config.js';
import { createLogger } from '../log.js';
import { detectFormat, importFile } from '../seed/import/import-file.js';
import { ImportFileError, formatRejection, type ImportKind } from '../seed/import/results.js';
import { openStore } from '../store/open.js';
import { parseFlags, runCli, UsageError } from './cli.js';

const usage = `Load your own companies or people into the catalog.

  npm run import -- --kind companies|people --file PATH [--format jsonl|csv]

  --kind      companies or people
  --file      a JSON Lines file (one record per line) or a CSV file with a header row
  --format    jsonl or csv; by default taken from the extension (.jsonl/.ndjson/.json, .csv)

Field names are those of the API's records (preferred_name, domains, employee_count_consensus,
location_consensus, first_name, current_company, ...). In CSV, nested fields are dotted columns
(employee_count_consensus.min), lists are ;-separated, and lists of objects (languages, education,
work_experiences) are JSON. A row with an existing id updates that record (fields it leaves out keep
their value); rows without an id are added with new ids. Bad rows are reported with their line
number and skipped.

Uses DATABASE_URL, or the embedded server under DATA_DIR (the service must not be running on it).`;

const kinds: readonly ImportKind[] = ['companies', 'people'];
const MAX_REPORTED = 200;

async function main(): Promise<number> {
  const values = parseFlags(
    process.argv.slice(2),
    {
      kind: { type: 'string' },
      file: { type: 'string' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    usage,
  );
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  if (!values.kind || !(kinds as readonly string[]).includes(values.kind)) {
    throw new UsageError(`--kind must be one of ${kinds.join(', ')}${values.kind ? `, got "${values.kind}"` : ''}`);
  }
  if (!values.file) throw new UsageError('--file is required');
  if (values.format !== undefined && values.format !== 'jsonl' && values.format !== 'csv') {
    throw new UsageError(`--format must be jsonl or csv, got "${values.format}"`);
  }
  const kind = values.kind as ImportKind;
  const format = detectFormat(values.file, values.format);

  const store = await openStore(loadConfig(), createLogger('warn'));
  try {
    const result = await importFile(store.db, {
      kind,
      file: values.file,
      format,
      onProgress: ({ read, rejected }) =>
        process.stdout.write(`  ${read.toLocaleString('en')} rows read, ${rejected.toLocaleString('en')} rejected\n`),
    });
    for (const rejection of result.rejected.slice(0, MAX_REPORTED))
      process.stderr.write(`${formatRejection(rejection)}\n`);
    if (result.rejected.length > MAX_REPORTED) {
      process.stderr.write(
        `... and ${(result.rejected.length - MAX_REPORTED).toLocaleString('en')} more rejected rows\n`,
      );
    }
    const loaded = result.inserted + result.updated;
    process.stdout.write(
      `${kind}: ${result.read.toLocaleString('en')} rows read, ${result.inserted.toLocaleString('en')} added, ` +
        `${result.updated.toLocaleString('en')} updated, ${result.rejected.length.toLocaleString('en')} rejected` +
        (kind === 'people'
          ? `; ${result.companiesResolved.toLocaleString('en')} matched to a catalog company, ${result.contacts.toLocaleString('en')} contact points added`
          : '') +
        ` (${(result.milliseconds / 1000).toFixed(1)} s).\n`,
    );
    if (loaded === 0) {
      process.stderr.write('No valid row: nothing was loaded.\n');
      return 1;
    }
    return 0;
  } finally {
    await store.close();
  }
}

runCli(main, (error) =>
  error instanceof ImportFileError ? { message: `Import failed: ${error.message}`, exitCode: 1 } : undefined,
);
