import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { attributes, categories, media } from '../../db/schema';
import type { ProductNode } from '../../model/product-aggregate';
import {
  categoryMediaCell,
  CSV_COLUMNS,
  csvLine,
  LIST_SEPARATOR,
  localizedColumns,
  PATH_SEPARATOR,
  pricesCell,
  referenceCell,
  type LocalizedColumn,
} from './csv-format';
import { priceList } from '../../model/price-list';
import { masterScope, rowCount, textPhase, type Exporter } from '../exporter';
import { channelProductPage } from '../channel-page';
import { resolveCompleteFor, type CompleteFor } from '../complete-for';
import { ExportWarnings } from '../export-warnings';
import { parseStoredOptions } from '../bmecat/template-options';
import { AppError } from '../../kernel/app-error';
import { categoryReachSql } from '../../db/product-scope';

interface CsvPlan {
  attributeCodes: string[];
  /** The template's category subset (options.categoryId); absent in plans of jobs started before. */
  categoryId?: string | null;
  /** `name@eng` ... per further language of the catalog, after the attribute columns; absent in plans of jobs started before. */
  localized?: LocalizedColumn[];
  /**
   * categoryId → name path ("Cables > Power cables"), resolved once per export: every category of
   * the catalog, or for a member limited to category subtrees what their tree view shows (their
   * subtrees and the path above each root); a placement elsewhere is left out of the cell.
   */
  categoryPaths: Record<string, string>;
  /** The `categoryMedia` cell of the file's first row: every category link of the catalog (of those categories). */
  categoryMedia: string;
  /** The template's channel while its review is on: only approved masters (docs/review.md); absent in older plans. */
  complete?: CompleteFor | null;
}

function classesOf(node: ProductNode): string {
  return (node.classification?.classes ?? []).map((c) => `${c.system}:${c.code}`).join(LIST_SEPARATOR);
}

function featuresOf(node: ProductNode): string {
  return (node.classification?.features ?? [])
    .map((f) => `${f.code}=${f.value}${f.unit ? ` ${f.unit}` : ''}`)
    .join(LIST_SEPARATOR);
}

/**
 * CSV for ERP import: UTF-8 with BOM (so spreadsheet programs detect the encoding), CRLF line
 * ends, one row per master product followed by one row per variant. Every attribute of the
 * company has its own column; classification classes and features are `|`-separated lists.
 * The catalog's further languages follow as `name@eng`-style columns (csv-format.ts).
 */
export const csvExporter: Exporter<CsvPlan> = {
  exportType: 'CSV',
  contentType: 'text/csv; charset=utf-8',
  fileExtension: 'csv',
  /** The rows written (masters and variants): the catalog's counter, or those of the template's category subset. */
  async total(ctx, plan) {
    if (!plan.categoryId && !ctx.scopeCategoryIds) return ctx.catalog.productCount;
    const [row] = await ctx.db.all<{ n: number }>(sql`
      WITH m(id) AS (SELECT id FROM products WHERE ${masterScope(ctx, { categoryId: plan.categoryId })})
      SELECT (SELECT count(*) FROM m) + (SELECT count(*) FROM products v WHERE v.parent_id IN (SELECT id FROM m)) AS n`);
    return Number(row?.n ?? 0);
  },
  async plan(ctx) {
    const attributeRows = await ctx.db
      .select({ code: attributes.code, localizable: attributes.localizable })
      .from(attributes)
      .where(eq(attributes.companyId, ctx.companyId))
      .orderBy(asc(attributes.code));
    const reach = ctx.scopeCategoryIds
      ? sql`${categories.id} IN (SELECT id FROM (${categoryReachSql(ctx.companyId, ctx.catalog.id, ctx.scopeCategoryIds)}))`
      : undefined;
    const categoryRows = await ctx.db
      .select({ id: categories.id, parentId: categories.parentId, name: categories.name })
      .from(categories)
      .where(and(eq(categories.catalogId, ctx.catalog.id), reach));
    const byId = new Map(categoryRows.map((c) => [c.id, c]));
    const pathOf = (id: string): string => {
      const names: string[] = [];
      for (let c = byId.get(id); c && names.length < 20; c = c.parentId ? byId.get(c.parentId) : undefined)
        names.unshift(c.name);
      return names.join(PATH_SEPARATOR);
    };
    // Category links (uploaded category files have no CSV form): bounded by the category tree.
    const links: { path: string; url: string }[] = [];
    const ids = categoryRows.map((c) => c.id);
    for (let i = 0; i < ids.length; i += 90) {
      const rows = await ctx.db
        .select({ elementId: media.elementId, url: media.url })
        .from(media)
        .where(and(inArray(media.elementId, ids.slice(i, i + 90)), isNotNull(media.url)))
        .orderBy(asc(media.elementId), asc(media.sortOrder));
      for (const r of rows) links.push({ path: pathOf(r.elementId), url: r.url! });
    }
    const options = ctx.template ? parseStoredOptions(ctx.template.options) : {};
    // A template's category subset: only the products placed in that subtree (as the BMEcat formats do).
    const categoryId = options.categoryId ?? null;
    if (categoryId && !byId.has(categoryId))
      throw new AppError('bad_request', "the template's categoryId is not a category of this catalog");
    return {
      categoryId,
      complete: await resolveCompleteFor(
        ctx.db,
        ctx.companyId,
        options,
        ctx.template?.language ?? ctx.catalog.language,
      ),
      attributeCodes: attributeRows.map((a) => a.code),
      localized: localizedColumns(
        ctx.catalog.languages,
        ctx.catalog.language,
        attributeRows.filter((a) => a.localizable).map((a) => a.code),
      ),
      categoryPaths: Object.fromEntries(categoryRows.map((c) => [c.id, pathOf(c.id)])),
      categoryMedia: categoryMediaCell(links),
    };
  },
  phases: [
    textPhase(
      'header',
      (_ctx, plan) =>
        `\uFEFF${csvLine([...CSV_COLUMNS, ...plan.attributeCodes, ...(plan.localized ?? []).map((c) => c.header)])}`,
    ),
    {
      name: 'products',
      async run(ctx, plan, cursor) {
        const w = new ExportWarnings();
        const { aggregates, nextCursor } = await channelProductPage(
          ctx,
          cursor,
          { categoryId: plan.categoryId },
          plan.complete,
          w,
        );
        let text = '';
        // The category links go on the file's first row (the first page's first master).
        let categoryMedia = cursor === null && plan.categoryMedia !== '' ? plan.categoryMedia : null;
        for (const aggregate of aggregates) {
          // A scoped member's file names only the categories of their reach (one made after the plan is left out too).
          const placed = ctx.scopeCategoryIds
            ? aggregate.categoryIds.filter((id) => Object.hasOwn(plan.categoryPaths, id))
            : aggregate.categoryIds;
          const categoryNames = placed.map((id) => plan.categoryPaths[id] ?? id).join(LIST_SEPARATOR);
          const row = (node: ProductNode, parentSku: string | null, categoryList: string) => {
            const p = node.product;
            const values = new Map(node.values.map((v) => [v.code, v.value]));
            const line = csvLine([
              p.id,
              p.parentId,
              parentSku,
              p.sku,
              p.name,
              p.description,
              p.gtin,
              p.manufacturerName,
              p.manufacturerPid,
              p.unit,
              p.price,
              p.price ? ctx.catalog.currency : null,
              p.priceQuantity,
              p.contentUnit,
              p.contentPerUnit,
              p.quantityMin,
              p.quantityInterval,
              p.keywords,
              p.deliveryTimeDays,
              p.status,
              categoryList,
              classesOf(node),
              featuresOf(node),
              // A link is its URL, a file its name: the import tells them apart (csv-records.ts).
              node.media.map((m) => m.url ?? m.fileName).join(LIST_SEPARATOR),
              pricesCell(priceList(node.prices ?? [], p.price)),
              node.references.map(referenceCell).join(LIST_SEPARATOR),
              node.featureBlocks?.length ? JSON.stringify(node.featureBlocks) : null,
              categoryMedia,
              ...plan.attributeCodes.map((code) => values.get(code)),
              // A missing translation is an empty cell, never the default language's text.
              ...(plan.localized ?? []).map((c) => node.translations?.[c.language]?.[c.field]),
            ]);
            categoryMedia = null;
            return line;
          };
          text += row(aggregate, null, categoryNames);
          for (const variant of aggregate.variants) text += row(variant, aggregate.product.sku, categoryNames);
        }
        return { text, nextCursor, products: rowCount(aggregates), warnings: w.isEmpty ? undefined : w.toJSON() };
      },
    },
  ],
};
