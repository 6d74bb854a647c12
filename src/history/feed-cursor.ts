import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { changeFeed } from '../db/schema';
import { badRequest } from '../kernel/app-error';
import { decodeJsonCursor, encodeJsonCursor } from '../kernel/pagination';

/**
 * The cursor of the feed: the commit sequence (`change_feed.seq`) of the last row read, the id of
 * that row's change or event (`v`) and the company it belongs to, so a cursor of another company
 * is refused instead of silently reading from somewhere else. The sequence is the cell's: a
 * company moved to another cell (src/db/cell-move-feed.ts) has its feed numbered anew there, in
 * the same order, so a cursor is resumed by its row's id (the unique change_feed_version_idx),
 * and `s` is only what cursors issued before `v` existed carry.
 */
export function encodeFeedCursor(companyId: string, seq: number, versionId?: string): string {
  const json = JSON.stringify(
    versionId === undefined ? { c: companyId, s: seq } : { c: companyId, s: seq, v: versionId },
  );
  // Every item of a page carries one (1,000 on a full page): ids are ASCII, so the JSON is its own
  // UTF-8 and btoa takes it as is, the same text encodeJsonCursor makes at half its CPU.
  if (!ASCII.test(json)) return encodeJsonCursor(JSON.parse(json));
  return btoa(json).replace(URL_UNSAFE, (ch) => (ch === '+' ? '-' : ch === '/' ? '_' : ''));
}

const ASCII = /^[\x20-\x7e]*$/;
const URL_UNSAFE = /[+/=]/g;

export interface FeedPosition {
  seq: number;
  /** The id of the change or event at `seq`; absent at the feed's start and in cursors before it was added. */
  versionId?: string;
}

/** The position a cursor carries; 400 when it is malformed or of another company. */
export function decodeFeedCursor(companyId: string, cursor: string | undefined): FeedPosition {
  if (cursor === undefined || cursor === '') return { seq: 0 };
  const value = decodeJsonCursor(cursor) as { c?: unknown; s?: unknown; v?: unknown } | null;
  if (
    !value ||
    typeof value !== 'object' ||
    typeof value.s !== 'number' ||
    !Number.isSafeInteger(value.s) ||
    value.s < 0 ||
    (value.v !== undefined && (typeof value.v !== 'string' || value.v.length === 0 || value.v.length > 64))
  )
    throw badRequest('since is not a valid cursor');
  if (value.c !== companyId) throw badRequest('since is a cursor of another company');
  return value.v === undefined ? { seq: value.s } : { seq: value.s, versionId: value.v };
}

/**
 * Where a cursor resumes in this cell: its row's sequence now, found by the row's id (one seek of
 * change_feed_version_idx), which differs from the cursor's after the company moved to another
 * cell. A cursor whose row this cell's feed does not hold cannot be placed: 400, start again.
 */
export async function resolveFeedCursor(
  db: Database,
  companyId: string,
  cursor: string | undefined,
): Promise<FeedPosition> {
  const position = decodeFeedCursor(companyId, cursor);
  if (position.versionId === undefined) return position;
  const [row] = await db
    .select({ seq: changeFeed.seq })
    .from(changeFeed)
    .where(and(eq(changeFeed.versionId, position.versionId), eq(changeFeed.companyId, companyId)));
  if (!row) throw badRequest('since names a change the feed does not hold; start again without since');
  return { seq: row.seq, versionId: position.versionId };
}
