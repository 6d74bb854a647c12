import { and, asc, eq, gt, inArray, isNotNull, max, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../db/client';
import { goneProductInScopeSql, productScopeSql } from '../db/product-scope';
import { changeFeed, domainEvents, historyVersions } from '../db/schema';
import type { Caller, ProductScope } from '../kernel/caller';
import { encodeFeedCursor, type FeedPosition, resolveFeedCursor } from './feed-cursor';
import { decodeChanges } from '../records/history-record';
import type { ChangeItemOut, ChangesPageOut, EventItemOut } from './changes.schemas';

type ChangeItem = z.infer<typeof ChangeItemOut>;
type EventItem = z.infer<typeof EventItemOut>;

/** `name@deu` -> field `name`, language `deu`; a path without a language suffix is only a field. */
const LANGUAGE_SUFFIX = /^(.+)@([a-z]{2,3}(?:-[A-Za-z0-9]+)*)$/;

export function fieldsAndLanguages(paths: readonly string[]): { fields: string[]; languages: string[] } {
  const fields = new Set<string>();
  const languages = new Set<string>();
  for (const path of paths) {
    const match = LANGUAGE_SUFFIX.exec(path);
    fields.add(match ? match[1]! : path);
    if (match) languages.add(match[2]!);
  }
  return { fields: [...fields].sort(), languages: [...languages].sort() };
}

/** One feed row as a change item. */
export function changeItem(companyId: string, seq: number, v: typeof historyVersions.$inferSelect): ChangeItem {
  const changes = decodeChanges(v.changes);
  return {
    type: 'change',
    changeId: v.id,
    cursor: encodeFeedCursor(companyId, seq, v.id),
    at: v.at,
    action: v.action as ChangeItem['action'],
    elementKind: v.elementKind as ChangeItem['elementKind'],
    elementId: v.elementId,
    userId: v.userId,
    surface: v.surface,
    ...(v.clientName ? { clientName: v.clientName } : {}),
    ...(v.jobId ? { jobId: v.jobId } : {}),
    ...fieldsAndLanguages(changes.map((c) => c.path)),
    changes,
  };
}

/**
 * Up to `limit` feed rows of the company after `afterSeq`, in commit order, with their versions:
 * one range read of the (company_id, seq) index and a primary-key lookup per row. A version
 * pruned by retention leaves its feed row behind; the join skips it.
 */
export async function readFeed(db: Database, companyId: string, afterSeq: number, limit: number) {
  return db
    .select({ seq: changeFeed.seq, version: historyVersions })
    .from(changeFeed)
    .innerJoin(historyVersions, eq(historyVersions.id, changeFeed.versionId))
    .where(and(eq(changeFeed.companyId, companyId), gt(changeFeed.seq, afterSeq)))
    .orderBy(asc(changeFeed.seq))
    .limit(limit);
}

/** One feed row of a review or completeness event as an item. */
export function eventItem(companyId: string, seq: number, e: typeof domainEvents.$inferSelect): EventItem {
  return {
    type: e.eventType as EventItem['type'],
    eventId: e.id,
    cursor: encodeFeedCursor(companyId, seq, e.id),
    at: e.at,
    data: JSON.parse(e.data) as EventItem['data'],
  };
}

/**
 * As `readFeed`, with the review and completeness events (`domain_events`, migration 0069) that
 * share the feed's sequence: the same range of the (company_id, seq) index and one primary-key
 * lookup in each table per row.
 */
export async function readFeedWithEvents(db: Database, companyId: string, afterSeq: number, limit: number) {
  return db
    .select({ seq: changeFeed.seq, version: historyVersions, event: domainEvents })
    .from(changeFeed)
    .leftJoin(historyVersions, eq(historyVersions.id, changeFeed.versionId))
    .leftJoin(domainEvents, eq(domainEvents.id, changeFeed.versionId))
    .where(
      and(
        eq(changeFeed.companyId, companyId),
        gt(changeFeed.seq, afterSeq),
        or(isNotNull(historyVersions.id), isNotNull(domainEvents.id)),
      ),
    )
    .orderBy(asc(changeFeed.seq))
    .limit(limit);
}

/** The company's newest feed sequence (0 when it has none). */
export async function lastFeedSeq(db: Database, companyId: string): Promise<number> {
  const [row] = await db
    .select({ seq: max(changeFeed.seq) })
    .from(changeFeed)
    .where(eq(changeFeed.companyId, companyId));
  return row?.seq ?? 0;
}

/**
 * GetChanges: every change of the caller's company after `since`, in commit order, deletes
 * included, with a cursor to resume from. Nothing committed is skipped between two polls: the
 * sequence is assigned inside each writer's transaction (migration 0052), so a change that
 * commits later always has a higher sequence than every change a poll has already seen.
 */
export async function getChanges(
  db: Database,
  caller: Caller,
  input: { since?: string; limit: number; include?: 'events' },
  options: { scan?: number } = {},
): Promise<z.infer<typeof ChangesPageOut>> {
  const position = await resolveFeedCursor(db, caller.companyId, input.since);
  const after = position.seq;
  if (caller.productScope)
    return getScopedChanges(db, caller, caller.productScope, position, input.limit, {
      scan: options.scan ?? SCOPED_FEED_SCAN,
      events: input.include === 'events',
    });
  if (input.include === 'events') {
    const rows = await readFeedWithEvents(db, caller.companyId, after, input.limit + 1);
    const page = rows.slice(0, input.limit);
    const items = page.map((row) =>
      row.version
        ? changeItem(caller.companyId, row.seq, row.version)
        : eventItem(caller.companyId, row.seq, row.event!),
    );
    return {
      items,
      cursor: items.at(-1)?.cursor ?? encodePosition(caller.companyId, position),
      hasMore: rows.length > input.limit,
    };
  }
  const rows = await readFeed(db, caller.companyId, after, input.limit + 1);
  const page = rows.slice(0, input.limit);
  const items = page.map((row) => changeItem(caller.companyId, row.seq, row.version));
  return {
    items,
    cursor: items.at(-1)?.cursor ?? encodePosition(caller.companyId, position),
    hasMore: rows.length > input.limit,
  };
}

const encodePosition = (companyId: string, p: FeedPosition) => encodeFeedCursor(companyId, p.seq, p.versionId);

/** How many feed rows a scoped page reads at most, whatever it keeps (a page may then hold fewer than `limit`). */
export const SCOPED_FEED_SCAN = 1000;

/**
 * The feed of a member with a product scope (docs/teams.md, "The changes feed"): the same
 * cursor and order, only the changes of their products (a product or variant in scope now; one
 * gone whose history says it lay in the scope: its recorded catalog, a master's recorded
 * placements, a variant's master, `goneProductInScopeSql`) and of catalogs, categories and templates (the
 * tree is not hidden). A page reads at most SCOPED_FEED_SCAN rows of the (company_id, seq)
 * index, each judged by primary-key seeks; when that window ends before `limit` changes were
 * kept, the cursor moves to its end and `hasMore` is true, so a small scope in a busy company
 * pages on in bounded steps instead of one long scan. With `events`, the review and completeness
 * events of products in scope now (`data.productId`, the master) come in the same order; an
 * event of a product deleted since is left out, like one of a product outside.
 */
async function getScopedChanges(
  db: Database,
  caller: Caller,
  scope: ProductScope,
  position: FeedPosition,
  limit: number,
  { scan, events }: { scan: number; events: boolean },
): Promise<z.infer<typeof ChangesPageOut>> {
  const { companyId } = caller;
  const after = position.seq;
  const window = sql`SELECT f.seq, f.version_id FROM change_feed f
    WHERE f.company_id = ${companyId} AND f.seq > ${after} ORDER BY f.seq LIMIT ${scan}`;
  const live = productScopeSql(scope, companyId, sql`p.catalog_id`, sql`coalesce(p.parent_id, p.id)`);
  const visible = sql`(v.element_kind NOT IN ('product', 'variant')
    OR EXISTS (SELECT 1 FROM products p WHERE p.id = v.element_id AND p.company_id = ${companyId} AND ${live})
    OR (v.element_kind IN ('product', 'variant') AND NOT EXISTS (SELECT 1 FROM products p WHERE p.id = v.element_id)
      AND ${goneProductInScopeSql(scope, companyId, sql`v.element_id`)}))`;
  const eventRows = events
    ? sql` UNION ALL SELECT w.seq, w.version_id, 0 FROM w CROSS JOIN domain_events d ON d.id = w.version_id
      WHERE d.company_id = ${companyId} AND EXISTS (SELECT 1 FROM products p
        WHERE p.id = json_extract(d.data, '$.productId') AND p.company_id = ${companyId} AND ${live})`
    : sql``;
  // one statement (one snapshot): the kept rows, and a last row with the window's end (its seq and
  // id) and its size plus one in `meta` (0 marks a kept row)
  const rows = await db.all<{ seq: number | null; version_id: string | null; meta: number }>(sql`
    WITH w AS MATERIALIZED (${window})
    SELECT * FROM (SELECT w.seq, w.version_id, 0 AS meta FROM w CROSS JOIN history_versions v ON v.id = w.version_id
      WHERE ${visible}${eventRows} ORDER BY seq LIMIT ${limit + 1})
    UNION ALL SELECT * FROM (SELECT max(seq), (SELECT version_id FROM w ORDER BY seq DESC LIMIT 1), 1 + count(*) FROM w)`);
  const kept = rows.filter((r) => r.meta === 0) as { seq: number; version_id: string }[];
  const summary = rows.find((r) => r.meta > 0);
  const scanned = [{ n: (summary?.meta ?? 1) - 1, last: summary?.seq ?? null, lastId: summary?.version_id ?? null }];
  const page = kept.slice(0, limit);
  const versions = page.length
    ? await db
        .select()
        .from(historyVersions)
        .where(
          inArray(
            historyVersions.id,
            page.map((r) => r.version_id),
          ),
        )
    : [];
  const byId = new Map(versions.map((v) => [v.id, v]));
  const eventIds = page.filter((r) => !byId.has(r.version_id)).map((r) => r.version_id);
  const eventsById = new Map(
    (eventIds.length ? await db.select().from(domainEvents).where(inArray(domainEvents.id, eventIds)) : []).map((e) => [
      e.id,
      e,
    ]),
  );
  const items = page.flatMap((row): (ChangeItem | EventItem)[] => {
    const version = byId.get(row.version_id);
    if (version) return [changeItem(companyId, row.seq, version)];
    const event = eventsById.get(row.version_id);
    return event ? [eventItem(companyId, row.seq, event)] : [];
  });
  const window0 = scanned[0];
  const windowFull = Number(window0?.n ?? 0) >= scan;
  if (kept.length > limit) {
    const last = page.at(-1)!;
    return { items, cursor: encodeFeedCursor(companyId, last.seq, last.version_id), hasMore: true };
  }
  // every kept change of the window is on the page: resume after the window's last row (judged already)
  const end =
    window0?.last != null && Number(window0.last) > after
      ? { seq: Number(window0.last), versionId: window0.lastId ?? undefined }
      : position;
  return { items, cursor: encodePosition(companyId, end), hasMore: windowFull };
}
