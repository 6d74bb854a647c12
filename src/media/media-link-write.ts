import { attachmentOfColumn } from '../kernel/media-attachment';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { runBatch, type BatchStatement, type Database } from '../db/client';
import { withCompletenessEventsAtEnd } from '../db/completeness-flush';
import { media } from '../db/schema';
import type { AggregateMedia, ProductNode } from '../model/product-aggregate';
import {
  checkDepartment,
  departmentStatement,
  elementFrom,
  elementStatements,
  masterFrom,
  masterSetOf,
  masterStatements,
} from '../records/write-context';
import { guardStatement } from '../records/write-guard';
import { notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { compareBinary } from '../kernel/compare-binary';
import { refreshAfterLinkChange, staleOnLinkChange } from './media';
import { aggregateAfter, bumpWithFingerprint, fingerprintWith, revisionIs } from '../records/fingerprint-after';

type MediaRow = typeof media.$inferSelect;

/**
 * The one read round trip of AddLink / UpdateLink (docs/history.md "Concurrency"): the
 * caller's department, the element (given, or the one of the media row `mediaId`), that row,
 * the element's media (the URL twin check and the end of the order) and, for a product or
 * variant, its master's aggregate with the category paths of its sync record.
 */
export async function readLinkContext(
  db: Database,
  caller: Caller,
  input: { departmentId: string; elementId?: string; mediaId?: string },
) {
  const elementId: string | SQL =
    input.elementId ?? sql`(SELECT ${media.elementId} FROM ${media} WHERE ${media.id} = ${input.mediaId ?? ''})`;
  const results = await db.batch([
    departmentStatement(db, caller, input.departmentId),
    ...elementStatements(db, caller, elementId),
    db
      .select()
      .from(media)
      .where(eq(media.id, input.mediaId ?? ''))
      .limit(1),
    db
      .select({ id: media.id, url: media.url, sortOrder: media.sortOrder })
      .from(media)
      .where(eq(media.elementId, elementId)),
    ...masterStatements(db, caller.companyId, masterSetOf(caller.companyId, elementId)),
  ]);
  checkDepartment(results[0]);
  const what = input.mediaId ? 'media' : 'element';
  let element: ReturnType<typeof elementFrom>;
  try {
    element = elementFrom([results[1], results[2], results[3]]);
  } catch {
    throw notFound(what);
  }
  if (element.departmentId !== input.departmentId) throw notFound(what);
  const { aggregate, paths } = masterFrom(db, caller.companyId, results.slice(6) as never);
  return { element, row: results[4][0] as MediaRow | undefined, siblings: results[5], aggregate, paths };
}

export type LinkContext = Awaited<ReturnType<typeof readLinkContext>>;

/** A media row as the aggregate holds it (product-aggregate.ts), for the fingerprint after the write. */
export function aggregateMedia(row: Omit<MediaRow, 'createdAt'>): AggregateMedia {
  return {
    mediaId: row.id,
    purpose: row.purpose,
    fileName: row.fileName,
    contentType: row.contentType,
    size: row.size,
    storageKey: row.storageKey,
    sha256: row.sha256 ?? null,
    description: row.description,
    sortOrder: row.sortOrder,
    url: row.url,
    mimeCode: row.mimeCode,
    alt: row.alt,
    ...(row.attachment ? { attachment: attachmentOfColumn(row.attachment) } : {}),
  };
}

/**
 * The one guarded write batch of a link change. On a product or variant: the guard on the
 * master's revision, the statements, and the revision bump with the fingerprint of the
 * aggregate after `change` (the node's media re-sorted as the aggregate reads them). On a
 * category or catalog (no sync record): the guard `unchanged` on the element's media, and for a
 * category the products placed in it marked stale (their records carry its links). A lost
 * race fails the whole batch; the caller retries from the read (retryOnConflict).
 */
export async function writeLink(
  db: Database,
  caller: Caller,
  ctx: LinkContext,
  statements: BatchStatement[],
  change: (node: ProductNode) => void,
  unchanged: SQL,
): Promise<void> {
  if (!ctx.aggregate) {
    await runBatch(
      db,
      withCompletenessEventsAtEnd(db, [
        guardStatement(db, unchanged),
        ...statements,
        ...staleOnLinkChange(db, caller.companyId, ctx.element, true),
      ]),
    );
    await refreshAfterLinkChange(db, caller.companyId, ctx.element, true);
    return;
  }
  const revision = ctx.aggregate.product.revision;
  const after = aggregateAfter(ctx.aggregate, ctx.element.id, (node) => {
    change(node);
    node.media.sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0) || compareBinary(a.fileName, b.fileName));
  });
  await runBatch(
    db,
    withCompletenessEventsAtEnd(db, [
      guardStatement(db, revisionIs(caller.companyId, ctx.aggregate.product.id, revision)),
      ...statements,
      bumpWithFingerprint(db, ctx.aggregate.product.id, revision, await fingerprintWith(after, ctx.paths)),
    ]),
  );
}

/**
 * The guard of a category's or catalog's link write: no other entry has `url`, the order's end
 * is as read and, for a change, the changed row is as read (so its history `before` is exact).
 */
export function mediaUnchanged(elementId: string, url: string, lastSortOrder: number, old: MediaRow | null): SQL {
  const twin = sql`NOT EXISTS (SELECT 1 FROM ${media} WHERE ${and(
    eq(media.elementId, elementId),
    eq(media.url, url),
    old ? sql`${media.id} <> ${old.id}` : sql`1 = 1`,
  )})`;
  const end = sql`(SELECT coalesce(max(${media.sortOrder}), -1) FROM ${media} WHERE ${media.elementId} = ${elementId}) = ${lastSortOrder}`;
  if (!old) return sql`${twin} AND ${end}`;
  const state = JSON.stringify([
    old.url,
    old.purpose,
    old.description,
    old.contentType,
    old.mimeCode,
    old.alt,
    old.sortOrder,
    old.attachment,
  ]);
  const row = sql`(SELECT json_array(${media.url}, ${media.purpose}, ${media.description}, ${media.contentType}, ${media.mimeCode}, ${media.alt}, ${media.sortOrder}, ${media.attachment}) FROM ${media} WHERE ${media.id} = ${old.id}) = ${state}`;
  return sql`${twin} AND ${end} AND ${row}`;
}
