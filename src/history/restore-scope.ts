import type { Database } from '../db/client';
import { scopedCategoriesOf } from '../db/product-scope';
import { forbidden } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { NOT_PERMITTED } from '../kernel/permissions';

/**
 * RestoreVersion by a member with a product scope (docs/teams.md, "Restore"): the guard has
 * judged the master as it is now; this judges the state the restore would write. A restore that
 * moves the master out of the member's scope (placed in none of the scoped subtrees afterwards),
 * places it in a category outside them or takes away a placement outside them (which the
 * member's `UpdateProduct` keeps, catalog/placement-reach.ts) is `403 NOT_PERMITTED`, before
 * anything is written and naming nothing, the rule an upsert's `categoryIds` follows. A
 * catalog in the scope permits every placement of that catalog. A restore writes no language
 * narrower than the product: it needs `product.write`, which no language-scoped role holds.
 */
export async function assertRestoreInScope(
  db: Database,
  caller: Pick<Caller, 'companyId' | 'productScope'>,
  catalogId: string,
  before: readonly string[],
  after: readonly string[],
): Promise<void> {
  const scope = caller.productScope;
  if (!scope || scope.catalogIds.includes(catalogId)) return;
  const inside = await scopedCategoriesOf(db, scope, caller.companyId, catalogId);
  // a placement outside the subtrees, added or taken away, is not the member's to change
  const changed = [...after.filter((id) => !before.includes(id)), ...before.filter((id) => !after.includes(id))];
  if (!after.some((id) => inside.has(id)) || changed.some((id) => !inside.has(id))) throw forbidden(NOT_PERMITTED);
}
