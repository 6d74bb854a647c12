import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { BatchStatement, Database } from '../../db/client';
import { productReferences, products } from '../../db/schema';
import { findProduct, productInScope } from '../../db/scope';
import { historyStatement, placeOf } from '../../records/history-record';
import { referencesSnapshot } from '../../records/snapshot';
import { guardStatement, retryOnConflict } from '../../records/write-guard';
import { badRequest, notFound } from '../../kernel/app-error';
import type { Caller } from '../../kernel/caller';
import { aggregateAfter, bumpWithFingerprint, fingerprintWith, revisionIs } from '../../records/fingerprint-after';
import { changesNothing } from '../../records/no-change';
import {
  departmentStatement,
  checkDepartment,
  masterFrom,
  masterSetOf,
  masterStatements,
} from '../../records/write-context';
import {
  MAX_REFERENCES,
  type ReferenceType,
  ReferenceIn,
  referenceListProblem,
  type StoredReference,
  storedReference,
  storedReferences,
} from './reference-rules';
import { deleteStatements, insertStatements } from './reference-statements';

/** How many incoming references GetReferences lists (an accessory can be referenced by thousands). */
const INCOMING_LIMIT = 1000;

export const GetReferencesQuery = z.strictObject({ productId: z.uuid() });

export const SetReferencesIn = z.strictObject({
  departmentId: z.uuid(),
  productId: z.uuid(),
  /** The product's whole outgoing list, in order; it replaces the stored one. */
  references: z.array(ReferenceIn).max(MAX_REFERENCES),
  /** Must be true when `references` is empty: removing every reference is never a default. */
  clear: z.boolean().optional(),
});
export type SetReferencesInput = z.infer<typeof SetReferencesIn>;

/**
 * A product's outgoing references (in order, each with the target product when the SKU is in the
 * catalog, else `pending: true`) and the references of other products to it (incoming).
 */
export async function getReferences(db: Database, tenant: Caller, input: { productId: string }) {
  const product = await findProduct(db, tenant, input.productId);
  // A member limited to a scope sees no product outside it: not as a target, not as a referrer (docs/teams.md).
  const inScope = productInScope(tenant);
  const [outgoing, incoming] = await db.batch([
    db
      .select({
        position: productReferences.position,
        type: productReferences.type,
        targetSku: productReferences.targetSku,
        targetKind: productReferences.targetKind,
        quantity: productReferences.quantity,
        descr: productReferences.descr,
        targetCatalog: productReferences.targetCatalog,
        targetCatalogVersion: productReferences.targetCatalogVersion,
        targetProductId: productReferences.targetProductId,
        targetName: products.name,
        targetInScope: products.id,
      })
      .from(productReferences)
      .leftJoin(products, and(eq(products.id, productReferences.targetProductId), inScope))
      .where(eq(productReferences.productId, product.id))
      .orderBy(asc(productReferences.position)),
    db
      .select({
        productId: products.id,
        sku: products.sku,
        name: products.name,
        type: productReferences.type,
        quantity: productReferences.quantity,
      })
      .from(productReferences)
      .innerJoin(products, eq(products.id, productReferences.productId))
      .where(and(eq(productReferences.targetProductId, product.id), eq(products.companyId, tenant.companyId), inScope))
      .orderBy(asc(products.sku), asc(productReferences.position))
      .limit(INCOMING_LIMIT + 1),
  ]);
  return {
    productId: product.id,
    sku: product.sku,
    // Only SetReferences and the upsert write rows, both with REFERENCE_TYPES' types.
    outgoing: outgoing.map(({ targetInScope, ...r }) =>
      // a target outside the member's scope reads as one not in the catalog
      targetInScope === null
        ? { ...r, type: r.type as ReferenceType, targetProductId: null, targetName: null, pending: true }
        : { ...r, type: r.type as ReferenceType, pending: r.targetProductId === null },
    ),
    incoming: incoming.slice(0, INCOMING_LIMIT).map((r) => ({ ...r, type: r.type as ReferenceType })),
    incomingTruncated: incoming.length > INCOMING_LIMIT,
  };
}

/**
 * Replaces a product's outgoing references. One guarded write (docs/history.md "Concurrency"):
 * one read round trip (department, product, master aggregate), then one batch with the guard on
 * the master's revision, the new rows (targets resolved in the same statement), the version and
 * the master's new fingerprint. An empty list removes all references only with `clear: true`.
 */
export async function setReferences(db: Database, tenant: Caller, input: SetReferencesInput) {
  const next = storedReferences(input.references);
  await retryOnConflict(() => setReferencesOnce(db, tenant, input, next));
  return getReferences(db, tenant, input);
}

async function setReferencesOnce(db: Database, tenant: Caller, input: SetReferencesInput, next: StoredReference[]) {
  const masterSet = masterSetOf(tenant.companyId, input.productId);
  const product = db
    .select({
      row: products,
      departmentId: sql<string>`(SELECT department_id FROM catalogs WHERE id = ${products.catalogId})`,
    })
    .from(products)
    .where(and(eq(products.id, input.productId), eq(products.companyId, tenant.companyId)));
  const results = await db.batch([
    departmentStatement(db, tenant, input.departmentId),
    product,
    ...masterStatements(db, tenant.companyId, masterSet),
  ]);
  const [department, [found]] = results;
  checkDepartment(department);
  if (!found) throw notFound('product');
  if (found.departmentId !== input.departmentId) throw notFound('product');
  // After the product is found: a product of another company answers 404 whatever the list.
  if (input.references.length === 0 && input.clear !== true)
    throw badRequest(
      'references: an empty list removes every reference of the product; send "clear": true to mean that',
    );
  if (input.references.length > 0 && input.clear === true)
    throw badRequest('clear: true removes every reference; send it with an empty references list');
  const problem = referenceListProblem(found.row.sku, next);
  if (problem) throw badRequest(problem);
  const { aggregate, paths } = masterFrom(db, tenant.companyId, results.slice(2) as never);
  if (!aggregate) throw notFound('product');
  const node =
    aggregate.product.id === found.row.id ? aggregate : aggregate.variants.find((v) => v.product.id === found.row.id);
  const current: StoredReference[] = (node?.references ?? []).map(storedReference);

  const revision = aggregate.product.revision;
  const after = aggregateAfter(aggregate, found.row.id, (n) => {
    n.references = next.map((r) => ({ ...r, targetProductId: null }));
  });
  const entry = {
    elementId: found.row.id,
    kind: found.row.parentId ? ('variant' as const) : ('product' as const),
    place: placeOf(found.row),
    before: referencesSnapshot(current),
    after: referencesSnapshot(next),
  };
  // The same list in the same order: nothing is written (docs/history.md, "A write that changes nothing").
  if (await changesNothing([entry], { before: aggregate, after, paths })) return;
  const statements: BatchStatement[] = [
    guardStatement(db, revisionIs(tenant.companyId, aggregate.product.id, revision)),
    ...deleteStatements(db, [found.row.id]),
    ...insertStatements(db, found.row.catalogId, [{ productId: found.row.id, references: next }]),
    ...historyStatement(db, tenant, entry),
    bumpWithFingerprint(db, aggregate.product.id, revision, await fingerprintWith(after, paths)),
  ];
  await db.batch(statements as [BatchStatement, ...BatchStatement[]]);
}
