import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type express from 'express';

/**
 * The dashboard's static files, served by the app itself (no CDN): its one stylesheet (with
 * uPlot's few rules appended), its script, and uPlot from the installed package. They are read
 * from the source tree (tsc copies no .css or .js), once, and revalidated by ETag.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
/** The compiled service runs from dist/: the assets stay in the source tree, as migrations do. */
const assetsDir = path.join(here.replace(`${path.sep}dist${path.sep}`, path.sep), 'assets');
const uplotDir = path.join(path.dirname(createRequire(import.meta.url).resolve('uplot/package.json')), 'dist');

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

const sources: Record<string, { files: string[]; type: string }> = {
  'dashboard.css': {
    files: [path.join(assetsDir, 'dashboard.css'), path.join(uplotDir, 'uPlot.min.css')],
    type: 'text/css; charset=utf-8',
  },
  'dashboard.js': { files: [path.join(assetsDir, 'dashboard.js')], type: 'text/javascript; charset=utf-8' },
  'table-chart.js': { files: [path.join(assetsDir, 'table-chart.js')], type: 'text/javascript; charset=utf-8' },
  'uplot.js': { files: [path.join(uplotDir, 'uPlot.iife.min.js')], type: 'text/javascript; charset=utf-8' },
};

const loaded = new Map<string, Promise<Asset>>();

function load(name: string): Promise<Asset> | null {
  const source = sources[name];
  if (!source) return null;
  let asset = loaded.get(name);
  if (!asset) {
    asset = Promise.all(source.files.map((file) => readFile(file))).then((parts) => {
      const body = Buffer.concat(parts.flatMap((part) => [part, Buffer.from('\n')]));
      return {
        body,
        type: source.type,
        etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      };
    });
    asset.catch(() => loaded.delete(name));
    loaded.set(name, asset);
  }
  return asset;
}

export function serveAssets(router: express.Router): void {
  router.get('/assets/:name', async (req, res, next) => {
    try {
      const asset = await load(String(req.params.name));
      if (!asset) {
        res.status(404).type('text/plain').send('No such asset.');
        return;
      }
      res.set({
        'Content-Type': asset.type,
        ETag: asset.etag,
        'Cache-Control': 'public, max-age=300, must-revalidate',
      });
      if (req.headers['if-none-match'] === asset.etag) {
        res.status(304).end();
        return;
      }
      res.send(asset.body);
    } catch (error) {
      next(error);
    }
  });
}
