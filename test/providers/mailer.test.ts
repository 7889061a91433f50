import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { createMailer } from '../../src/providers/mailer.js';
import { readMail } from '../audiences/helpers.js';
import { startSmtpServer } from '../audiences/smtp.js';

describe('mailer', () => {
  let dataDir: string;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  const log = createLogger('silent');
  const from = 'Prospecting Data Service <no-reply@prospecting.local>';

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'pds-mailer-'));
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await smtp?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('without SMTP_URL writes each message as an .eml file into DATA_DIR/outbox', async () => {
    const mailer = createMailer({ MAIL_FROM: from, dataDir }, log);
    expect(mailer.transport).toBe('outbox');
    const sent = await mailer.send({ to: 'ana@example.com', subject: 'Ünïcode subject', text: 'Line one\r\nLine twö' });
    expect(sent.outboxPath).toBeDefined();
    expect(path.dirname(sent.outboxPath as string)).toBe(path.join(dataDir, 'outbox'));
    const files = await readdir(path.join(dataDir, 'outbox'));
    expect(files).toEqual([path.basename(sent.outboxPath as string)]);
    const mail = readMail(await readFile(sent.outboxPath as string, 'utf8'));
    expect(mail.headers.to).toBe('ana@example.com');
    expect(mail.headers.from).toBe(from);
    expect(mail.headers.subject).toBe('Ünïcode subject');
    expect(mail.headers['message-id']).toBe(sent.messageId);
    expect(mail.text.trim()).toBe('Line one\r\nLine twö');
    mailer.close();
  });

  it('with SMTP_URL delivers through the SMTP server', async () => {
    const mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: from, dataDir }, log);
    expect(mailer.transport).toBe('smtp');
    await mailer.send({ to: 'bo@example.com', subject: 'Hello', text: 'Body' });
    const last = smtp.received.at(-1);
    expect(last?.to).toEqual(['bo@example.com']);
    expect(last?.from).toBe('no-reply@prospecting.local');
    expect(readMail(last?.raw as string).headers.subject).toBe('Hello');
    mailer.close();
  });

  it('fails (for the job to retry) when the server refuses or cannot be reached', async () => {
    const mailer = createMailer({ SMTP_URL: smtp.url, MAIL_FROM: from, dataDir }, log);
    smtp.failNext(1);
    await expect(mailer.send({ to: 'cy@example.com', subject: 'x', text: 'y' })).rejects.toThrow(/451|busy|rejected/i);
    mailer.close();
    const closed = createMailer({ SMTP_URL: 'smtp://127.0.0.1:1', MAIL_FROM: from, dataDir }, log);
    await expect(closed.send({ to: 'cy@example.com', subject: 'x', text: 'y' })).rejects.toThrow();
    closed.close();
  });
});
