import { reportNoCategoryTree } from '../category-tree-loss';
import { ExportWarnings } from '../export-warnings';
import type { ExportPhase, Exporter } from '../exporter';
import { channelProductPage } from '../channel-page';
import { countProductsInScope } from '../bmecat/catalog-queries';
import { productViews, variantWritten } from '../bmecat/product-view';
import { makeXChangePlan, type XChangePlan } from './xchange-plan';
import { xchangeProduct } from './xchange-product';

/** The catalogue envelope up to the opening of the supplier's Product array. */
function header(plan: XChangePlan): string {
  const date = plan.snapshot.slice(0, 10);
  const envelope = {
    SchemaVersion: '2.0',
    CatalogueId: plan.rootGroupId.replace(/-/g, '').slice(0, 20),
    CatalogueName: [{ Language: plan.languageTags[0], CatalogueName: plan.catalogName.slice(0, 100) }],
    CatalogueVersion: plan.catalogVersion?.slice(0, 50) || undefined,
    CatalogueType: 'FULL',
    GenerationDate: date,
    BuyerName: plan.buyerName?.slice(0, 50) || undefined,
    CatalogueValidityStart: date,
    Language: plan.languageTags,
    CurrencyCode: /^[A-Z]{3}$/.test(plan.currency) ? plan.currency : undefined,
  };
  const supplier = JSON.stringify({ SupplierName: plan.supplierName.slice(0, 80) });
  return `${JSON.stringify(envelope).slice(0, -1)},"Supplier":[${supplier.slice(0, -1)},"Product":[\n`;
}

/**
 * Products in keyset pages. The cursor carries whether a Product was already written ("1:id")
 * so the next page knows to start with a comma; a page may write none (statuses filter).
 */
const productsPhase: ExportPhase<XChangePlan> = {
  name: 'products',
  async run(ctx, plan, cursor) {
    const w = new ExportWarnings();
    let wrote = cursor?.startsWith('1:') ?? false;
    const { aggregates, nextCursor } = await channelProductPage(
      ctx,
      cursor ? cursor.slice(2) : null,
      { categoryId: plan.categoryId, statuses: plan.statuses, createdBefore: plan.snapshot },
      plan.complete,
      w,
      (v) => variantWritten(v, plan),
    );
    let text = '';
    let products = 0;
    for (const aggregate of aggregates) {
      for (const view of productViews(aggregate, plan, w)) {
        const product = await xchangeProduct(ctx, plan, view, w);
        text += `${wrote ? ',\n' : ''}${JSON.stringify(product)}`;
        wrote = true;
        products++;
      }
    }
    const next = nextCursor === null ? null : `${wrote ? '1' : '0'}:${nextCursor}`;
    return { text, nextCursor: next, products, warnings: w.isEmpty ? undefined : w.toJSON() };
  },
};

/**
 * ETIM xChange V2.0 (JSON): the catalogue envelope with one Supplier whose Product array is
 * written as a stream of product objects, page by page, so memory stays flat however large
 * the catalog; the runner streams the text into an R2 multipart upload like every export.
 */
export const xchangeExporter: Exporter<XChangePlan> = {
  exportType: 'ETIMxChange',
  contentType: 'application/json; charset=utf-8',
  fileExtension: 'json',
  plan: makeXChangePlan,
  total: (ctx, plan) => countProductsInScope(ctx, plan),
  phases: [
    {
      name: 'header',
      run: async (ctx, plan) => {
        const w = new ExportWarnings();
        reportNoCategoryTree(ctx.catalog, 'ETIM xChange', w);
        return { text: header(plan), nextCursor: null, products: 0, warnings: w.isEmpty ? undefined : w.toJSON() };
      },
    },
    productsPhase,
    { name: 'footer', run: async () => ({ text: '\n]}]}\n', nextCursor: null, products: 0 }) },
  ],
};
