import { randomBytes } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Mailer } from '../core/ports/mailer.js';
import type { Logger } from '../log.js';
import { ensurePrivateFolder, privateFileMode } from './private-files.js';

/**
 * Outgoing mail. With SMTP_URL, messages go through that SMTP server (nodemailer's SMTP
 * transport; `smtps://` for implicit TLS, STARTTLS when the server offers it). Without it,
 * each message is written as an RFC 5322 `.eml` file into DATA_DIR/outbox and its path is
 * logged, so a single-machine setup can read its mail without any server.
 */
export interface MailerConfig {
  SMTP_URL?: string | undefined;
  MAIL_FROM: string;
  dataDir: string;
}

export function createMailer(config: MailerConfig, log: Logger): Mailer {
  return config.SMTP_URL
    ? smtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : outboxMailer(path.join(config.dataDir, 'outbox'), config.MAIL_FROM, log);
}

function smtpMailer(url: string, from: string): Mailer {
  const transporter = nodemailer.createTransport({
    url,
    // A mail step must not hang a job slot: fail fast and let the job retry.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    transport: 'smtp',
    async send(message) {
      const info = await transporter.sendMail({ from, ...message });
      if (info.rejected.length > 0) throw new Error(`the SMTP server rejected the recipient (${info.response})`);
      return { messageId: info.messageId };
    },
    close: () => transporter.close(),
  };
}

function outboxMailer(outbox: string, from: string, log: Logger): Mailer {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    transport: 'outbox',
    async send(message) {
      const info = await transporter.sendMail({ from, ...message });
      await ensurePrivateFolder(outbox);
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const file = path.join(outbox, name);
      // Written under a temporary name first, so a reader of the outbox never sees half a message.
      await writeFile(`${file}.partial`, info.message as Buffer, { mode: privateFileMode });
      await rename(`${file}.partial`, file);
      log.info({ outboxPath: file, messageId: info.messageId }, 'mail written to the outbox');
      return { messageId: info.messageId, outboxPath: file };
    },
    close: () => transporter.close(),
  };
}

export type { Mailer } from '../core/ports/mailer.js';
