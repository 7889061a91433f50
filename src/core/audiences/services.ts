import type { AppContext } from '../../context.js';
import { localExportStorage, type ExportStorage } from '../../providers/export-storage.js';
import { createMailer, type Mailer } from '../../providers/mailer.js';
import { loadLinkSigner, type LinkSigner } from './links.js';
import type { AudienceContactSource, AudienceLiveSource } from './sources.js';

declare module '../../context.js' {
  interface Services {
    mailer: Mailer;
    exportStorage: ExportStorage;
    exportLinkSigner: Promise<LinkSigner>;
    /** Where audience enrichment finds contacts; replaceable (tests inject failing sources here). */
    audienceContactSource: AudienceContactSource;
    /** Where audience enrichment fetches live records. */
    audienceLiveSource: AudienceLiveSource;
  }
}

/**
 * The parts the audience capability needs, made on first use and kept on the context: the
 * download route and the API handlers need them even in a process that runs no worker.
 */
export function exportStorageOf(context: AppContext): ExportStorage {
  return (context.services.exportStorage ??= localExportStorage(context.config.exportDir));
}

export function mailerOf(context: AppContext): Mailer {
  return (context.services.mailer ??= createMailer(context.config, context.log));
}

export function linkSignerOf(context: AppContext): Promise<LinkSigner> {
  const signer = (context.services.exportLinkSigner ??= loadLinkSigner(context.db.pool, context.config.SIGNING_SECRET));
  // A failed load (database briefly down) must not stick: the next call tries again.
  signer.catch(() => {
    if (context.services.exportLinkSigner === signer) delete context.services.exportLinkSigner;
  });
  return signer;
}

/** A fresh signed download link for an export, valid for EXPORT_LINK_TTL_SECONDS. */
export async function signedLink(context: AppContext, row: { account_id: number; id: number }): Promise<{ url: string; expiresAt: Date }> {
  const signer = await linkSignerOf(context);
  const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + context.config.EXPORT_LINK_TTL_SECONDS * 1000);
  return { url: signer.downloadUrl(context.publicUrl, row.account_id, row.id, expiresAt), expiresAt };
}
