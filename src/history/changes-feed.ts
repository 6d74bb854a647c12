import { and, asc, eq, gt, isNotNull, max, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../db/client';
import { changeFeed, domainEvents, historyVersions } from '../db/schema';
import { badRequest, forbidden } from '../kernel/app-error';
import { NOT_PERMITTED } from '../kernel/permissions';
import type { Caller } from '../kernel/caller';
import { decodeJsonCursor, encodeJsonCursor } from '../kernel/pagination';
import { decodeChanges } from '../records/history-record';
import type { ChangeItemOut, ChangesPageOut, EventItemOut } from './changes.schemas';

type ChangeItem = z.infer<typeof ChangeItemOut>;
type EventItem = z.infer<typeof EventItemOut>;

/**
 * The cursor of the feed: the commit sequence (`change_feed.seq`) of the last change read and
 * the company it belongs to, so a cursor of another company is refused instead of silently
 * reading from somewhere else.
 */
export function encodeFeedCursor(companyId: string, seq: number): string {
  return encodeJsonCursor({ c: companyId, s: seq });
}

/** The sequence a cursor carries; 400 when it is malformed or of another company. */
export function decodeFeedCursor(companyId: string, cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  const value = decodeJsonCursor(cursor) as { c?: unknown; s?: unknown } | null;
  if (
    !value ||
    typeof value !== 'object' ||
    typeof value.s !== 'number' ||
    !Number.isSafeInteger(value.s) ||
    value.s < 0
  )
    throw badRequest('since is not a valid cursor');
  if (value.c !== companyId) throw badRequest('since is a cursor of another company');
  return value.s;
}

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
    cursor: encodeFeedCursor(companyId, seq),
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
    cursor: encodeFeedCursor(companyId, seq),
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
): Promise<z.infer<typeof ChangesPageOut>> {
  // The feed is every change of the company: a member limited to part of it has no such read (docs/teams.md).
  if (caller.productScope) throw forbidden(NOT_PERMITTED);
  const after = decodeFeedCursor(caller.companyId, input.since);
  if (input.include === 'events') {
    const rows = await readFeedWithEvents(db, caller.companyId, after, input.limit + 1);
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    return {
      items: page.map((row) =>
        row.version
          ? changeItem(caller.companyId, row.seq, row.version)
          : eventItem(caller.companyId, row.seq, row.event!),
      ),
      cursor: encodeFeedCursor(caller.companyId, last ? last.seq : after),
      hasMore: rows.length > input.limit,
    };
  }
  const rows = await readFeed(db, caller.companyId, after, input.limit + 1);
  const page = rows.slice(0, input.limit);
  const items = page.map((row) => changeItem(caller.companyId, row.seq, row.version));
  const last = page.at(-1);
  return {
    items,
    cursor: encodeFeedCursor(caller.companyId, last ? last.seq : after),
    hasMore: rows.length > input.limit,
  };
}
