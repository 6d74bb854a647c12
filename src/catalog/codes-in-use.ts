import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { productFeatureBlocks, productPrices, products } from '../db/schema';
import { findCatalog } from '../db/scope';
import type { Caller } from '../kernel/caller';
import { keysetPage, Page } from '../kernel/pagination';

/** The lists GetCodesInUse answers: each a code column of a table of the catalog's products. */
export const CODE_LISTS = ['priceTypes', 'featureSystems'] as const;

export const CodesInUseQuery = z.strictObject({
  catalogId: z.uuid(),
  list: z.enum(CODE_LISTS).describe('priceTypes: the types of the prices; featureSystems: the feature-block systems'),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

export const CodesInUseOut = Page(z.object({ code: z.string() }));

/**
 * `Catalog/GetCodesInUse`: the price types or feature-block systems the catalog's products and
 * variants use, in code order, one keyset page at a time (the code is the key: the list is
 * distinct). The connection form offers them as choices (docs/web.md "Shops"). Neither column is
 * indexed: a page reads the catalog's products through `products_catalog_sku_uq` and probes
 * each one's rows by primary key, which a settings screen can afford; a catalog of 100,000
 * products costs as many probes per page.
 */
export async function listCodesInUse(db: Database, tenant: Caller, input: z.infer<typeof CodesInUseQuery>) {
  await findCatalog(db, tenant, input.catalogId);
  const inCatalog = and(eq(products.catalogId, input.catalogId), eq(products.companyId, tenant.companyId));
  if (input.list === 'priceTypes')
    return keysetPage(
      input,
      { column: productPrices.type, order: 'asc' },
      (q) =>
        db
          .selectDistinct({ code: productPrices.type })
          .from(products)
          .innerJoin(productPrices, eq(productPrices.productId, products.id))
          .where(and(inCatalog, q.after))
          .orderBy(q.orderBy)
          .limit(q.limit),
      (row) => row.code,
    );
  return keysetPage(
    input,
    { column: productFeatureBlocks.system, order: 'asc' },
    (q) =>
      db
        .selectDistinct({ code: productFeatureBlocks.system })
        .from(products)
        .innerJoin(productFeatureBlocks, eq(productFeatureBlocks.productId, products.id))
        .where(and(inCatalog, q.after))
        .orderBy(q.orderBy)
        .limit(q.limit),
    (row) => row.code,
  );
}
