import { readTranslations } from '../../model/translation-store';
import { columnLanguage, planLanguages } from './localized-out';
import { reportNoCategoryTree } from '../category-tree-loss';
import { ExportWarnings } from '../export-warnings';
import type { ExportContext, ExportPhase, Exporter } from '../exporter';
import { channelProductPage } from '../channel-page';
import { categoryPage, countProductsInScope, placementPage } from './catalog-queries';
import type { Dialect } from './dialect';
import { makeBmecatPlan, type BmecatPlan } from './plan';
import { productViews, supplierPid, variantWritten, type ProductView } from './product-view';
import { formulasPage, formulasStart, isFormulasCursor } from './formulas-out';
import { definedFormulaIds } from '../../model/catalog-formulas';

/** Categories and placements per page: small rows, so larger pages than products. */
const ROW_PAGE_SIZE = 500;

function result(text: string, nextCursor: string | null, products: number, w: ExportWarnings) {
  return { text, nextCursor, products, warnings: w.isEmpty ? undefined : w.toJSON() };
}

function headerPhase(dialect: Dialect): ExportPhase<BmecatPlan> {
  return {
    name: 'header',
    async run(ctx, plan) {
      const w = new ExportWarnings();
      if (!dialect.groups) reportNoCategoryTree(ctx.catalog, 'the ETIM guideline', w);
      const text = dialect.header(plan, w) + (dialect.groups ? dialect.groups.open(plan, w) : '');
      return result(text, null, 0, w);
    },
  };
}

function groupsPhase(groups: NonNullable<Dialect['groups']>, formulas: boolean): ExportPhase<BmecatPlan> {
  return {
    name: 'groups',
    async run(ctx, plan, cursor) {
      // BMEcat 2005: FORMULAS follow CATALOG_GROUP_SYSTEM in pages of this phase (formulas-out.ts).
      if (isFormulasCursor(cursor)) {
        const page = await formulasPage(ctx, plan, cursor);
        return result(page.text, page.nextCursor, 0, new ExportWarnings());
      }
      const w = new ExportWarnings();
      const { rows, nextCursor } = await categoryPage(ctx, plan, cursor, ROW_PAGE_SIZE);
      // The page's texts in the file's other languages, in one statement.
      const others = planLanguages(plan).filter((l) => l !== columnLanguage(plan));
      const texts = await readTranslations(
        ctx.db,
        rows.map((r) => r.id),
        others,
      );
      for (const row of rows) row.translations = texts.get(row.id);
      const text = rows.map((row) => groups.structure(plan, row, w)).join('') + (nextCursor ? '' : groups.close);
      return result(text, nextCursor ?? (formulas ? formulasStart(plan) : null), 0, w);
    },
  };
}

function productsPhase(dialect: Dialect): ExportPhase<BmecatPlan> {
  return {
    name: 'products',
    async run(ctx, plan, cursor) {
      const w = new ExportWarnings();
      const scope = { categoryId: plan.categoryId, statuses: plan.statuses, createdBefore: plan.snapshot };
      const { aggregates, nextCursor } = await channelProductPage(ctx, cursor, scope, plan.complete, w, (v) =>
        variantWritten(v, plan),
      );
      const views = aggregates.flatMap((aggregate) => productViews(aggregate, plan, w));
      if (dialect.formulas) await markDefinedFormulas(ctx, plan, views);
      let text = '';
      for (const view of views) text += dialect.product(plan, view, w);
      const products = views.length;
      return result(text, nextCursor, products, w);
    },
  };
}

/** Which formulas the page's prices name that the file's FORMULAS define (one statement per page that has any). */
async function markDefinedFormulas(ctx: ExportContext, plan: BmecatPlan, views: ProductView[]): Promise<void> {
  const ids = new Set(views.flatMap((v) => v.prices.flatMap((p) => (p.formula ? [p.formula.id] : []))));
  if (ids.size === 0) return;
  const scope = { companyId: ctx.companyId, catalogId: ctx.catalog.id };
  const defined = await definedFormulaIds(ctx.db, scope, [...ids], plan.formulasThrough ?? 0);
  for (const view of views) view.definedFormulas = defined;
}

function mapPhase(mapEntry: NonNullable<Dialect['mapEntry']>): ExportPhase<BmecatPlan> {
  return {
    name: 'catalog group map',
    async run(ctx, plan, cursor) {
      const { rows, nextCursor } = await placementPage(ctx, plan, cursor, ROW_PAGE_SIZE);
      const text = rows.map((row) => mapEntry(supplierPid(row).pid, row.category_id)).join('');
      return { text, nextCursor, products: 0 };
    },
  };
}

/**
 * A BMEcat exporter for one dialect. Phases: header (with the group system's root), the
 * category tree in pages, the products in keyset pages (master, then its variants), the
 * product-to-group map in pages, the footer. Each page is bounded, so memory stays flat
 * however large the catalog; the runner streams the text into an R2 multipart upload.
 */
export function bmecatExporter(dialect: Dialect): Exporter<BmecatPlan> {
  const phases: ExportPhase<BmecatPlan>[] = [headerPhase(dialect)];
  if (dialect.groups) phases.push(groupsPhase(dialect.groups, dialect.formulas ?? false));
  phases.push(productsPhase(dialect));
  if (dialect.mapEntry) phases.push(mapPhase(dialect.mapEntry));
  phases.push({ name: 'footer', run: async () => ({ text: dialect.footer, nextCursor: null, products: 0 }) });
  return {
    exportType: dialect.format,
    contentType: 'application/xml; charset=utf-8',
    fileExtension: 'xml',
    plan: (ctx) => makeBmecatPlan(ctx, dialect.format),
    total: (ctx, plan) => countProductsInScope(ctx, plan),
    phases,
  };
}
