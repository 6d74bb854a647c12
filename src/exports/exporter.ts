import { and, asc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { inSubtreesSql } from '../db/product-scope';
import { type catalogs, type exportTemplates, products } from '../db/schema';
import { loadProductAggregates, type ProductAggregate } from '../model/product-aggregate';
import type { WarningTally } from './export-warnings';
import type { ProductStatus } from '../kernel/product-status';
import { completeCondition, type CompleteFor } from './complete-for';

export type CatalogRow = typeof catalogs.$inferSelect;
export type TemplateRow = typeof exportTemplates.$inferSelect;

/** Everything an exporter may read. */
export interface ExportContext {
  db: Database;
  companyId: string;
  catalog: CatalogRow;
  template: TemplateRow | null;
  jobId: string;
  /** A public URL of a media file (signed), when the server can make one; formats that link media need it. */
  mediaUrl?: (mediaId: string) => Promise<string>;
  /**
   * The export of a member limited to category subtrees (docs/teams.md "Exports and syncs"): the
   * roots of their subtrees. Every format then reads only the masters placed in them
   * (`masterScope`) and writes of the category tree only the subtrees and the path above each
   * root (`categoryReachSql`); null or absent: the whole catalog.
   */
  scopeCategoryIds?: readonly string[] | null;
}

/** One slice of output: text to append, where to continue, and how many product rows it wrote. */
interface PhaseResult {
  text: string;
  nextCursor: string | null;
  products: number;
  /** What this page had to adjust to fit the format; the runner adds it to the job's warnings. */
  warnings?: WarningTally;
}

/**
 * A section of the output file written in pages (header, category tree, products, mappings,
 * footer). The runner calls `run` with cursor null first, then with each nextCursor until it
 * is null, then moves to the next phase. A page must be bounded in size.
 */
export interface ExportPhase<Plan> {
  name: string;
  run(ctx: ExportContext, plan: Plan, cursor: string | null): Promise<PhaseResult>;
}

/**
 * An export format. `plan` is computed once when the job starts and kept in the job's
 * checkpoint, so every slice of a long export writes the same layout (e.g. CSV columns).
 */
export interface Exporter<Plan = unknown> {
  exportType: string;
  contentType: string;
  fileExtension: string;
  /** May throw an AppError: the job then fails with its message before any byte is written. */
  plan(ctx: ExportContext): Promise<Plan>;
  /** Product rows the export will write (progress total); default: the catalog's product count. */
  total?(ctx: ExportContext, plan: Plan): Promise<number>;
  phases: ExportPhase<Plan>[];
}

/** Master products per page: bounded memory, and IN lists stay under D1's parameter limit. */
const PRODUCT_PAGE_SIZE = 90;

/** Which master products a page holds, beyond "all masters of the export's catalog". */
export interface ProductPageOptions {
  /** Only products placed in this category or one of its subcategories. */
  categoryId?: string | null;
  /** Only masters with one of these statuses. */
  statuses?: readonly string[] | null;
  /**
   * Only rows (masters, and categories of the subset) created at or before this ISO time: an
   * export pins it when it starts, so every page and phase sees the same cut of the catalog.
   */
  createdBefore?: string | null;
  /** Only masters complete for this channel and language (template option onlyComplete). */
  complete?: CompleteFor | null;
  pageSize?: number;
}

/**
 * One keyset page of master products of the export's catalog (with their variants and
 * everything attached), optionally limited to a category subtree, statuses and a snapshot.
 */
export async function productPage(
  ctx: ExportContext,
  cursor: string | null,
  options: ProductPageOptions = {},
): Promise<{ aggregates: ProductAggregate[]; nextCursor: string | null }> {
  const pageSize = options.pageSize ?? PRODUCT_PAGE_SIZE;
  const rows = await ctx.db
    .select({ id: products.id })
    .from(products)
    .where(
      and(
        masterScope(ctx, options),
        cursor ? gt(products.id, cursor) : undefined,
        options.complete ? completeCondition(options.complete, sql`"products"`) : undefined,
      ),
    )
    .orderBy(asc(products.id))
    .limit(pageSize + 1);
  const ids = rows.slice(0, pageSize).map((r) => r.id);
  const aggregates = await loadProductAggregates(ctx.db, ctx.companyId, ids);
  return { aggregates, nextCursor: rows.length > pageSize ? ids.at(-1)! : null };
}

/**
 * The masters an export takes, on `products` (no alias): the catalog's, created by the snapshot,
 * of the statuses, placed in the category subtree, and for a member limited to category subtrees
 * placed in one of theirs (the subtree condition of every product query, judged per master the
 * keyset on `products_catalog_master_id_idx` passes: a master placed in two subtrees is one row);
 * completeness and the page's range aside.
 */
export function masterScope(
  ctx: Pick<ExportContext, 'catalog' | 'companyId' | 'scopeCategoryIds'>,
  options: ProductPageOptions,
) {
  const before = options.createdBefore ?? null;
  const subset = options.categoryId
    ? sql`${products.id} IN (WITH RECURSIVE sub(id) AS (SELECT id FROM categories WHERE id = ${options.categoryId}
          ${before ? sql`AND created_at <= ${before}` : sql``}
          UNION ALL SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id ${before ? sql`WHERE c.created_at <= ${before}` : sql``})
        SELECT product_id FROM product_categories WHERE category_id IN (SELECT id FROM sub))`
    : undefined;
  return and(
    eq(products.catalogId, ctx.catalog.id),
    eq(products.companyId, ctx.companyId),
    isNull(products.parentId),
    before ? lte(products.createdAt, before) : undefined,
    options.statuses ? inArray(products.status, options.statuses as ProductStatus[]) : undefined,
    subset,
    ctx.scopeCategoryIds ? inSubtreesSql(ctx.companyId, ctx.scopeCategoryIds, sql`${products.id}`) : undefined,
  )!;
}

/** Number of product rows (masters and variants) an aggregate page writes. */
export function rowCount(aggregates: ProductAggregate[]): number {
  return aggregates.reduce((n, a) => n + 1 + a.variants.length, 0);
}

/** A phase that writes fixed text once. */
export function textPhase<Plan>(
  name: string,
  text: (ctx: ExportContext, plan: Plan) => string | Promise<string>,
): ExportPhase<Plan> {
  return {
    name,
    async run(ctx, plan) {
      return { text: await text(ctx, plan), nextCursor: null, products: 0 };
    },
  };
}
