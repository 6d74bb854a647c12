import type { ElementTranslations } from '../../model/translation-store';
import { sql, type SQL } from 'drizzle-orm';
import type { ExportContext } from '../exporter';
import { categoryReachSql, inSubtreesSql } from '../../db/product-scope';
import { completeCondition, variantCompleteCondition, type CompleteFor } from '../complete-for';

/** The scope of one export: which products and categories it writes (a consistent cut of the catalog). */
export interface ExportScope {
  /** Only this category subtree (template option), or the whole catalog. */
  categoryId: string | null;
  statuses: string[];
  /** Rows created after the export started are left out of every phase alike. */
  snapshot: string;
  /** Template option onlyComplete: only masters and variants with no score under 100 for this channel and language. */
  complete?: CompleteFor | null;
}

/**
 * Ids of the categories in scope: the subtree (or whole catalog), as it was at the snapshot; for
 * a member limited to category subtrees (`ctx.scopeCategoryIds`) only what their tree view shows
 * of it (their subtrees and the path above each root, `categoryReachSql`), so the file's tree
 * names no category outside their reach.
 */
function categoriesInScope(ctx: ExportContext, scope: ExportScope): SQL {
  const reach = ctx.scopeCategoryIds
    ? sql` AND id IN (SELECT id FROM (${categoryReachSql(ctx.companyId, ctx.catalog.id, ctx.scopeCategoryIds)}))`
    : sql``;
  return scope.categoryId
    ? sql`(WITH RECURSIVE sub(id) AS (
          SELECT id FROM categories WHERE id = ${scope.categoryId} AND catalog_id = ${ctx.catalog.id} AND created_at <= ${scope.snapshot}
          UNION ALL SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id WHERE c.created_at <= ${scope.snapshot})
        SELECT id FROM sub WHERE 1${reach})`
    : sql`(SELECT id FROM categories WHERE catalog_id = ${ctx.catalog.id} AND created_at <= ${scope.snapshot}${reach})`;
}

/** Status list as SQL (values come from a validated enum, but are bound anyway). */
function statusList(scope: ExportScope): SQL {
  return sql.join(
    scope.statuses.map((s) => sql`${s}`),
    sql`, `,
  );
}

/** Condition on the variants (alias v) of masters in scope that the export writes too. */
function variantInScope(scope: ExportScope): SQL {
  return sql`v.created_at <= ${scope.snapshot} AND v.status IN (${statusList(scope)})${scope.complete ? sql` AND ${variantCompleteCondition(scope.complete, sql`v`)}` : sql``}`;
}

/**
 * Condition on master products (alias p) that are in scope; for a member limited to category
 * subtrees, placed in one of them (as `masterScope` in exporter.ts, the products phase's).
 */
function masterInScope(ctx: ExportContext, scope: ExportScope): SQL {
  const subset = scope.categoryId
    ? sql` AND p.id IN (SELECT product_id FROM product_categories WHERE category_id IN ${categoriesInScope(ctx, scope)})`
    : sql``;
  const subtrees = ctx.scopeCategoryIds
    ? sql` AND ${inSubtreesSql(ctx.companyId, ctx.scopeCategoryIds, sql`p.id`)}`
    : sql``;
  return sql`p.catalog_id = ${ctx.catalog.id} AND +p.company_id = ${ctx.companyId} AND p.parent_id IS NULL
    AND p.created_at <= ${scope.snapshot} AND p.status IN (${statusList(scope)})${subset}${subtrees}${scope.complete ? sql` AND ${completeCondition(scope.complete, sql`p`)}` : sql``}`;
}

/** How many PRODUCTs the export writes (masters and their variants in scope): the job's progress total. */
export async function countProductsInScope(ctx: ExportContext, scope: ExportScope): Promise<number> {
  const [row] = await ctx.db.all<{ n: number }>(sql`
    WITH m(id) AS (SELECT p.id FROM products p WHERE ${masterInScope(ctx, scope)})
    SELECT (SELECT count(*) FROM m) + (SELECT count(*) FROM products v WHERE v.parent_id IN (SELECT id FROM m)
      AND ${variantInScope(scope)}) AS n`);
  return Number(row?.n ?? 0);
}

export interface GroupRow {
  id: string;
  parent_id: string | null;
  name: string;
  description: string | null;
  sort_order: number;
  has_children: number;
  /** The category's media (links and files) in their order as a JSON list, null without. */
  media: string | null;
  /** KEYWORDs joined by ", ", FEATUREs as JSON, USER_DEFINED_EXTENSIONS as XML (migration 0051). */
  keywords: string | null;
  features: string | null;
  udx: string | null;
  /** The category's texts in the file's further languages (read by the groups phase). */
  translations?: ElementTranslations;
}

/** One keyset page of the categories in scope, each with whether it has subcategories in scope. */
export async function categoryPage(
  ctx: ExportContext,
  scope: ExportScope,
  cursor: string | null,
  limit: number,
): Promise<{ rows: GroupRow[]; nextCursor: string | null }> {
  const rows = await ctx.db.all<GroupRow>(sql`
    SELECT c.id, c.parent_id, c.name, c.description, c.sort_order, c.keywords, c.features, c.udx,
      EXISTS (SELECT 1 FROM categories k WHERE k.parent_id = c.id AND k.created_at <= ${scope.snapshot}) AS has_children,
      (SELECT json_group_array(json_object('mediaId', m.id, 'url', m.url, 'fileName', m.file_name,
          'contentType', m.content_type, 'purpose', m.purpose, 'description', m.description, 'alt', m.alt,
          'mimeCode', m.mime_code, 'size', m.size, 'storageKey', m.storage_key, 'sha256', m.sha256))
        FROM (SELECT * FROM media m WHERE m.element_id = c.id ORDER BY m.sort_order, m.file_name) m
        HAVING count(*) > 0) AS media
    FROM categories c
    WHERE +c.company_id = ${ctx.companyId} AND c.id IN ${categoriesInScope(ctx, scope)} ${cursor ? sql`AND c.id > ${cursor}` : sql``}
    ORDER BY c.id LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: rows.length > limit ? page.at(-1)!.id : null };
}

interface MapRow {
  id: string;
  sku: string | null;
  parent_id: string | null;
  /** The placement's category; for a variant, its master's placement. */
  category_id: string;
}

/**
 * One keyset page (by master id) of category placements for PRODUCT_TO_CATALOGGROUP_MAP:
 * each master in scope and each of its variants in scope, once per category in scope.
 */
export async function placementPage(
  ctx: ExportContext,
  scope: ExportScope,
  cursor: string | null,
  limit: number,
): Promise<{ rows: MapRow[]; nextCursor: string | null }> {
  const masters = await ctx.db.all<{ id: string }>(sql`
    SELECT p.id FROM products p WHERE ${masterInScope(ctx, scope)} ${cursor ? sql`AND p.id > ${cursor}` : sql``}
    ORDER BY p.id LIMIT ${limit + 1}`);
  const page = masters.slice(0, limit);
  const nextCursor = masters.length > limit ? page.at(-1)!.id : null;
  if (page.length === 0) return { rows: [], nextCursor };
  // The page as a key range (not an IN list), so the statement stays under D1's bound-parameter limit.
  // `+pc.category_id`: probing the (product, category) key for every category of the catalog
  // made this query 40 times slower than looking up each product's few placements.
  const range = sql`p.id >= ${page[0]!.id} AND p.id <= ${page.at(-1)!.id}`;
  const rows = await ctx.db.all<MapRow>(sql`
    WITH placed AS (
      SELECT pc.product_id AS master_id, pc.category_id FROM product_categories pc
      WHERE pc.product_id IN (SELECT p.id FROM products p WHERE ${masterInScope(ctx, scope)} AND ${range})
        AND +pc.category_id IN ${categoriesInScope(ctx, scope)})
    SELECT p.id, p.sku, p.parent_id, placed.category_id FROM placed JOIN products p ON p.id = placed.master_id
    UNION ALL
    SELECT v.id, v.sku, v.parent_id, placed.category_id FROM placed JOIN products v ON v.parent_id = placed.master_id
      WHERE ${variantInScope(scope)}
    ORDER BY 3, 1, 4`);
  return { rows, nextCursor };
}
