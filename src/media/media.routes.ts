import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { validate } from '../http/validate';
import { updateMedia, UpdateMediaDto } from './media-description';
import { describeOperation } from '../openapi/describe-operation';
import {
  ALLOWED_CONTENT_TYPES,
  attachMedia,
  deleteMedia,
  findMedia,
  MAX_MEDIA_BYTES,
  MediaOut,
  reorderMedia,
  ReorderMediaDto,
  UploadMediaQuery,
} from './media';
import { AppError } from '../kernel/app-error';
import { AddMediaLinkDto, addMediaLink, UpdateMediaLinkDto, updateMediaLink } from './media-links';
import { contentDisposition } from '../kernel/content-disposition';

/**
 * `/api/Media/*`: files attached to catalog elements. Upload takes the raw file as the body
 * (Content-Type of the file) and its metadata in the query string, so no base64 inflation.
 */
export const mediaRoutes = new Hono<AppEnv>()
  .post(
    '/Upload',
    describeOperation({
      tag: 'Catalog',
      summary: 'Attach a file (raw body, its own Content-Type) to a catalog element',
      response: MediaOut,
      security: 'cookie',
      upload: ALLOWED_CONTENT_TYPES,
    }),
    validate('query', UploadMediaQuery),
    async (c) => {
      const declared = Number(c.req.header('Content-Length') ?? '0');
      if (declared > MAX_MEDIA_BYTES)
        throw new AppError('payload_too_large', `the file exceeds ${MAX_MEDIA_BYTES} bytes`);
      const bytes = await c.req.arrayBuffer();
      if (bytes.byteLength > MAX_MEDIA_BYTES)
        throw new AppError('payload_too_large', `the file exceeds ${MAX_MEDIA_BYTES} bytes`);
      const contentType = c.req.header('Content-Type') ?? '';
      return c.json(
        await attachMedia({ db: c.var.db, files: c.env.FILES }, c.var.caller, {
          ...c.req.valid('query'),
          contentType,
          bytes,
        }),
      );
    },
  )
  .get(
    '/Get',
    describeOperation({
      tag: 'Catalog',
      summary: 'Download an attached file',
      responseContentType: 'application/octet-stream',
      security: 'cookie',
    }),
    validate('query', z.strictObject({ mediaId: z.uuid() })),
    async (c) => {
      const row = await findMedia(c.var.db, c.var.caller, c.req.valid('query').mediaId);
      const object = await c.env.FILES.get(row.storageKey);
      if (!object) throw new AppError('not_found', 'media file not found');
      return new Response(object.body, {
        headers: {
          'Content-Type': row.contentType,
          'Content-Length': String(object.size),
          'Content-Disposition': contentDisposition('inline', row.fileName),
          'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
          'X-Content-Type-Options': 'nosniff',
        },
      });
    },
  )
  .post(
    '/Delete',
    describeOperation({
      tag: 'Catalog',
      summary: 'Detach and delete a file',
      response: z.object({ mediaId: z.string(), deleted: z.literal(true) }),
      security: 'cookie',
    }),
    validate('json', z.strictObject({ departmentId: z.uuid(), mediaId: z.uuid() })),
    async (c) => c.json(await deleteMedia({ db: c.var.db, files: c.env.FILES }, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/Reorder',
    describeOperation({
      tag: 'Catalog',
      summary: "Set the order of an element's files",
      response: z.object({ elementId: z.string(), items: z.array(MediaOut) }),
      security: 'cookie',
    }),
    validate('json', ReorderMediaDto),
    async (c) => c.json(await reorderMedia(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/AddLink',
    describeOperation({
      tag: 'Catalog',
      summary: 'Attach a link (absolute http(s) URL of a file kept elsewhere) to a catalog element',
      response: MediaOut,
      security: 'cookie',
    }),
    validate('json', AddMediaLinkDto),
    async (c) => c.json(await addMediaLink(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/UpdateLink',
    describeOperation({
      tag: 'Catalog',
      summary: "Change a link's URL, purpose, description, type, MIME code or alt text",
      response: MediaOut,
      security: 'cookie',
    }),
    validate('json', UpdateMediaLinkDto),
    async (c) => c.json(await updateMediaLink(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/UpdateMedia',
    describeOperation({
      tag: 'Catalog',
      summary: "Change a media entry's description in one language (language absent: the catalog's default)",
      response: MediaOut.extend({ language: z.string() }),
      security: 'cookie',
      permission: 'text.write',
    }),
    validate('json', UpdateMediaDto),
    async (c) => c.json(await updateMedia(c.var.db, c.var.caller, c.req.valid('json'))),
  );
