import { describe, expect, it } from 'vitest';
import { actionConcepts, objectConcepts, parseLexicon } from '../../../../src/mcp/ranker/lexicon.js';

describe("the ranker's lexicon (data/ranker/lexicon.json)", () => {
  it('is read from the data folder with its groups of things and acts', () => {
    expect(objectConcepts.company).toContain('firm');
    expect(objectConcepts.audience).toBeDefined();
    expect(Object.keys(actionConcepts)).toContain('delete');
  });

  it('refuses a file without its two kinds of groups, naming the missing one', () => {
    expect(() => parseLexicon('{"objects":{}}', 'lexicon.json')).toThrow(/lexicon\.json: actions must be an object/);
    expect(() => parseLexicon('{"objects":[],"actions":{}}', 'lexicon.json')).toThrow(/objects must be an object/);
  });

  it('refuses a group that is not a list of phrases, naming it', () => {
    expect(() => parseLexicon('{"objects":{"firm":"company"},"actions":{}}', 'x')).toThrow(
      /objects\.firm must be a list/,
    );
    expect(() => parseLexicon('{"objects":{},"actions":{"count":["count",""]}}', 'x')).toThrow(/actions\.count/);
  });

  it('takes a well-formed file as it is', () => {
    expect(parseLexicon('{"objects":{"a":["b"]},"actions":{"c":["d e"]}}')).toEqual({
      objects: { a: ['b'] },
      actions: { c: ['d e'] },
    });
  });
});
