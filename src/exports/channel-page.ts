import type { ProductNode } from '../model/product-aggregate';
import { leaveOutIncompleteVariants, warnSkipped, type CompleteFor } from './complete-for';
import type { ExportWarnings } from './export-warnings';
import { masterScope, productPage, type ExportContext, type ProductPageOptions } from './exporter';

/**
 * One keyset page of the masters an export writes for its template's channel: the channel's
 * gate (`complete`: review on, docs/review.md, and/or onlyComplete, docs/completeness.md)
 * applied, and the masters it held back on this page named in `w`, so the job's warnings count
 * them. Every format that takes a channel reads its products through here: one gate, one report.
 * `variantWritten` says which variant the format would write (its statuses), so only those are
 * named when left out as incomplete.
 */
export async function channelProductPage(
  ctx: ExportContext,
  cursor: string | null,
  scope: Omit<ProductPageOptions, 'complete'>,
  complete: CompleteFor | null | undefined,
  w: ExportWarnings,
  variantWritten: (variant: ProductNode) => boolean = () => true,
) {
  const page = await productPage(ctx, cursor, { ...scope, complete });
  if (complete) {
    await warnSkipped(ctx.db, masterScope(ctx, scope), complete, cursor, page.nextCursor, w);
    await leaveOutIncompleteVariants(ctx.db, complete, page.aggregates, w, variantWritten);
  }
  return page;
}
