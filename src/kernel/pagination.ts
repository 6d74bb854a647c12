import { asc, desc, gt, lt, type SQL } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import { z } from 'zod';
import { badRequest } from './app-error';
import { base64UrlToBytes, bytesToBase64Url } from './base64';

/** Keyset pagination: an opaque cursor and a page size (default 50, max 500). */
export const PageQuery = {
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
};

/** The response shape of every list operation: one page of items and the cursor of the next. */
export const Page = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable() });

/** Opaque keyset cursor: base64url of the last row's sort key. */
function encodeCursor(key: string): string {
  return btoa(key).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    return atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    throw badRequest('cursor is not valid');
  }
}

/** Given `limit + 1` rows, returns the page and the cursor of its last row when more exist. */
function toPage<T>(rows: T[], limit: number, keyOf: (row: T) => string): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}

/** What `keysetPage` hands its query: the cursor condition (undefined on the first page), the order and the limit. */
export interface KeysetQuery {
  after: SQL | undefined;
  orderBy: SQL;
  limit: number;
}

/**
 * One keyset page over a unique sort column (an id, UUIDv7 so creation order): decodes the
 * cursor, lets `fetch` read `limit + 1` rows after it in that order, and answers the page with
 * the cursor of its last row when more exist. Every list operation pages through it, so
 * cursors, the extra row and the "no more" signal behave the same everywhere.
 *
 * @example
 * keysetPage(
 *   input,
 *   { column: jobs.id, order: 'desc' },
 *   (q) => db.select().from(jobs).where(and(eq(jobs.companyId, companyId), q.after)).orderBy(q.orderBy).limit(q.limit),
 *   (row) => row.id,
 * );
 */
export async function keysetPage<T>(
  input: { cursor?: string; limit: number },
  key: { column: AnySQLiteColumn; order: 'asc' | 'desc'; integer?: boolean },
  fetch: (query: KeysetQuery) => Promise<T[]>,
  keyOf: (row: T) => string,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const decoded = decodeCursor(input.cursor);
  // an integer key (a row key): a cursor that does not carry one is refused, not compared as text
  if (key.integer && decoded !== undefined && !/^\d{1,15}$/.test(decoded)) throw badRequest('cursor is not valid');
  const cursor = key.integer && decoded !== undefined ? Number(decoded) : decoded;
  const ascending = key.order === 'asc';
  const rows = await fetch({
    after: cursor === undefined ? undefined : ascending ? gt(key.column, cursor) : lt(key.column, cursor),
    orderBy: ascending ? asc(key.column) : desc(key.column),
    limit: input.limit + 1,
  });
  return toPage(rows, input.limit, keyOf);
}

/** Opaque keyset cursor carrying a JSON value (UTF-8 safe): base64url of its JSON. */
export function encodeJsonCursor(value: unknown): string {
  return bytesToBase64Url(new TextEncoder().encode(JSON.stringify(value)));
}

/** The JSON value of a cursor made by `encodeJsonCursor`; 400 for anything else. */
export function decodeJsonCursor(cursor: string): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(base64UrlToBytes(cursor)));
  } catch {
    throw badRequest('cursor is not valid');
  }
}
