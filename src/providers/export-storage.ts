import { createReadStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ExportStorage } from '../core/ports/export-storage.js';
import { ensurePrivateFolder, privateFileMode } from './private-files.js';

/** Tells apart the partial files of writes in flight at once in this process. */
let partialFiles = 0;

/** Export files in a local folder, owner-only (see private-files.ts). */
export function localExportStorage(root: string): ExportStorage {
  const resolve = (key: string): string => {
    // Keys are made by the service (`<account>/<export>.csv`); refuse anything that would leave the root.
    if (!/^[\w-]+(\/[\w.-]+)*$/.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
      throw new Error(`invalid export storage key: ${key}`);
    }
    return path.join(root, ...key.split('/'));
  };
  return {
    async write(key, chunks) {
      const file = resolve(key);
      await ensurePrivateFolder(root, path.dirname(file));
      const partial = `${file}.${process.pid}.${(partialFiles += 1)}.partial`;
      // Opened before anything is written: a stream that opens its file itself may create it after a failed write's rm.
      const handle = await open(partial, 'w', privateFileMode);
      let bytes = 0;
      try {
        await pipeline(
          (async function* () {
            for await (const chunk of chunks) {
              const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
              bytes += buffer.length;
              yield buffer;
            }
          })(),
          handle.createWriteStream(),
        );
        await rename(partial, file);
      } catch (error) {
        await handle.close().catch(() => undefined);
        await rm(partial, { force: true });
        throw error;
      }
      return { bytes };
    },
    async open(key) {
      const file = resolve(key);
      try {
        const info = await stat(file);
        return { stream: createReadStream(file), bytes: info.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(key) {
      await rm(resolve(key), { force: true });
    },
  };
}

export type { ExportStorage };
