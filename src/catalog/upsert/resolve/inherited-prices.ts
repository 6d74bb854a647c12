import type { ProductNode } from '../../../model/product-aggregate';
import { forEachVariantWithMaster } from './inherited-fields';
import type { ResolvedNode } from '../upsert-types';

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
  forEachVariantWithMaster(resolved, storedMaster, (node, fromFile, stored) => {
    if (!('price' in node.fields) || node.prices === undefined) return;
    const masterPrice =
      fromFile && 'price' in fromFile.fields ? fromFile.fields.price : (stored?.product.price ?? null);
    const masterList = fromFile?.prices ?? stored?.prices ?? [];
    const price = node.fields.price ?? null;
    if (price === null && node.prices.length === 0) return;
    if (price !== (masterPrice ?? null) || !sameList(node.prices, masterList)) return;
    node.fields.price = null;
    node.prices = [];
  });
}
