import { describe, expect, it } from 'vitest';
import { findOperation, operations } from '../../../operations/index.js';
import { conceptsOf, corrected, readQuery, spellingOf, terms, words } from '../../../src/mcp/concepts.js';
import { ExampleIndex } from '../../../src/mcp/examples.js';
import { intents } from '../../../src/mcp/phrasings/first-set.js';
import { phrasings } from '../../../src/mcp/phrasings/generalisation.js';
import { blind } from '../../../src/mcp/phrasings/blind.js';
import { examplePhrasings } from '../../../src/mcp/phrasings/index.js';
import { probes } from '../../../src/mcp/phrasings/probes.js';
import { heldOut, isHeldOut, tuning } from '../../../src/mcp/phrasings/split.js';
import { written } from '../../../src/mcp/phrasings/written.js';
import { fused, rankOperations, searchEndpoints } from '../../../src/mcp/search.js';
import { percent, score, type Score } from '../../mcp/intents/score.js';

/**
 * search_endpoints' ranking, without the server. The generalisation set (src/mcp/phrasings/) is
 * scored as split: the tuning set, which the ranker's authors looked at, and the held-out set,
 * which is only ever scored; the issue's targets are in BENCHMARKS.md beside these figures.
 * The ranker learns from labelled phrasings (the first set, the tuning set, the probe sets), so
 * each of those is scored against examples without it: a set is never scored on itself.
 */

const rank = (query: string) => searchEndpoints(query, { limit: 3 }).map((r) => r.operationId);
/** The ranking from the operations' own words alone, without any example. */
const describedRanking = (query: string) => rankOperations(query, new ExampleIndex([])).map((r) => r.id);
/** A ranker whose examples leave out the phrasings of `sources`. */
const rankWithout = (...sources: string[]) => {
  const examples = new ExampleIndex(examplePhrasings.filter((example) => !sources.includes(example.source)));
  return (query: string) =>
    rankOperations(query, examples)
      .slice(0, 3)
      .map((r) => r.id);
};
const total = (scores: Score[]): Score => {
  const sum = (pick: (s: Score) => number) => scores.reduce((n, s) => n + pick(s), 0);
  const count = sum((s) => s.count);
  return {
    count,
    top1: sum((s) => s.top1),
    top3: sum((s) => s.top3),
    top1Rate: sum((s) => s.top1) / count,
    top3Rate: sum((s) => s.top3) / count,
    misses: scores.flatMap((s) => s.misses),
  };
};
/** Phrasings of operations this registry has (the set covers the operations of issue 13 too). */
const known = <T extends { expected: string }>(set: readonly T[]) =>
  set.filter((p) => findOperation(p.expected) !== undefined);

describe('the generalisation set', () => {
  it('is split by the text of each query alone, as split.ts says, and stays the size it was written at', () => {
    expect(phrasings).toHaveLength(301);
    expect(new Set(phrasings.map((p) => p.query)).size).toBe(phrasings.length);
    expect(tuning).toHaveLength(171);
    expect(heldOut).toHaveLength(130);
    for (const p of heldOut) expect(isHeldOut(p.query)).toBe(true);
    for (const p of tuning) expect(isHeldOut(p.query)).toBe(false);
    // Every operation of the registry has phrasings in the set, in all five styles together.
    const covered = new Set(phrasings.map((p) => p.expected));
    for (const operation of operations) expect(covered.has(operation.operationId), operation.operationId).toBe(true);
    expect(new Set(phrasings.map((p) => p.style))).toEqual(
      new Set(['terse', 'verbose', 'quoted', 'non-native', 'unseen']),
    );
  });

  it('never lets the ranker learn from a held-out phrasing, and learns only operations of the registry', () => {
    const held = new Set(heldOut.map((p) => p.query));
    expect(
      examplePhrasings.filter(
        (example) =>
          held.has(example.query) || (isHeldOut(example.query) && phrasings.some((p) => p.query === example.query)),
      ),
    ).toEqual([]);
    expect(examplePhrasings.filter((example) => findOperation(example.expected) === undefined)).toEqual([]);
    const writtenGroups = [...new Set(written.map((p) => p.set))];
    expect(new Set(examplePhrasings.map((example) => example.source))).toEqual(
      new Set(['first', 'tuning', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', ...writtenGroups]),
    );
  });

  // Builds an index of some 7,000 examples, with its regression trained, for each of sixty sets left out: 40 to 90 s, more beside other tests.
  it('ranks every set at least as well as when the ranker was last measured', { timeout: 300_000 }, () => {
    const held = score(known(heldOut), rank);
    const tuned = score(known(tuning), rankWithout('tuning'));
    const old = score(intents, rankWithout('first'));
    const probed = total(
      [...new Set(probes.map((p) => p.set))].map((set) =>
        score(
          probes.filter((p) => p.set === set),
          rankWithout(set),
        ),
      ),
    );
    const wrote = total(
      [...new Set(written.map((p) => p.set))].map((set) =>
        score(
          written.filter((p) => p.set === set),
          rankWithout(set),
        ),
      ),
    );
    console.log(
      `search ranking: held-out (n=${held.count}) top-1 ${percent(held.top1Rate)}, top-3 ${percent(held.top3Rate)}; ` +
        `tuning (n=${tuned.count}) top-1 ${percent(tuned.top1Rate)}, top-3 ${percent(tuned.top3Rate)}; ` +
        `old set (n=${old.count}) top-1 ${percent(old.top1Rate)}, top-3 ${percent(old.top3Rate)}; ` +
        `probe sets, each without itself (n=${probed.count}) top-1 ${percent(probed.top1Rate)}, top-3 ${percent(probed.top3Rate)}; ` +
        `written groups, each without itself (n=${wrote.count}) top-1 ${percent(wrote.top1Rate)}, top-3 ${percent(wrote.top3Rate)}`,
    );
    // Floors below the figures in BENCHMARKS.md; on the held-out set, the targets (92 % and 99 %).
    expect(held.top1Rate).toBeGreaterThanOrEqual(0.92);
    expect(held.top3Rate).toBeGreaterThanOrEqual(0.99);
    expect(probed.top1Rate).toBeGreaterThanOrEqual(0.93);
    expect(probed.top3Rate).toBeGreaterThanOrEqual(0.98);
    expect(wrote.top1Rate).toBeGreaterThanOrEqual(0.9);
    expect(wrote.top3Rate).toBeGreaterThanOrEqual(0.98);
    expect(tuned.top1Rate).toBeGreaterThanOrEqual(0.93);
    expect(tuned.top3Rate).toBeGreaterThanOrEqual(0.98);
    expect(old.top1Rate).toBeGreaterThanOrEqual(0.93);
    expect(old.top3Rate).toBeGreaterThanOrEqual(0.99);
  });
});

describe('the blind set', () => {
  // Words only, so that "Credits left?" and "credits left" are one phrasing.
  const wordsOf = (query: string) =>
    query
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();

  it('is four requests for each operation but the four that repeated a labelled phrasing, none of them a phrasing the ranker learns from', () => {
    expect(blind).toHaveLength(240);
    for (const operation of operations)
      expect(
        blind.filter((p) => p.expected === operation.operationId).length,
        operation.operationId,
      ).toBeGreaterThanOrEqual(3);
    const labelled = new Set([...examplePhrasings, ...phrasings].map((p) => wordsOf(p.query)));
    expect(blind.filter((p) => labelled.has(wordsOf(p.query))).map((p) => p.query)).toEqual([]);
  });

  it('is ranked as the issue asks of the held-out set, though nobody working on the ranker has tuned for it', () => {
    const scored = score(blind, rank);
    console.log(
      `search ranking: blind set (n=${scored.count}) top-1 ${percent(scored.top1Rate)}, top-3 ${percent(scored.top3Rate)}`,
    );
    expect(scored.top1Rate).toBeGreaterThanOrEqual(0.95);
    expect(scored.top3Rate).toBeGreaterThanOrEqual(0.99);
  });
});

describe('the order after the first place', () => {
  const summed = [
    { id: 'a', score: 5 },
    { id: 'b', score: 3 },
    { id: 'c', score: 2.9 },
    { id: 'd', score: 1 },
  ];
  const ranking = (weight: number, ...order: string[]) => ({ order, weight });

  it('keeps the summed first, and puts second what most rankings put near the top, with scores that never rise down the list', () => {
    // b is second only in the sum; c is second in three rankings, d third in two.
    const order = fused(summed, [
      ranking(1, 'a', 'b', 'c', 'd'),
      ranking(1, 'a', 'c', 'd'),
      ranking(1, 'c', 'a', 'd'),
      ranking(1, 'a', 'c', 'b'),
    ]);
    expect(order.map((hit) => hit.id)).toEqual(['a', 'c', 'd', 'b']);
    expect(order.map((hit) => hit.score)).toEqual([5, 2.9, 1, 1]);
    // Whatever the rankings say, the first place is the sum's.
    expect(fused(summed, [ranking(1, 'd', 'c'), ranking(1, 'd', 'c')])[0]).toEqual({ id: 'a', score: 5 });
  });

  it('counts a ranking by its weight, and leaves what no ranking holds in the summed order', () => {
    const even = fused(summed, [ranking(1, 'b'), ranking(1, 'c')]).map((hit) => hit.id);
    expect(even).toEqual(['a', 'b', 'c', 'd']);
    const weighted = fused(summed, [ranking(1, 'b'), ranking(2, 'c')]).map((hit) => hit.id);
    expect(weighted).toEqual(['a', 'c', 'b', 'd']);
    expect(fused([], [ranking(1, 'a')])).toEqual([]);
  });
});

describe('a request that quotes a field of another operation', () => {
  it(
    'lets the examples rank every operation, not only those that take the field: the field is often where the answer goes next',
    { timeout: 120_000 },
    () => {
      // "… so I can fill the currentCompanies filter", asked of the company typeahead; "ids for prospectExclusionListIDs", of the lists.
      // Neither operation takes those fields: the typeahead takes a prefix, the list of lists a kind.
      const asked = examplePhrasings.filter(
        (p) =>
          /currentCompanies|ExclusionListIDs/.test(p.query) &&
          ['companyTypeahead', 'listExclusionLists'].includes(p.expected),
      );
      expect(asked.length).toBeGreaterThanOrEqual(10);
      let first = 0;
      for (const phrasing of asked) {
        const order = rankWithout(phrasing.source)(phrasing.query);
        expect(order, phrasing.query).toContain(phrasing.expected);
        if (order[0] === phrasing.expected) first += 1;
      }
      // Each scored without its own group; when the examples ordered only the operations that take the field, a third were first.
      expect(first / asked.length).toBeGreaterThanOrEqual(0.8);
    },
  );
});

describe('the three kinds of mistake, at their cause', () => {
  it('does not let a one-word input field pull its operation up: field names are indexed only as whole identifiers', () => {
    let checked = 0;
    for (const operation of operations) {
      const ownText = new Set(
        terms(
          `${operation.title} ${operation.summary} ${operation.description} ${operation.keywords.join(' ')} ${operation.operationId}`,
        ),
      );
      const ownPhrasings = new Set(
        examplePhrasings
          .filter((example) => example.expected === operation.operationId)
          .flatMap((example) => terms(example.query)),
      );
      for (const field of Object.keys(operation.input.shape)) {
        if (/[A-Z]/.test(field) || terms(field).some((term) => ownText.has(term))) continue;
        // A word that is only the name of this operation's field says nothing about the operation: the operations' own
        // words never bring it up. Nor do the examples, unless people used the word asking for this very operation ("in CSV
        // format", "limit 5 suggestions"): then the vote is learnt from them, not leaked from a field name.
        checked += 1;
        expect(describedRanking(field), `${field} → ${operation.operationId}`).not.toContain(operation.operationId);
        if (terms(field).some((term) => ownPhrasings.has(term))) continue;
        expect(rank(field), `${field} → ${operation.operationId}`).not.toContain(operation.operationId);
      }
    }
    expect(checked).toBeGreaterThan(5);
    // A quoted identifier still finds the operations that take it.
    expect(rank('maxProspectsToEnrich').slice(0, 2).sort()).toEqual(['estimateEnrichmentCost', 'triggerEnrichment']);
  });

  it('ranks the status operation above the one that started the work, for questions about progress', () => {
    const pairs = operations.flatMap((starter) =>
      starter.workflow.after
        .map((id) => findOperation(id))
        .filter((status) => status?.pollIntervalSeconds !== undefined)
        .map((status) => ({ starter, status: status! })),
    );
    expect(pairs.length).toBeGreaterThanOrEqual(3);
    for (const { starter, status } of pairs) {
      // The work as the status operation names it: "export", "audience", "batch contact enrichment".
      const subject = words(status.operationId)
        .filter((word) => !['get', 'poll', 'status'].includes(word))
        .join(' ');
      for (const question of [
        `is the ${subject} done yet`,
        `did the ${subject} fail`,
        `how far along is my ${subject}`,
        `${subject} finished?`,
      ]) {
        const ranked = rankOperations(question).map((r) => r.id);
        expect(
          ranked.indexOf(status.operationId),
          `"${question}": ${ranked.slice(0, 3).join(', ')}`,
        ).toBeGreaterThanOrEqual(0);
        expect(ranked.indexOf(status.operationId), `"${question}": ${ranked.slice(0, 3).join(', ')}`).toBeLessThan(
          ranked.indexOf(starter.operationId) < 0 ? Infinity : ranked.indexOf(starter.operationId),
        );
      }
    }
  });

  it('reads the words people use for an audience as the audience', () => {
    for (const name of ['segment', 'my list', 'saved list', 'lead list', 'target list', 'prospect list']) {
      expect(conceptsOf(`build the ${name}`)).toContain('o_audience');
      expect(rank(`build the ${name}`)[0], name).toBe('buildAudience');
      if (findOperation('deleteAudience')) expect(rank(`delete the ${name}`)[0], name).toBe('deleteAudience');
      expect(rank(`is the ${name} ready`)[0], name).toBe('getAudienceStatus');
      expect(rank(`export the ${name} to csv`).slice(0, 2), name).toEqual(
        expect.arrayContaining([expect.stringMatching(/^export(Companies|Prospects)$/)]),
      );
    }
    // An exclusion list is not an audience, and "a list of" is no act of listing.
    expect(conceptsOf('add acme.com to the exclusion list')).not.toContain('o_audience');
    expect(conceptsOf('give me a list of fintech companies')).not.toContain('a_list');
  });

  it('reads a question about what or who is in a thing as one about its contents', () => {
    for (const question of ["what's on the do-not-contact list", 'who lives in segment 12', 'who are in audience 7']) {
      expect(conceptsOf(question), question).toContain('a_list');
    }
    // What a thing or a person is in is no question about a thing's contents.
    expect(conceptsOf('what industry is acme.com in')).not.toContain('a_list');
    expect(conceptsOf('who works in sales at stripe.com')).not.toContain('a_list');
    expect(rank('who lives in segment 12')).toContain('listAudienceProspects');
  });
});

describe('reading a query the way people write one', () => {
  it('takes the first clause that asks for an act as the goal, and not the acts of the clauses that set the scene', () => {
    // A price mentioned as a circumstance is no request for an estimate.
    const started = readQuery('start the build of my segment, the cost is fine by me').concepts;
    expect(started).toContain('a_run');
    expect(started).not.toContain('a_estimate');
    // What follows "before" is when, not what.
    const set = readQuery('put the criteria on audience 3 before it is built');
    expect(set.concepts).not.toContain('a_run');
    expect(set.settingTerms).toContain(terms('built')[0]);
    // What describes a thing ("vendors who make …") is no act asked for; what a clause refuses is not asked for either.
    expect(readQuery('vendors who make payroll software').concepts).not.toContain('a_create');
    expect(readQuery('page through the companies of audience 3 without exporting them').concepts).not.toContain(
      'a_export',
    );
    // "I have X and need Y" asks for Y: the spreadsheet is what the user has, not a file to export.
    const needed = readQuery('I have a spreadsheet of 800 profile links and need their emails');
    expect(needed.settingTerms).toContain(terms('spreadsheet')[0]);
    expect(rank('I have a spreadsheet of 800 profile links and need their emails')[0]).toBe(
      'startBatchContactEnrichment',
    );
  });

  it('corrects slips to the words the ranker knows, and leaves real words it does not know alone', () => {
    expect(corrected('compnay serach')).toBe('company search');
    expect(spellingOf('audiance')).toBe('audience');
    expect(spellingOf('adress')).toBe('address');
    // One letter away from a known word, yet a word of its own.
    expect(spellingOf('selling')).toBe('selling');
    expect(spellingOf('kubernetes')).toBe('kubernetes');
    // British and American spellings are one term.
    expect(terms('organisations')).toEqual(terms('organizations'));
  });

  it('reads a request without what it refuses, unless keeping someone out is the request', () => {
    expect(corrected("I don't need the export link, is the build of audience 9 finished?")).not.toMatch(/export/);
    expect(corrected("not the run's status: the records run 71 found")).not.toMatch(/status/);
    expect(corrected('do not contact list of people')).toMatch(/contact/);
    expect(corrected('never show me anyone from audience 3 again')).toMatch(/show me anyone/);
    expect(corrected("don't target the companies from my last campaign audience again")).toMatch(
      /target the companies/,
    );
    // Read as asked, the refused export named the export's status operation first.
    expect(rank("I don't need the export link, is the build of audience 9 finished?")[0]).toBe('getAudienceStatus');
  });

  it('ends a refusal at a dash, and answers a request that is all refusal from its words rather than with nothing', () => {
    // A refusal ran to the end of its clause, and a dash ended none: the whole request was refused and nothing was ranked.
    const request = "not asking if it's done - I want you to START the build of audience 305";
    expect(corrected(request)).toMatch(/START the build/);
    expect(corrected(request)).not.toMatch(/done/);
    expect(rank(request)[0]).toBe('buildAudience');
    expect(rank('not the companies csv – the people csv of audience 28')[0]).toBe('exportProspects');
    expect(rank('not the saved search')).not.toEqual([]);
  });

  it('says quoted literals in words: an email address, a profile URL, a headcount', () => {
    expect(readQuery(corrected('is jane@acme.com real')).concepts).toContain('o_emailAddress');
    expect(readQuery(corrected('phone of linkedin.com/in/jdoe')).concepts).toContain('o_person');
    const headcount = conceptsOf(corrected('saas firms with 50-200 employees in Spain'));
    expect(headcount).not.toContain('o_person');
    expect(headcount).not.toContain('a_batch');
  });

  it('reads a thing named by its number as one that exists: operations that take its identifier, not those that list or create', () => {
    expect(readQuery('show saved search 12').concepts).toContain('i_savedSearch');
    expect(rank('show saved search 12')[0]).toBe('getSavedSearch');
    expect(rank('entries of suppression list 4')[0]).toBe('listExclusionListEntries');
    expect(rank('make saved search 12 weekly')[0]).toBe('updateSavedSearch');
    // A number after a preposition is a quantity.
    expect([...readQuery('companies with over 200 employees').concepts].filter((c) => c.startsWith('i_'))).toEqual([]);
  });
});
