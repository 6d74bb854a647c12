import { sql } from 'drizzle-orm';
import { flagsOut, flagValue, type PriceFlags, STANDARD_FLAGS_12 } from '../../model/price-flags';
import type { ExportWarnings } from '../export-warnings';
import type { ExportContext } from '../exporter';
import { inSubtreesSql } from '../../db/product-scope';
import { textEl } from './xml-text';

/**
 * The PRICE_FLAGs every price of the catalog shares, for BMEcat 1.2's only place for them: the
 * HEADER's CATALOG, which says them of every price of the file (docs/exports.md). Null unless
 * every product and variant of the catalog has a price list and every price row has the same
 * flags: a product written with its plain `price` (no row) or a price without those flags would
 * take them on import. Read once when the export starts, as one statement whose checks stop at
 * the first price without flags or product without a list (the common case ends at once); only
 * a catalog whose prices all have flags is read to its end, by its index, never into memory.
 * The catalog holds the export's scope, so what every price of the catalog shares, every price of
 * the file shares; an export of a member limited to category subtrees reads their products only
 * (the file's), so the HEADER says nothing of the prices outside.
 */
export async function sharedPriceFlags(ctx: ExportContext): Promise<PriceFlags | null> {
  const theirs = ctx.scopeCategoryIds
    ? sql` AND ${inSubtreesSql(ctx.companyId, ctx.scopeCategoryIds, sql`coalesce(p.parent_id, p.id)`)}`
    : sql``;
  const own = sql`p.company_id = ${ctx.companyId} AND p.catalog_id = ${ctx.catalog.id}${theirs}`;
  const [row] = await ctx.db.all<{ flags: string | null }>(sql`SELECT CASE
      WHEN EXISTS (SELECT 1 FROM products p JOIN product_prices pp ON pp.product_id = p.id
        WHERE ${own} AND pp.flags IS NULL) THEN NULL
      WHEN EXISTS (SELECT 1 FROM products p
        WHERE ${own} AND NOT EXISTS (SELECT 1 FROM product_prices pp WHERE pp.product_id = p.id)) THEN NULL
      ELSE (SELECT CASE WHEN count(*) = 1 THEN min(f) END FROM (SELECT DISTINCT pp.flags AS f
        FROM products p JOIN product_prices pp ON pp.product_id = p.id WHERE ${own} LIMIT 2))
    END AS flags`);
  return flagsOut(row?.flags);
}

/** The HEADER CATALOG's PRICE_FLAGs of BMEcat 1.2; a shared flag of a type 1.2 does not enumerate is reported. */
export function headerFlags12(flags: PriceFlags | null | undefined, w: ExportWarnings): string[] {
  return Object.entries(flags ?? {}).flatMap(([type, on]) => {
    if (STANDARD_FLAGS_12.has(type)) return [textEl('PRICE_FLAG', flagValue(on), { type })];
    w.add(`price flag ${type} of every price is not a BMEcat 1.2 PRICE_FLAG type: left out`, 'catalog');
    return [];
  });
}

/** Whether a price's flags are those the HEADER states for every price (the same types and values). */
export const sameFlags = (a: PriceFlags | null | undefined, b: PriceFlags | null | undefined): boolean =>
  JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
