import { createReadStream, createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ensurePrivateFolder, privateFileMode } from './private-files.js';

/**
 * Where export files live. The interface is what an object store (S3, GCS) would offer; the
 * implementation here is a local folder (EXPORT_DIR, default DATA_DIR/exports), which is
 * enough for one machine or a shared volume.
 */
export interface ExportStorage {
  /** Writes the chunks under `key`, replacing any earlier file; readers never see a partial file. */
  write(key: string, chunks: AsyncIterable<string | Buffer> | Iterable<string | Buffer>): Promise<{ bytes: number }>;
  /** A stream of the file, or null when it does not exist. */
  open(key: string): Promise<{ stream: Readable; bytes: number } | null>;
  remove(key: string): Promise<void>;
}

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
