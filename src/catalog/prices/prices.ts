import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { runBatch, type BatchStatement, type Database } from '../../db/client';
import { withCompletenessEventsAtEnd } from '../../db/completeness-flush';
import { jsonInsert } from '../../db/json-rows';
import { productPrices, products } from '../../db/schema';
import { badRequest, notFound } from '../../kernel/app-error';
import type { Caller } from '../../kernel/caller';
import { dbNow } from '../../kernel/clock';
import { historyStatement } from '../../records/history-record';
import type { Json } from '../../records/snapshot';
import { guardStatement, retryOnConflict } from '../../records/write-guard';
import { aggregateAfter, bumpWithFingerprint, fingerprintWith, revisionIs } from '../../records/fingerprint-after';
import { changesNothing } from '../../records/no-change';
import {
  checkDepartment,
  departmentStatement,
  elementFrom,
  elementStatements,
  masterFrom,
  masterSetOf,
  masterStatements,
} from '../../records/write-context';
import { PriceDto, priceList, type StoredPrice, toStored } from '../../model/price-list';
import { pricesSnapshot } from '../../model/price-records';

export const MAX_PRICES = 500;

export const SetPricesDto = z.strictObject({
  departmentId: z.uuid(),
  productId: z.uuid(),
  prices: z.array(PriceDto).max(MAX_PRICES),
  /** Must be true for `prices: []`: an empty list removes every price, never by accident. */
  clear: z.boolean().optional(),
});

/** GetPrices: the product's price list (default row filled from `price`) and its `price`. */
export async function getPrices(db: Database, tenant: Caller, productId: string) {
  const [rows, stored] = await db.batch([
    db
      .select({ id: products.id, price: products.price })
      .from(products)
      .where(and(eq(products.id, productId), eq(products.companyId, tenant.companyId))),
    db.select().from(productPrices).where(eq(productPrices.productId, productId)).orderBy(asc(productPrices.position)),
  ]);
  const product = rows[0];
  if (!product) throw notFound('product');
  return { productId, price: product.price, prices: priceList(stored, product.price) };
}

/** Statements that replace the stored list of `productId` with `rows` (put them after a guard). */
export function replacePriceStatements(
  db: Database,
  productId: string,
  rows: readonly StoredPrice[],
): BatchStatement[] {
  return [
    db.delete(productPrices).where(eq(productPrices.productId, productId)),
    ...jsonInsert(
      db,
      productPrices,
      rows.map((r) => ({ ...r, productId })),
    ),
  ];
}

/**
 * SetPrices: replaces the product's (or variant's) whole price list. The default row's amount
 * becomes `price`; a list without one leaves `price` as it is. An empty list is refused unless
 * `clear: true` says it is meant. One guarded batch (docs/history.md "Concurrency"): the
 * history entry, the rows, `price` and the master's new revision and fingerprint.
 */
export async function setPrices(db: Database, tenant: Caller, input: z.infer<typeof SetPricesDto>) {
  if (input.prices.length === 0 && input.clear !== true)
    throw badRequest('prices: an empty list removes every price; send clear: true to mean that');
  await retryOnConflict(() => setPricesOnce(db, tenant, input));
  return getPrices(db, tenant, input.productId);
}

async function setPricesOnce(db: Database, tenant: Caller, input: z.infer<typeof SetPricesDto>) {
  const results = await db.batch([
    departmentStatement(db, tenant, input.departmentId),
    ...elementStatements(db, tenant, input.productId),
    ...masterStatements(db, tenant.companyId, masterSetOf(tenant.companyId, input.productId)),
  ]);
  checkDepartment(results[0]);
  const element = elementFrom([results[1], results[2], results[3]]);
  if (element.kind !== 'product' && element.kind !== 'variant') throw notFound('product');
  if (element.departmentId !== input.departmentId) throw notFound('product');
  const { aggregate, paths } = masterFrom(
    db,
    tenant.companyId,
    results.slice(4) as unknown as Parameters<typeof masterFrom>[2],
  );
  if (!aggregate) throw notFound('product');
  const node =
    aggregate.product.id === element.id ? aggregate : aggregate.variants.find((v) => v.product.id === element.id);
  if (!node) throw notFound('product');
  const { rows, price: defaultPrice } = toStored(input.prices);
  const before = node.product.price;
  const price = defaultPrice ?? before;
  const after = aggregateAfter(aggregate, element.id, (n) => {
    n.prices = rows;
    n.product.price = price;
  });
  const revision = aggregate.product.revision;
  const snapshot = (list: readonly StoredPrice[], p: string | null) => {
    const s: Record<string, Json> = {};
    const json = pricesSnapshot(list);
    if (json !== undefined) s.prices = json;
    if (p !== null) s.price = p;
    return s;
  };
  const entry = {
    elementId: element.id,
    kind: element.kind,
    place: element,
    before: snapshot(node.prices ?? [], before),
    after: snapshot(rows, price),
  };
  // The same list: nothing is written (docs/history.md, "A write that changes nothing").
  if (await changesNothing([entry], { before: aggregate, after, paths })) return;
  const statements: BatchStatement[] = [
    guardStatement(db, revisionIs(tenant.companyId, aggregate.product.id, revision)),
    ...historyStatement(db, tenant, entry),
    ...replacePriceStatements(db, element.id, rows),
  ];
  if (price !== before)
    statements.push(db.update(products).set({ price, updatedAt: dbNow }).where(eq(products.id, element.id)));
  statements.push(bumpWithFingerprint(db, aggregate.product.id, revision, await fingerprintWith(after, paths)));
  await runBatch(db, withCompletenessEventsAtEnd(db, statements));
}
