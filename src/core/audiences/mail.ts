import { z } from 'zod';
import { accountOf, defineJob, enqueue, type JobRun } from '../../job-queue/index.js';
import type { Queryable } from '../../store/db.js';
import { signedLink } from './services.js';
import type { LogDeps, ServicesDeps } from '../deps.js';
import type { ExportLinkDeps } from './services.js';

/**
 * Notifications by mail. A mail is its own job, queued in the transaction that completes the
 * work it reports (so it is sent if and only if that work committed), and retried with
 * backoff when the SMTP server fails: a mail failure never fails the export or enrichment.
 * Download links are signed when the mail is sent, so a retried mail carries a fresh link.
 */

const id = z.number().int().positive();
const count = z.number().int().nonnegative();

const mailTemplate = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('export-ready'),
    exportId: id,
    audienceName: z.string(),
    rows: count,
    exportKind: z.string(),
  }),
  z.object({
    kind: z.literal('enrichment-done'),
    enrichmentId: id,
    audienceId: id,
    audienceName: z.string(),
    prospects: count,
    found: z.object({ workEmails: count, personalEmails: count, phoneNumbers: count }),
    chargedCredits: count,
    refundedCredits: count,
    exportId: id.nullable(),
    exportNote: z.string().nullable(),
  }),
  z.object({
    kind: z.literal('saved-search-new'),
    savedSearchId: id,
    savedSearchName: z.string(),
    runId: id,
    newRecords: count,
    moreNew: z.boolean(),
    /** The first new records, one line each. */
    lines: z.array(z.string()).max(100),
    creditsCharged: count,
  }),
  z.object({
    kind: z.literal('enrichment-failed'),
    enrichmentId: id,
    audienceId: id,
    audienceName: z.string(),
    reason: z.string(),
    refundedCredits: count,
  }),
  z.object({
    kind: z.literal('watch-list-digest'),
    watchListId: id,
    watchListName: z.string(),
    /** The day digested, on the network clock. */
    from: z.string(),
    to: z.string(),
    total: count,
    byKind: z.record(z.string(), count),
    /** The first changes, one line each. */
    lines: z.array(z.string()).max(100),
  }),
  z.object({
    kind: z.literal('webhook-endpoint-disabled'),
    endpointId: id,
    /** The endpoint's URL without its query string, which can hold a token. */
    url: z.string(),
    failingSince: z.string(),
    lastError: z.string(),
  }),
]);

const queuedMail = z.object({ to: z.string().min(3), subject: z.string(), template: mailTemplate });

export type MailTemplate = z.infer<typeof mailTemplate>;
export type QueuedMail = z.infer<typeof queuedMail>;

export const mailJob = defineJob({
  kind: 'mail.send',
  payload: queuedMail,
  maxAttempts: 8,
  run: (run, context: ExportLinkDeps & ServicesDeps<'mailer'> & LogDeps) => sendQueuedMail(context, run),
  exhausted: async (job, error, context: ExportLinkDeps & ServicesDeps<'mailer'> & LogDeps) => {
    context.log.error(
      { jobId: job.id, error, template: job.payload.template.kind },
      'mail not delivered after every attempt',
    );
  },
});

export async function enqueueMail(tx: Queryable, accountId: number, mail: QueuedMail): Promise<void> {
  await enqueue(tx, mailJob, { accountId, payload: mail });
}

export async function sendQueuedMail(
  context: ExportLinkDeps & ServicesDeps<'mailer'> & LogDeps,
  run: JobRun<QueuedMail>,
): Promise<void> {
  const mail = run.job.payload;
  const text = await render(context, accountOf(run.job), mail.template);
  const sent = await context.services.mailer.send({ to: mail.to, subject: mail.subject, text });
  // Addresses are personal data: the log line names the job and the message, not the recipient.
  run.log.info({ messageId: sent.messageId, outboxPath: sent.outboxPath, template: mail.template.kind }, 'mail sent');
  await run.progress({ messageId: sent.messageId, ...(sent.outboxPath ? { outboxPath: sent.outboxPath } : {}) });
}

async function render(
  context: ExportLinkDeps & ServicesDeps<'mailer'> & LogDeps,
  accountId: number,
  template: MailTemplate,
): Promise<string> {
  switch (template.kind) {
    case 'export-ready': {
      const link = signedLink(context, { account_id: accountId, id: template.exportId });
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
        const link = signedLink(context, { account_id: accountId, id: template.exportId });
        lines.push(
          '',
          `Enriched prospects (CSV): ${link.url}`,
          `This link expires at ${link.expiresAt.toISOString()}.`,
        );
      }
      if (template.exportNote) lines.push('', `Export: ${template.exportNote}`);
      return lines.join('\r\n');
    }
    case 'watch-list-digest': {
      const lines = [
        `The watch list "${template.watchListName}" (watch list ${template.watchListId}) found ${template.total} changes from ${template.from} to ${template.to}:`,
        ...Object.entries(template.byKind).map(([kind, n]) => `  ${kind.replace(/_/g, ' ')}: ${n}`),
        '',
        ...template.lines.map((line) => `- ${line}`),
      ];
      if (template.total > template.lines.length) lines.push(`- and ${template.total - template.lines.length} more`);
      lines.push(
        '',
        `All of them: listWatchListChanges (GET /v1/watch-lists/${template.watchListId}/changes?detectedAfter=${encodeURIComponent(template.from)}), free.`,
        'To stop this digest: updateWatchList with digestEmail null.',
      );
      return lines.join('\r\n');
    }
    case 'saved-search-new': {
      const lines = [
        `The saved search "${template.savedSearchName}" (saved search ${template.savedSearchId}, run ${template.runId}) found ${template.newRecords} new records.`,
        '',
        ...template.lines.map((line) => `- ${line}`),
      ];
      if (template.newRecords > template.lines.length)
        lines.push(`- and ${template.newRecords - template.lines.length} more`);
      lines.push(
        '',
        `All of them: listSavedSearchRunRecords (GET /v1/saved-searches/${template.savedSearchId}/runs/${template.runId}/records?onlyNew=true), free.`,
        `Credits charged: ${template.creditsCharged}.`,
      );
      if (template.moreNew)
        lines.push('More new records matched than this run takes at once: the next run delivers them.');
      return lines.join('\r\n');
    }
    case 'enrichment-failed':
      return [
        `The enrichment ${template.enrichmentId} of the audience "${template.audienceName}" (audience ${template.audienceId}) failed: ${template.reason}`,
        '',
        `${template.refundedCredits} credits for the work not done were refunded to your balance.`,
      ].join('\r\n');
    case 'webhook-endpoint-disabled':
      return [
        `Your webhook endpoint ${template.endpointId} (${template.url}) was disabled: every delivery to it has failed since ${template.failingSince}.`,
        `The last attempt: ${template.lastError}.`,
        '',
        'No event is sent to it while it is disabled, and its pending deliveries ended failed.',
        `Fix the receiver, then enable it (PATCH /v1/webhook-endpoints/${template.endpointId} with "disabled": false, or updateWebhookEndpoint),`,
        `and resend what it missed from its delivery log (GET /v1/webhook-endpoints/${template.endpointId}/deliveries?status=failed, then resendWebhookDelivery).`,
      ].join('\r\n');
  }
}
