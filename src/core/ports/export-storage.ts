import type { Readable } from 'node:stream';

/**
 * Where export files live. The interface is what an object store (S3, GCS) would offer; the
 * adapter in src/providers/export-storage.ts is a local folder (EXPORT_DIR, default
 * DATA_DIR/exports), which is enough for one machine or a shared volume.
 */
export interface ExportStorage {
  /** Writes the chunks under `key`, replacing any earlier file; readers never see a partial file. */
  write(key: string, chunks: AsyncIterable<string | Buffer> | Iterable<string | Buffer>): Promise<{ bytes: number }>;
  /** A stream of the file, or null when it does not exist. */
  open(key: string): Promise<{ stream: Readable; bytes: number } | null>;
  remove(key: string): Promise<void>;
}
