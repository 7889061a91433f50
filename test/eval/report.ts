import path from 'node:path';
import { operations } from '../../operations/index.js';
import { readExamples } from '../../src/mcp/ranker/examples.js';
import { ranker } from '../../src/mcp/ranker/index.js';
import { crossValidate, evalSets, figures, scoreWithService } from './sets.js';

/**
 * The ranker's figures, as docs/decisions/0002-ranker.md gives them:
 *   npx tsx test/eval/report.ts              every evaluation set (data/ranker/evaluation/*.jsonl), scored by the committed model
 *   npx tsx test/eval/report.ts --cv         and every labelled set left out of the training in turn (a minute or two)
 *   npx tsx test/eval/report.ts FILE.jsonl   a set kept elsewhere (a sealed blind set, scored once), misses listed
 */
const args = process.argv.slice(2);
const files = args.filter((arg) => arg.endsWith('.jsonl'));
const known = new Set(operations.map((operation) => operation.operationId));
const sets = files.length
  ? files.map((file) => ({ name: path.basename(file, '.jsonl'), phrasings: readExamples(file, known) }))
  : evalSets();
for (const { name, phrasings } of sets) {
  const scored = scoreWithService(phrasings, ranker());
  process.stdout.write(`${name}: ${figures(scored)}\n`);
  if (files.length || args.includes('--misses')) for (const miss of scored.misses) process.stdout.write(`  ${miss}\n`);
}
if (args.includes('--cv')) {
  const { total, bySet } = crossValidate();
  const group = (pattern: RegExp) => {
    const chosen = [...bySet].filter(([set]) => pattern.test(set)).map(([, each]) => each);
    const sum = (pick: 'count' | 'top1' | 'top3') => chosen.reduce((n, each) => n + each[pick], 0);
    return { count: sum('count'), top1: sum('top1'), top3: sum('top3'), misses: [] };
  };
  process.stdout.write(`every labelled set left out in turn (${bySet.size} sets): ${figures(total)}\n`);
  process.stdout.write(`  of which the first set and the tuning half: ${figures(group(/^(first|tuning)$/))}\n`);
  process.stdout.write(`  the probe sets p1 to p8: ${figures(group(/^p\d+$/))}\n`);
  process.stdout.write(`  the written groups w1 to w50: ${figures(group(/^w([1-9]|[1-4]\d|50)$/))}\n`);
  process.stdout.write(`  the written groups w51 and w52: ${figures(group(/^w5[12]$/))}\n`);
  process.stdout.write(`  the written groups w53 and w54: ${figures(group(/^w5[34]$/))}\n`);
  process.stdout.write(`  the webhook groups wh1 to wh11: ${figures(group(/^wh([1-9]|1[01])$/))}\n`);
  process.stdout.write(`  the webhook groups wh12 to wh15: ${figures(group(/^wh1[2-5]$/))}\n`);
  process.stdout.write(`  the usage groups us1 to us4: ${figures(group(/^us\d$/))}\n`);
  process.stdout.write(`  the watch-list groups wl1 to wl4: ${figures(group(/^wl\d$/))}\n`);
  process.stdout.write(`  the parse and match groups pq, mc, mp 1 to 4: ${figures(group(/^(pq|mc|mp)\d$/))}\n`);
  process.stdout.write(`  the lookalike groups ls1 to ls4: ${figures(group(/^ls\d$/))}\n`);
  process.stdout.write(`  every group from before this session's: ${figures(group(/^(?!(wl|pq|mc|mp|ls)\d$)/))}\n`);
}
