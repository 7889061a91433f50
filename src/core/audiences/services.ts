import type { AppContext } from '../../context.js';

/** A fresh signed download link for an export, valid for EXPORT_LINK_TTL_SECONDS. */
export function signedLink(
  context: AppContext,
  row: { account_id: number; id: number },
): { url: string; expiresAt: Date } {
  const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + context.config.EXPORT_LINK_TTL_SECONDS * 1000);
  return {
    url: context.services.exportLinks.downloadUrl(context.publicUrl, row.account_id, row.id, expiresAt),
    expiresAt,
  };
}
