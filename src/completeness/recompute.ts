import { and, asc, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import { runBatch } from '../db/client';
import {
  catalogs,
  channels,
  completeness,
  completenessCountsDefer,
  completenessEventsDefer,
  jobs,
  variantCompleteness,
} from '../db/schema';
import { scoreRefresh } from '../db/score-refresh';
import { withBulkCounts } from '../db/score-counts';
import type { JobMessage } from '../env';
import { dbNow } from '../kernel/clock';
import { markRunning, type JobRow } from '../jobs/jobs';
import { progressed } from '../jobs/lease';
import { subtreeFilter } from '../catalog/category-rescore';
import { withCompletenessEvents } from './completeness-events';

/**
 * The job `completeness` (docs/completeness.md): after a channel's requirements changed, it
 * recomputes that channel's scores of every master of the company, catalog by catalog in pages
 * of PAGE masters by id, each page one transaction together with its checkpoint; after a
 * channel was deleted it removes the channel's score rows in pages. A redelivered or recovered
 * message resumes from the checkpoint. A product written meanwhile is scored by its write's
 * triggers against the new rules already, so the job and the writes never disagree.
 */
export const PAGE = 1000;
const DELETE_PAGE = 5000;

interface Checkpoint {
  seq: number;
  catalogId: string | null;
  afterId: string;
  done: number;
}

/**
 * One channel after its requirements changed (`channelId`); every channel for the masters
 * placed below a moved category (`scope`, src/catalog/category-rescore.ts): then only the
 * category's catalog is walked and each page keeps the masters placed in the subtree; or every
 * channel for every master (`everyChannel`) after something the rules read changed outside the
 * products: an attribute turned localizable or back (`attribute`), a release the rules name
 * loaded or loaded again (`release`).
 */
export interface RecomputeParams {
  channelId?: string;
  channelKey?: number;
  deleted?: boolean;
  scope?: { catalogId: string; categoryId: string };
  everyChannel?: boolean;
  attribute?: string;
  release?: string;
}

/** The masters of one page: ids after `afterId` up to `lastId` in one catalog (products_catalog_master_id_idx). */
const pageMasters = (catalogId: string, afterId: string, lastId: string, scope: RecomputeParams['scope']) =>
  sql`SELECT id FROM products WHERE catalog_id = ${catalogId} AND parent_id IS NULL AND id > ${afterId} AND id <= ${lastId}
    ${scope ? sql`AND ${subtreeFilter(scope.categoryId, sql`products.id`)}` : sql``}`;

const pageKeys = (catalogId: string, afterId: string, lastId: string, scope: RecomputeParams['scope']) =>
  sql`SELECT rowid FROM products WHERE id IN (${pageMasters(catalogId, afterId, lastId, scope)})`;

/** The variants of the page's masters (products_parent_idx): they are rescored with their masters. */
const variantKeys = (catalogId: string, afterId: string, lastId: string, scope: RecomputeParams['scope']) =>
  sql`SELECT rowid FROM products WHERE parent_id IN (${pageMasters(catalogId, afterId, lastId, scope)})`;

function saveCheckpoint(db: Database, jobId: string, loadedSeq: number, next: Checkpoint) {
  return db
    .update(jobs)
    .set({ checkpoint: next, progressDone: next.done, ...progressed() })
    .where(
      and(
        eq(jobs.id, jobId),
        eq(jobs.state, 'running'),
        sql`coalesce(json_extract(${jobs.checkpoint}, '$.seq'), 0) = ${loadedSeq}`,
      ),
    )
    .returning({ id: jobs.id });
}

async function nextCatalog(db: Database, companyId: string, after: string | null): Promise<string | null> {
  const [row] = await db
    .select({ id: catalogs.id })
    .from(catalogs)
    .where(and(eq(catalogs.companyId, companyId), after === null ? undefined : gt(catalogs.id, after)))
    .orderBy(asc(catalogs.id))
    .limit(1);
  return row?.id ?? null;
}

async function removeScores(db: Database, job: JobRow, channelKey: number): Promise<void> {
  // The counter triggers are switched off for these deletes (migration 0045): the channel's
  // counters and history are deleted below anyway, so counting each removed row is wasted work.
  for (const table of [completeness, variantCompleteness])
    for (;;) {
      const [, , deleted] = await runBatch(db, [
        db.insert(completenessCountsDefer).values({ id: 1 }).onConflictDoNothing(),
        // a deleted channel's scores going are no completeness events (migration 0061)
        db.insert(completenessEventsDefer).values({ id: 1 }).onConflictDoNothing(),
        db
          .delete(table)
          .where(
            and(
              eq(table.channelKey, channelKey),
              sql`${table.productKey} IN (SELECT product_key FROM ${table} WHERE channel_key = ${channelKey} LIMIT ${DELETE_PAGE})`,
            ),
          )
          .returning({ key: table.productKey }),
        db.delete(completenessCountsDefer),
        db.delete(completenessEventsDefer),
        db.update(jobs).set(progressed()).where(eq(jobs.id, job.id)),
      ]);
      if ((deleted as unknown[]).length < 1) break;
    }
  await db.run(sql`DELETE FROM completeness_counts WHERE channel_key = ${channelKey}`);
  // its 30-day history (migration 0027) goes with it: the key is never given again
  await db.run(sql`DELETE FROM completeness_daily WHERE channel_key = ${channelKey}`);
  // and the scope sets' (migration 0090), by their keys' prefix (set, channel)
  await db.run(sql`DELETE FROM scope_set_completeness_daily
    WHERE set_id IN (SELECT id FROM scope_sets WHERE company_id = ${job.companyId}) AND channel_key = ${channelKey}`);
  // and the catalog scopes' (migration 0094), a range of the company's rows
  await db.run(sql`DELETE FROM catalog_scope_completeness_daily
    WHERE company_id = ${job.companyId} AND channel_key = ${channelKey}`);
  await finish(db, job.id, 0);
}

async function finish(db: Database, jobId: string, done: number): Promise<void> {
  await db
    .update(jobs)
    .set({ state: 'succeeded', progressDone: done, progressTotal: done, checkpoint: null, finishedAt: dbNow })
    .where(and(eq(jobs.id, jobId), eq(jobs.state, 'running')));
}

/** Runs one slice of a recompute; continues in a new message after `sliceMs`. */
export async function runCompletenessSlice(
  deps: { db: Database; queue: Queue<JobMessage>; sliceMs: number },
  job: JobRow,
): Promise<'finished' | 'continued' | 'stopped'> {
  const { db } = deps;
  if (job.state !== 'queued' && job.state !== 'running') return 'stopped';
  const params = job.params as RecomputeParams;
  const scope = params.scope;
  const channel =
    params.deleted || params.channelId === undefined
      ? null
      : await db.query.channels.findFirst({
          where: and(eq(channels.channelId, params.channelId), eq(channels.companyId, job.companyId)),
          columns: { id: true },
        });
  const channelKey = params.channelKey ?? channel?.id;
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`coalesce(sum(${catalogs.productCount}), 0)` })
    .from(catalogs)
    .where(and(eq(catalogs.companyId, job.companyId), scope ? eq(catalogs.id, scope.catalogId) : undefined));
  if (!(await markRunning(db, job.id, total))) return 'stopped';
  if (channelKey === undefined && !scope && !params.everyChannel) {
    await finish(db, job.id, 0); // the channel was deleted before its scores were computed
    return 'finished';
  }
  if (params.deleted && channelKey !== undefined) {
    await removeScores(db, job, channelKey);
    return 'finished';
  }
  let cp = (job.checkpoint as Checkpoint | null) ?? { seq: 0, catalogId: null, afterId: '', done: 0 };
  if (cp.catalogId === null && cp.seq === 0)
    cp = { ...cp, catalogId: scope ? scope.catalogId : await nextCatalog(db, job.companyId, null) };
  const started = Date.now();
  while (cp.catalogId !== null) {
    const ids = await db.all<{ id: string }>(
      sql`SELECT id FROM products WHERE catalog_id = ${cp.catalogId} AND parent_id IS NULL AND id > ${cp.afterId} ORDER BY id LIMIT ${PAGE}`,
    );
    const next: Checkpoint =
      ids.length === 0
        ? {
            seq: cp.seq + 1,
            catalogId: scope ? null : await nextCatalog(db, job.companyId, cp.catalogId),
            afterId: '',
            done: cp.done,
          }
        : { seq: cp.seq + 1, catalogId: cp.catalogId, afterId: ids.at(-1)!.id, done: cp.done + ids.length };
    const keys = {
      masters: pageKeys(cp.catalogId, cp.afterId, next.afterId, scope),
      variants: variantKeys(cp.catalogId, cp.afterId, next.afterId, scope),
    };
    const rescore =
      ids.length === 0
        ? []
        : [
            ...scoreRefresh(db, keys.masters, { channelKey }),
            ...scoreRefresh(db, keys.variants, { channelKey, variants: true }),
          ];
    // One channel: its counters are kept once per page (src/db/score-counts.ts); a rescore of
    // every channel (a category move, an attribute or release change) leaves them to the
    // triggers, which fire only for scores that change.
    const counted = channelKey === undefined ? rescore : withBulkCounts(db, channelKey, keys, rescore);
    // masters and variants crossing complete <-> incomplete leave their webhook events in the same transaction
    const statements = withCompletenessEvents(db, job.companyId, keys, channelKey, counted);
    const results = await runBatch(db, [...statements, saveCheckpoint(db, job.id, cp.seq, next)]);
    if ((results.at(-1) as { id: string }[]).length === 0) return 'stopped'; // cancelled, or another delivery moved on
    cp = next;
    if (cp.catalogId !== null && Date.now() - started > deps.sliceMs) {
      await deps.queue.send({ jobId: job.id });
      return 'continued';
    }
  }
  await finish(db, job.id, cp.done);
  return 'finished';
}
