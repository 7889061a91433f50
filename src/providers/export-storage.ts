import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ExportStorage } from '../core/ports/export-storage.js';
import { ensurePrivateFolder, privateFileMode } from './private-files.js';

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
      const partial = `${file}.${process.pid}.partial`;
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
          createWriteStream(partial, { mode: privateFileMode }),
        );
        await rename(partial, file);
      } catch (error) {
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
