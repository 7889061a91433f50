import { readFileSync } from 'node:fs';
import { lexiconFile } from './files.js';

/** Groups of phrases by concept: each concept's name, and the phrases that say it. */
export type ConceptGroups = Readonly<Record<string, readonly string[]>>;

/**
 * The lexicon's groups (data/ranker/lexicon.json, described in data/ranker/README.md): what an operation acts on or is
 * about (`objects`), and what it does (`actions`). A file of another shape stops the service at once, naming the group.
 */
export function parseLexicon(text: string, source = lexiconFile): { objects: ConceptGroups; actions: ConceptGroups } {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const groups = (key: 'objects' | 'actions'): ConceptGroups => {
    const value = parsed[key];
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Error(`${source}: ${key} must be an object of concept groups`);
    for (const [concept, phrases] of Object.entries(value))
      if (!Array.isArray(phrases) || !phrases.every((phrase) => typeof phrase === 'string' && phrase.trim() !== ''))
        throw new Error(`${source}: ${key}.${concept} must be a list of non-empty phrases`);
    return value as ConceptGroups;
  };
  return { objects: groups('objects'), actions: groups('actions') };
}

const lexicon = parseLexicon(readFileSync(lexiconFile, 'utf8'));
/** What an operation acts on, or is about. */
export const objectConcepts = lexicon.objects;
/** What an operation does: an act, or a kind of answer (a count, a file, a suggestion, live data). */
export const actionConcepts = lexicon.actions;
