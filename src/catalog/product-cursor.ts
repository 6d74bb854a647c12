import { decodeJsonCursor, encodeJsonCursor } from '../kernel/pagination';
import { badRequest } from '../kernel/app-error';

/**
 * Keyset cursors of the product list (docs/search.md). Opaque to clients (base64url JSON) and
 * bound to the order that made them: a cursor of another sort or direction is a 400, never a
 * silently wrong page.
 *
 * - Value orders (sku, name, updatedAt): the segment (`null` for products without a value,
 *   `value` otherwise), the last value and the last id.
 * - Relevance: the last bm25 score and id.
 * - Index order of a broad search: the last FTS docid (the product's rowid) and id.
 * - Completeness (`sort=completeness`): the segment (`null` for products without a score in the
 *   channel and language), the last score, the product's rowid (the score index's key after the
 *   score) and id, and the channel and language it was made for (`h`).
 */
export type SortName = 'sku' | 'name' | 'updatedAt';
export type Direction = 'asc' | 'desc';
export type Segment = 'null' | 'value';

export interface ValueCursor {
  s: SortName;
  o: Direction;
  g: Segment;
  k: string | null;
  i: string;
}
export interface RankCursor {
  s: 'rank';
  r: number;
  i: string;
}
export interface MatchCursor {
  s: 'match';
  d: number;
  i: string;
}
export interface CompletenessCursor {
  s: 'completeness';
  o: Direction;
  g: Segment;
  k: number | null;
  r: number;
  i: string;
  h: string;
}
type ProductCursor = ValueCursor | RankCursor | MatchCursor | CompletenessCursor;

const SORT_NAMES = new Set(['sku', 'name', 'updatedAt', 'rank', 'match', 'completeness']);

/** Decodes a cursor (400 when it is not one of ours). */
export function decodeProductCursor(cursor: string | undefined): ProductCursor | null {
  if (!cursor) return null;
  const c = decodeJsonCursor(cursor) as Record<string, unknown> | null;
  if (!c || typeof c !== 'object' || typeof c.i !== 'string' || !SORT_NAMES.has(c.s as string))
    throw badRequest('cursor is not valid');
  if (c.s === 'rank') {
    if (typeof c.r !== 'number' || !Number.isFinite(c.r)) throw badRequest('cursor is not valid');
    return { s: 'rank', r: c.r, i: c.i };
  }
  if (c.s === 'match') {
    if (typeof c.d !== 'number' || !Number.isSafeInteger(c.d)) throw badRequest('cursor is not valid');
    return { s: 'match', d: c.d, i: c.i };
  }
  if (c.s === 'completeness') {
    const segmentOk = c.g === 'null' ? c.k === null : c.g === 'value' && Number.isSafeInteger(c.k);
    if ((c.o !== 'asc' && c.o !== 'desc') || !segmentOk || !Number.isSafeInteger(c.r) || typeof c.h !== 'string')
      throw badRequest('cursor is not valid');
    return c as unknown as CompletenessCursor;
  }
  const validSegment = c.g === 'null' ? c.k === null : c.g === 'value' && typeof c.k === 'string';
  if ((c.o !== 'asc' && c.o !== 'desc') || !validSegment) throw badRequest('cursor is not valid');
  return c as unknown as ValueCursor;
}

/** 400 unless the cursor was made by the order now requested. */
export function assertCursorOrder(
  cursor: ProductCursor | null,
  sort: SortName | 'rank' | 'match' | 'completeness',
  order: Direction,
): void {
  if (!cursor) return;
  if (cursor.s !== sort || (cursor.s !== 'rank' && cursor.s !== 'match' && cursor.o !== order)) {
    throw badRequest('cursor belongs to another sort order; start again without cursor');
  }
}

export function encodeProductCursor(cursor: ProductCursor): string {
  return encodeJsonCursor(cursor);
}
