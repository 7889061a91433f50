import type express from 'express';
import type { Request, Response, NextFunction } from 'express';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { requireExport, storageKeyOf } from '../core/audiences/export-row.js';

/**
 * `GET /downloads/exports/<exportId>?account=..&expires=..&signature=..`: the signed link of an
 * export. No API key: the signature is the authorisation, so the link can be opened from a mail.
 * A tampered or malformed link and an expired one are refused with 403 and a message saying
 * how to get a new link; a link to an export past its retention is 410, and to one that does not exist 404.
 */
export function mountDownloadRoute(app: express.Express, context: AppContext): void {
  app.get('/downloads/exports/:exportId', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const exportId = parseId(String(req.params.exportId));
      const accountId = parseId(String(req.query.account ?? ''));
      const expires = parseId(String(req.query.expires ?? ''));
      const signature = typeof req.query.signature === 'string' ? req.query.signature : '';
      if (exportId === null || accountId === null || expires === null || !signature) throw invalidLink();
      const verdict = context.services.exportLinks.verify(accountId, exportId, expires, signature);
      if (verdict === 'invalid') throw invalidLink();
      if (verdict === 'expired') {
        throw new AppError(
          'forbidden',
          `This download link expired at ${new Date(expires * 1000).toISOString()}. Get a new link with getExportStatus (GET /v1/audiences/{audienceId}/exports/${exportId}).`,
        );
      }
      const row = await requireExport(context.db.pool, accountId, exportId);
      if (row.status === 'EXPIRED' && row.failure_reason?.startsWith('The audience was deleted')) {
        throw new AppError('gone', `Export ${exportId} is gone: ${row.failure_reason}`);
      }
      if (row.status === 'EXPIRED') {
        throw new AppError(
          'gone',
          `Export ${exportId} expired: its file was deleted ${context.config.EXPORT_RETENTION_DAYS} days after it was written. Export the audience again (exportCompanies or exportProspects).`,
        );
      }
      const file = row.status === 'READY' ? await context.services.exportStorage.open(storageKeyOf(row)) : null;
      if (!file) throw new AppError('not_found', `Export ${exportId} has no file to download.`);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Length', String(file.bytes));
      res.setHeader(
        'Content-Disposition',
        `attachment; filename="audience-${row.audience_id}-${row.kind}-${row.id}.csv"`,
      );
      res.setHeader('Cache-Control', 'private, no-store');
      file.stream.on('error', (error) => {
        context.log.error({ err: error, exportId }, 'export download failed mid-stream');
        res.destroy(error);
      });
      file.stream.pipe(res);
    } catch (error) {
      next(error);
    }
  });
}

function parseId(value: string): number | null {
  return /^[0-9]{1,15}$/.test(value) ? Number(value) : null;
}

function invalidLink(): AppError {
  return new AppError(
    'forbidden',
    'This download link is not valid (it was changed or cut short). Use the downloadUrl of getExportStatus exactly as given, or read a new one.',
  );
}
