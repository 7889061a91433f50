import type express from 'express';
import type { AppContext } from '../context.js';

export interface BackgroundWork {
  stop(): Promise<void>;
}

/** Starts the job worker loop (audience builds, enrichments, exports, batch contact jobs). */
export async function startBackgroundWork(_context: AppContext): Promise<BackgroundWork> {
  return { stop: async () => undefined };
}

/** Routes that are not operations (signed download links). */
export function mountJobRoutes(_app: express.Express, _context: AppContext): void {
  // Export downloads land with the audience capability.
}
