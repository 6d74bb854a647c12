import type { ProductNode } from '../product-aggregate';
import type { ResolvedNode } from './upsert-types';

const sameList = (a: unknown[] | undefined, b: unknown[] | undefined) =>
  JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/**
 * Gives back to the master what a file of our own BMEcat export wrote for a variant without a
 * price of its own: the export writes the master's `price` (and, for a variant with neither
 * price nor list, the master's list) on such a variant, because a buyer orders the variant
 * (docs/exports.md "A variant inherits"). A variant whose resolved price and list are exactly
 * its master's (the master's record earlier in the same call, else the stored master) is
 * written without them, so export and import round-trip it as inheriting. A variant with a
 * price of its own that happens to equal its master's comes back inheriting too: the export
 * writes the same file for both. Only import jobs of such files ask for this
 * (`UpsertContext.inheritMasterPrices`); supplier files keep every price as written.
 */
export function inheritMasterPrices(
  resolved: readonly (ResolvedNode | null)[],
  storedMaster: (sku: string) => ProductNode | undefined,
): void {
  const inCall = new Map<string, ResolvedNode>();
  for (const node of resolved) {
    if (!node) continue;
    if (!node.parentSku) {
      inCall.set(node.sku, node);
      continue;
    }
    if (!('price' in node.fields) || node.prices === undefined) continue;
    const fromFile = inCall.get(node.parentSku);
    const stored = storedMaster(node.parentSku);
    if (!fromFile && !stored) continue;
    const masterPrice =
      fromFile && 'price' in fromFile.fields ? fromFile.fields.price : (stored?.product.price ?? null);
    const masterList = fromFile?.prices ?? stored?.prices ?? [];
    const price = node.fields.price ?? null;
    if (price === null && node.prices.length === 0) continue;
    if (price !== (masterPrice ?? null) || !sameList(node.prices, masterList)) continue;
    node.fields.price = null;
    node.prices = [];
  }
}
