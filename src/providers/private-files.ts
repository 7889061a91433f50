import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Export files and mails hold people's emails and phone numbers, and a mail holds a working
 * download link: only the service's own user may read them, whatever the umask and whatever
 * mode an older version left on the folders.
 */
export const privateFileMode = 0o600;
const privateFolderMode = 0o700;

/** Creates `root` and `inner` (a folder under it) as needed, and makes every level from root down owner-only. */
export async function ensurePrivateFolder(root: string, inner: string = root): Promise<void> {
  await mkdir(inner, { recursive: true, mode: privateFolderMode });
  const relative = path.relative(root, inner);
  let folder = root;
  await chmod(folder, privateFolderMode);
  for (const part of relative ? relative.split(path.sep) : []) {
    folder = path.join(folder, part);
    await chmod(folder, privateFolderMode);
  }
}
