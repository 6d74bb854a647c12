import { sql, type SQL } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import { completenessEventsFlushStatements } from '../db/completeness-flush';
import { scoreRefresh } from '../db/score-refresh';
import type { JobMessage } from '../env';
import type { Caller } from '../kernel/caller';
import { enqueueJob } from '../jobs/jobs';

/**
 * Rescoring after a category moved to a new parent (docs/completeness.md "Category moves"). A
 * requirement limited to a category subtree applies to the products placed below that category,
 * so a move changes which rules apply to every master placed in the moved subtree (and their
 * variants, placed where their masters are). No trigger sees it (only `categories.parent_id`
 * changed), so the move itself rescores: up to INLINE_MASTERS masters in the move's own batch,
 * more by the `completeness` job scoped to the subtree (pages of masters with progress, as a
 * requirement change). Nothing happens when the company has no rule limited to a category.
 */
export const INLINE_MASTERS = 400;

/** The moved category and every category below it. */
const subtree = (categoryId: string) => sql`WITH RECURSIVE sub(id) AS (
    SELECT ${categoryId} UNION ALL SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id) SELECT id FROM sub`;

/** Rowids of the masters placed in the subtree (product_categories_category_idx). */
const masterKeys = (categoryId: string) =>
  sql`SELECT p.rowid FROM products p WHERE p.id IN (SELECT pc.product_id FROM product_categories pc WHERE pc.category_id IN (${subtree(categoryId)})) AND p.parent_id IS NULL`;

/** Rowids of their variants (products_parent_idx). */
const variantKeys = (categoryId: string) =>
  sql`SELECT v.rowid FROM products v WHERE v.parent_id IN (SELECT pc.product_id FROM product_categories pc WHERE pc.category_id IN (${subtree(categoryId)}))`;

export interface SubtreeRescore {
  /** Statements for the move's batch (a small subtree), else none. */
  statements: BatchStatement[];
  /** True when the subtree is too large for the batch: call `startSubtreeJob` after it. */
  deferred: boolean;
}

/** Plans the rescoring of a move of `categoryId`; `inline` is the bound (tests lower it). */
export async function planSubtreeRescore(
  db: Database,
  companyId: string,
  categoryId: string,
  inline = INLINE_MASTERS,
): Promise<SubtreeRescore> {
  const [scoped] = await db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM (SELECT 1 FROM channel_rules WHERE company_id = ${companyId} AND category_id IS NOT NULL LIMIT 1)`,
  );
  if (!scoped?.n) return { statements: [], deferred: false };
  const [placed] = await db.all<{ n: number }>(
    sql`SELECT count(*) AS n FROM (SELECT DISTINCT pc.product_id FROM product_categories pc
      WHERE pc.category_id IN (${subtree(categoryId)}) LIMIT ${inline + 1})`,
  );
  const n = placed?.n ?? 0;
  if (n === 0) return { statements: [], deferred: false };
  if (n > inline) return { statements: [], deferred: true };
  return {
    statements: [
      ...scoreRefresh(db, masterKeys(categoryId)),
      ...scoreRefresh(db, variantKeys(categoryId), { variants: true }),
      ...completenessEventsFlushStatements(db),
    ],
    deferred: false,
  };
}

/** The job rescoring a large moved subtree in every channel (src/completeness/recompute.ts, `scope`). */
export async function startSubtreeJob(
  deps: { db: Database; queue: Queue<JobMessage> },
  caller: Caller,
  scope: { catalogId: string; categoryId: string },
): Promise<string> {
  const { jobId } = await enqueueJob(deps, caller, { kind: 'completeness', params: { scope } });
  return jobId;
}

/** For the job: the masters of a page (ids after `afterId` up to `lastId`) placed in the subtree. */
export function subtreeFilter(categoryId: string, column: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM product_categories pc WHERE pc.product_id = ${column}
    AND pc.category_id IN (${subtree(categoryId)}))`;
}
