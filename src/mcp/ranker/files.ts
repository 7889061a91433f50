import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The ranker's data: `data/ranker/` of the repository, or `dist/data/ranker/` of a build (`npm run build` copies the
 * lexicon and the model there, never the phrasings). Both are at the same place relative to this module, so the service
 * finds them from the source tree and from `dist/` alike.
 */
export const rankerDataDir = fileURLToPath(new URL('../../../data/ranker/', import.meta.url));

/** The words people use for the things and acts of the service, grouped by concept (data/ranker/README.md). */
export const lexiconFile = path.join(rankerDataDir, 'lexicon.json');

/** The trained model, written by `npm run generate` and read by the service on first use. */
export const modelFile = path.join(rankerDataDir, 'model.json');

/** The labelled phrasings the model is trained on: read by `npm run generate` in the repository only, never shipped. */
export const trainingDir = path.join(rankerDataDir, 'training');
