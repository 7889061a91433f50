/**
 * Outgoing mail, as core sends it (export links, enrichment notices); the adapters (SMTP, an
 * outbox folder) are in src/providers/mailer.ts.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SentMail {
  messageId: string;
  /** The `.eml` file written, in outbox mode. */
  outboxPath?: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<SentMail>;
  close(): void;
}
