import { and, eq, sql } from 'drizzle-orm';
import { jsonList } from '../../db/json-rows';
import { productReferences, products } from '../../db/schema';
import type { ImportWarning } from '../report/import-report';
import type { BatchScope, PendingProduct } from '../records/batch-types';

/**
 * References by manufacturer number (an ETIM xChange ProductRelation, `targetKind` 'mpn') that a
 * batch leaves ambiguous, as warnings of the import report (code `reference_ambiguous`): such a
 * reference resolves to the one master with the number (catalog/references/reference-statements.ts
 * `mpnTarget`) and stays pending while two masters (or, without a master, two variants) have it.
 * Reported where it can be seen in the file: on a record whose reference names such a number,
 * and on a record whose own manufacturer number makes it ambiguous for references already in
 * the catalog (a source earlier in the file, or of an earlier import). Computed before the
 * batch is written, from the catalog and the batch's own records, so the warnings go into the
 * batch's transaction with its products. Costs nothing for a batch without numbers: one
 * indexed read (products_catalog_mpn_idx, product_references_mpn_idx) otherwise.
 */
export async function ambiguousNumberWarnings(
  scope: BatchScope,
  batch: readonly PendingProduct[],
): Promise<Map<PendingProduct, ImportWarning[]>> {
  const out = new Map<PendingProduct, ImportWarning[]>();
  const named = new Set<string>();
  const carried = new Set<string>();
  for (const p of batch) {
    for (const r of p.record.references ?? [])
      if (r.targetKind === 'mpn' && r.targetSku.trim()) named.add(r.targetSku.trim());
    const own = p.record.fields.manufacturerPid;
    if (typeof own === 'string' && own.trim()) carried.add(own.trim());
  }
  const numbers = [...new Set([...named, ...carried])];
  if (numbers.length === 0) return out;
  const { db } = scope;
  // At most `cap` products per number (the batch's own rows may be among them): a number that
  // thousands of products share ("-") costs a bounded read, judged on the first ones.
  const cap = batch.length + 3;
  const stored = await db.all<{ mpn: string; sku: string | null; master: number }>(
    sql`SELECT n.value AS mpn, p.sku AS sku, p.parent_id IS NULL AS master FROM json_each(${JSON.stringify(numbers)}) n JOIN products p ON p.id IN (SELECT q.id FROM products q WHERE q.catalog_id = ${scope.catalogId} AND q.manufacturer_pid = n.value LIMIT ${cap})`,
  );
  type Holder = { mpn: string | null; master: boolean };
  const before = new Map<string, Holder>(
    stored.flatMap((r): [string, Holder][] => (r.sku ? [[r.sku, { mpn: r.mpn, master: r.master === 1 }]] : [])),
  );
  const after = new Map(before);
  for (const p of batch) {
    const own = p.record.fields.manufacturerPid;
    if (own === undefined) continue;
    const master = p.record.parentSku ? false : (before.get(p.sku)?.master ?? true);
    after.set(p.sku, { mpn: typeof own === 'string' && own.trim() ? own.trim() : null, master });
  }
  const byNumber = (state: Map<string, Holder>) => {
    const index = new Map<string, [string, Holder][]>();
    for (const entry of state)
      if (entry[1].mpn !== null) index.set(entry[1].mpn, [...(index.get(entry[1].mpn) ?? []), entry]);
    return (mpn: string) => index.get(mpn) ?? [];
  };
  const holdersBefore = byNumber(before);
  const holdersAfter = byNumber(after);
  const ambiguous = (list: [string, Holder][]) => {
    const masters = list.filter(([, h]) => h.master).length;
    return masters >= 2 || (masters === 0 && list.length >= 2);
  };
  const skusOf = (list: [string, Holder][]) =>
    list.length > 3
      ? `${list
          .slice(0, 3)
          .map(([s]) => s)
          .join(', ')} and ${list.length - 3} more`
      : list.map(([s]) => s).join(', ');
  const add = (p: PendingProduct, reason: string) => {
    const list = out.get(p) ?? [];
    list.push({ seq: p.seq, sku: p.sku, location: p.location, code: 'reference_ambiguous', reason });
    out.set(p, list);
  };
  for (const p of batch)
    (p.record.references ?? []).forEach((r, i) => {
      const mpn = r.targetSku.trim();
      if (r.targetKind !== 'mpn' || !ambiguous(holdersAfter(mpn))) return;
      add(
        p,
        `references[${i}]: manufacturer number "${mpn}" names several products (${skusOf(holdersAfter(mpn))}): the reference stays pending until one has it`,
      );
    });
  // Numbers the batch makes ambiguous: the references to them already in the catalog wait again.
  const newly = [...carried].filter((mpn) => ambiguous(holdersAfter(mpn)) && !ambiguous(holdersBefore(mpn)));
  if (newly.length === 0) return out;
  const inBatch = new Set(batch.map((p) => p.sku));
  const sources = await db
    .select({ mpn: productReferences.targetSku, sku: products.sku })
    .from(productReferences)
    .innerJoin(products, eq(products.id, productReferences.productId))
    .where(
      and(
        eq(productReferences.catalogId, scope.catalogId),
        sql`${productReferences.targetKind} = 'mpn'`,
        sql`${productReferences.targetSku} IN ${jsonList(newly)}`,
      ),
    )
    .limit(100);
  for (const mpn of newly) {
    const from = [...new Set(sources.flatMap((s) => (s.mpn === mpn && s.sku && !inBatch.has(s.sku) ? [s.sku] : [])))];
    if (from.length === 0) continue;
    const list = from.map((s): [string, Holder] => [s, { mpn, master: true }]);
    for (const p of batch)
      if (after.get(p.sku)?.mpn === mpn && p.record.fields.manufacturerPid !== undefined)
        add(
          p,
          `manufacturerPid: "${mpn}" is also the manufacturer number of ${skusOf(holdersAfter(mpn).filter(([s]) => s !== p.sku))}: the references by that number (from ${skusOf(list)}) stay pending until one product has it`,
        );
  }
  return out;
}
