import type { Config } from '../../config.js';
import type { ServicesDeps } from '../deps.js';

/** What a signed link needs: the service's public URL, the link's lifetime and the signer. */
export type ExportLinkDeps = {
  publicUrl: string;
  config: Pick<Config, 'EXPORT_LINK_TTL_SECONDS'>;
} & ServicesDeps<'exportLinks'>;

/** A fresh signed download link for an export, valid for EXPORT_LINK_TTL_SECONDS. */
export function signedLink(
  context: ExportLinkDeps,
  row: { account_id: number; id: number },
): { url: string; expiresAt: Date } {
  const expiresAt = new Date(Math.floor(Date.now() / 1000) * 1000 + context.config.EXPORT_LINK_TTL_SECONDS * 1000);
  return {
    url: context.services.exportLinks.downloadUrl(context.publicUrl, row.account_id, row.id, expiresAt),
    expiresAt,
  };
}
