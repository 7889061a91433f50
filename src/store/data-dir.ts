import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../log.js';

/**
 * DATA_DIR holds the database's credentials, the demo key, exports and mail: only its owner
 * may enter it (0700), whatever the umask or the mode an older version left it with.
 */
export async function ensurePrivateFolder(folder: string, log?: Logger): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  try {
    await chmod(folder, 0o700);
  } catch (error) {
    // A folder owned by someone else (a mounted volume, say) cannot be changed by us; the files
    // we write into it are still 0600.
    log?.warn({ folder, err: error }, 'could not make the data folder private (0700); check its owner and mode');
  }
}

/**
 * Writes a file readable by its owner only, whatever the umask, through a temporary name so
 * that a crash never leaves half a file: a credentials file cut short would lock us out.
 */
export async function writePrivateFile(file: string, content: string): Promise<void> {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
