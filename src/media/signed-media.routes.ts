import { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import type { AppEnv } from '../env';
import { cellNames, openCellSession } from '../db/cells';
import { media } from '../db/schema';
import { AppError, notFound } from '../kernel/app-error';
import { verifyMediaSignature } from './signed-url';

/**
 * `GET /media/signed/<mediaId>?expires=&sig=`: the public, expiring link a shop connector
 * fetches images with (docs/sync.md "Media"). The signature is the whole authorisation, so no
 * session or tenant is involved; the link names one file and nothing else. Without a company
 * there is no placement to route by, so the row is looked up cell by cell (docs/scaling.md
 * section 5): ids are UUIDv7, one id names one row in whichever cell holds its company.
 */
export const signedMediaRoutes = new Hono<AppEnv>().get('/media/signed/:mediaId', async (c) => {
  const mediaId = c.req.param('mediaId');
  if (!/^[0-9a-f-]{36}$/i.test(mediaId)) throw notFound('media');
  await verifyMediaSignature(
    c.env.MEDIA_URL_KEY,
    mediaId,
    c.req.query('expires'),
    c.req.query('sig'),
    Math.floor(Date.now() / 1000),
  );
  let row = await c.var.db.query.media.findFirst({ where: eq(media.id, mediaId) });
  for (const cell of cellNames(c.env).slice(1)) {
    if (row) break;
    row = await openCellSession(c.env, cell).db.query.media.findFirst({ where: eq(media.id, mediaId) });
  }
  if (!row) throw notFound('media');
  const object = await c.env.FILES.get(row.storageKey);
  if (!object) throw new AppError('not_found', 'media file not found');
  const headers: Record<string, string> = {
    'Content-Type': row.contentType,
    'Content-Length': String(object.size),
    'Content-Disposition': `inline; filename="${row.fileName.replace(/["\\]/g, '')}"`,
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    'Cache-Control': 'private, max-age=3600',
  };
  if (row.sha256) headers['X-Content-SHA256'] = row.sha256;
  return new Response(object.body, { headers });
});
