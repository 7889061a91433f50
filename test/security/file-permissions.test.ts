import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { localExportStorage } from '../../src/providers/export-storage.js';
import { createMailer } from '../../src/providers/mailer.js';

/**
 * The probe's medium finding: export files and mails (people's contacts, working download links)
 * were readable by every local user. They must be owner-only whatever the umask, even in a data
 * folder other users can enter and in folders an older version created 0755.
 */

const modeOf = async (file: string): Promise<number> => (await stat(file)).mode & 0o777;

/** True when the `nobody` user can read the file (only checkable as root). */
function readableByAnotherUser(file: string): boolean {
  const result = spawnSync('runuser', ['-u', 'nobody', '--', 'cat', file], { stdio: 'ignore' });
  return result.status === 0;
}

describe('export files and mails', () => {
  let shared: string;
  let savedUmask: number;
  beforeAll(async () => {
    shared = await mkdtemp(path.join(os.tmpdir(), 'pds-perm-'));
    await chmod(shared, 0o755);
    savedUmask = process.umask(0);
  });
  afterAll(async () => {
    process.umask(savedUmask);
    await rm(shared, { recursive: true, force: true });
  });

  it('writes export files 0600 in folders 0700, tightening a folder an older version left open', async () => {
    const root = path.join(shared, 'exports');
    await mkdir(root, { mode: 0o777 });
    await chmod(root, 0o777);
    const storage = localExportStorage(root);
    await storage.write('7/12.csv', ['name,email\r\n', 'Ada,ada@example.com\r\n']);
    const file = path.join(root, '7', '12.csv');
    expect(await modeOf(root)).toBe(0o700);
    expect(await modeOf(path.join(root, '7'))).toBe(0o700);
    expect(await modeOf(file)).toBe(0o600);
    if (process.getuid?.() === 0) {
      // With the folder opened again, only the file's own mode stands between another user and the contacts.
      await chmod(root, 0o755);
      await chmod(path.join(root, '7'), 0o755);
      expect(readableByAnotherUser(file)).toBe(false);
    }
  });

  it('writes outbox mails 0600 in an outbox folder 0700', async () => {
    const dataDir = path.join(shared, 'data');
    await mkdir(path.join(dataDir, 'outbox'), { recursive: true, mode: 0o755 });
    const mailer = createMailer({ MAIL_FROM: 'Service <no-reply@example.com>', dataDir }, createLogger('silent'));
    const sent = await mailer.send({
      to: 'ada@example.com',
      subject: 'Your export',
      text: 'https://example.com/download?sig=secret',
    });
    mailer.close();
    const file = sent.outboxPath as string;
    expect(await modeOf(path.dirname(file))).toBe(0o700);
    expect(await modeOf(file)).toBe(0o600);
    if (process.getuid?.() === 0) {
      await chmod(path.dirname(file), 0o755);
      expect(readableByAnotherUser(file)).toBe(false);
    }
  });
});
