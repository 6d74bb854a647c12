import { sql } from 'drizzle-orm';
import { AppError } from '../../kernel/app-error';
import { inSubtreesSql } from '../../db/product-scope';
import type { ExportContext } from '../exporter';
import { countProductsInScope } from '../bmecat/catalog-queries';
import { makeBmecatPlan, type BmecatPlan } from '../bmecat/plan';
import { planLanguages } from '../bmecat/localized-out';
import { languageTag } from './xchange-codes';

/**
 * What an xChange export decides once and keeps in the checkpoint. It extends the BMEcat plan
 * because both formats write the same product views (SKU as identifier, inheritance from the
 * master, classification features): one set of rules for "what a product is in a file".
 */
export interface XChangePlan extends BmecatPlan {
  /** BCP 47 tags of the file's languages (`languages` of the BMEcat plan), its default first. */
  languageTags: string[];
  /** Whether attachments can be written: media URLs need MEDIA_URL_KEY and PUBLIC_BASE_URL. */
  mediaUrls: boolean;
}

export async function makeXChangePlan(ctx: ExportContext): Promise<XChangePlan> {
  // The company's own attributes have no place in xChange (only ETIM and other classifications).
  const base = { ...(await makeBmecatPlan(ctx, 'BMEcat')), includeAttributes: false };
  const languageTags = planLanguages(base).map((code) => {
    const tag = languageTag(code);
    if (!tag)
      throw new AppError(
        'bad_request',
        `xChange needs languages such as en-GB; the catalog's language "${code}" has no BCP 47 tag here`,
      );
    return tag;
  });
  if ((await countProductsInScope(ctx, base)) === 0) {
    throw new AppError('bad_request', 'an xChange file requires at least one Product, and this export selects none');
  }
  return { ...base, currency: await fileCurrency(ctx), languageTags, mediaUrls: ctx.mediaUrl !== undefined };
}

/**
 * The file's one `CurrencyCode`: the catalog's, unless every price of the catalog is in one other
 * currency (a GBP supplier file imported into an EUR catalog keeps its prices in GBP): then that
 * one, so the prices are written instead of left out. A catalog with a price in its own currency
 * (a row without currency, or a product whose `price` has no list) keeps its own. The first
 * query stops at the first such row, so only a catalog priced wholly abroad is read through.
 * An export of a member limited to category subtrees judges their products only (the file's),
 * so its currency says nothing of the products outside.
 */
async function fileCurrency(ctx: ExportContext): Promise<string> {
  const own = ctx.catalog.currency;
  const theirs = ctx.scopeCategoryIds
    ? sql` AND ${inSubtreesSql(ctx.companyId, ctx.scopeCategoryIds, sql`coalesce(p.parent_id, p.id)`)}`
    : sql``;
  const [home] = await ctx.db.all<{ found: number }>(sql`
    SELECT 1 AS found FROM products p
    WHERE p.catalog_id = ${ctx.catalog.id} AND +p.company_id = ${ctx.companyId}${theirs} AND (
      EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id AND (pp.currency IS NULL OR pp.currency = ${own}))
      OR (p.price IS NOT NULL AND NOT EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id)))
    LIMIT 1`);
  if (home) return own;
  const others = await ctx.db.all<{ currency: string }>(sql`
    SELECT DISTINCT pp.currency FROM products p JOIN product_prices pp ON pp.product_id = p.id
    WHERE p.catalog_id = ${ctx.catalog.id} AND +p.company_id = ${ctx.companyId}${theirs} AND pp.currency IS NOT NULL
    LIMIT 2`);
  return others.length === 1 ? others[0]!.currency : own;
}
