import { readTranslations } from '../../model/translation-store';
import { columnLanguage, planLanguages } from './localized-out';
import { ExportWarnings } from '../export-warnings';
import type { ExportPhase, Exporter } from '../exporter';
import { channelProductPage } from '../channel-page';
import { categoryPage, countProductsInScope, placementPage } from './catalog-queries';
import type { Dialect } from './dialect';
import { makeBmecatPlan, type BmecatPlan } from './plan';
import { productViews, supplierPid, variantWritten } from './product-view';

/** Categories and placements per page: small rows, so larger pages than products. */
const ROW_PAGE_SIZE = 500;

function result(text: string, nextCursor: string | null, products: number, w: ExportWarnings) {
  return { text, nextCursor, products, warnings: w.isEmpty ? undefined : w.toJSON() };
}

function headerPhase(dialect: Dialect): ExportPhase<BmecatPlan> {
  return {
    name: 'header',
    async run(_ctx, plan) {
      const w = new ExportWarnings();
      const text = dialect.header(plan, w) + (dialect.groups ? dialect.groups.open(plan, w) : '');
      return result(text, null, 0, w);
    },
  };
}

function groupsPhase(groups: NonNullable<Dialect['groups']>): ExportPhase<BmecatPlan> {
  return {
    name: 'groups',
    async run(ctx, plan, cursor) {
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
      return result(text, nextCursor, 0, w);
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
      let text = '';
      let products = 0;
      for (const aggregate of aggregates) {
        for (const view of productViews(aggregate, plan, w)) {
          text += dialect.product(plan, view, w);
          products++;
        }
      }
      return result(text, nextCursor, products, w);
    },
  };
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
  if (dialect.groups) phases.push(groupsPhase(dialect.groups));
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
