import type { AppContext } from '../../context.js';
import { enqueueJob, type JobRow } from '../../jobs/queue.js';
import type { JobRun } from '../../jobs/worker.js';
import type { Queryable } from '../../store/db.js';
import { mailerOf, signedLink } from './services.js';

/**
 * Notifications by mail. A mail is its own job, queued in the transaction that completes the
 * work it reports (so it is sent if and only if that work committed), and retried with
 * backoff when the SMTP server fails: a mail failure never fails the export or enrichment.
 * Download links are signed when the mail is sent, so a retried mail carries a fresh link.
 */

export const mailJobKind = 'mail.send';
export const mailMaxAttempts = 8;

export type MailTemplate =
  | { kind: 'export-ready'; exportId: number; audienceName: string; rows: number; exportKind: string }
  | {
      kind: 'enrichment-done';
      enrichmentId: number;
      audienceId: number;
      audienceName: string;
      prospects: number;
      found: { workEmails: number; personalEmails: number; phoneNumbers: number };
      chargedCredits: number;
      refundedCredits: number;
      exportId: number | null;
      exportNote: string | null;
    }
  | { kind: 'enrichment-failed'; enrichmentId: number; audienceId: number; audienceName: string; reason: string; refundedCredits: number };

export interface QueuedMail {
  to: string;
  subject: string;
  template: MailTemplate;
}

export async function enqueueMail(tx: Queryable, accountId: number, mail: QueuedMail): Promise<void> {
  await enqueueJob(tx, { kind: mailJobKind, accountId, payload: { ...mail }, maxAttempts: mailMaxAttempts });
}

export async function sendQueuedMail(context: AppContext, run: JobRun): Promise<void> {
  const mail = run.job.payload as unknown as QueuedMail;
  const accountId = run.job.account_id;
  if (accountId === null) throw new Error(`mail job ${run.job.id} has no account`);
  const text = await render(context, accountId, mail.template);
  const sent = await mailerOf(context).send({ to: mail.to, subject: mail.subject, text });
  // Addresses are personal data: the log line names the job and the message, not the recipient.
  run.log.info({ messageId: sent.messageId, outboxPath: sent.outboxPath, template: mail.template.kind }, 'mail sent');
  await run.progress({ messageId: sent.messageId, ...(sent.outboxPath ? { outboxPath: sent.outboxPath } : {}) });
}

export function mailJobExhausted(context: AppContext) {
  return async (job: JobRow, error: string): Promise<void> => {
    context.log.error({ jobId: job.id, error, template: (job.payload as { template?: { kind?: string } }).template?.kind }, 'mail not delivered after every attempt');
  };
}

async function render(context: AppContext, accountId: number, template: MailTemplate): Promise<string> {
  switch (template.kind) {
    case 'export-ready': {
      const link = await signedLink(context, { account_id: accountId, id: template.exportId });
      return [
        `Your export of ${template.rows} ${template.exportKind} from the audience "${template.audienceName}" is ready.`,
        '',
        `Download (CSV): ${link.url}`,
        `This link expires at ${link.expiresAt.toISOString()}. A new link can be read at any time with getExportStatus.`,
      ].join('\r\n');
    }
    case 'enrichment-done': {
      const lines = [
        `The enrichment ${template.enrichmentId} of the audience "${template.audienceName}" (audience ${template.audienceId}) is complete.`,
        '',
        `Prospects enriched: ${template.prospects}`,
        `Work emails found: ${template.found.workEmails}; personal emails: ${template.found.personalEmails}; phone numbers: ${template.found.phoneNumbers}`,
        `Credits charged at trigger: ${template.chargedCredits}; refunded for work that found nothing: ${template.refundedCredits}.`,
      ];
      if (template.exportId !== null) {
        const link = await signedLink(context, { account_id: accountId, id: template.exportId });
        lines.push('', `Enriched prospects (CSV): ${link.url}`, `This link expires at ${link.expiresAt.toISOString()}.`);
      }
      if (template.exportNote) lines.push('', `Export: ${template.exportNote}`);
      return lines.join('\r\n');
    }
    case 'enrichment-failed':
      return [
        `The enrichment ${template.enrichmentId} of the audience "${template.audienceName}" (audience ${template.audienceId}) failed: ${template.reason}`,
        '',
        `${template.refundedCredits} credits for the work not done were refunded to your balance.`,
      ].join('\r\n');
  }
}
