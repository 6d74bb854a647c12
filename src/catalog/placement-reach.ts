import type { Database } from '../db/client';
import { scopedCategoriesOf } from '../db/product-scope';
import { narrowingScope } from '../db/scope-counts';
import { forbidden } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { NOT_PERMITTED } from '../kernel/permissions';

/**
 * A product's placements as a member limited to category subtrees sets them (docs/teams.md,
 * "Placements outside a member's reach"). Such a member's list of placements (`UpdateProduct`'s,
 * an upsert item's or an import row's `categoryIds`) is read as the placements **inside** their
 * subtrees: those become exactly the list, and the product's placements outside stay as they
 * are, since the member may change none of them (their tree does not list them). For everyone
 * else the list is the whole set, as it always was.
 */

/**
 * The categories of `catalogId` the caller may place products in, or null when every one is
 * theirs (no product scope, or a scope naming the catalog). One statement, for a scoped caller only.
 */
export async function placeableCategories(
  db: Database,
  caller: Pick<Caller, 'companyId' | 'productScope'>,
  catalogId: string,
): Promise<ReadonlySet<string> | null> {
  const scope = narrowingScope(caller, catalogId);
  return scope ? scopedCategoriesOf(db, scope, caller.companyId, catalogId) : null;
}

/**
 * The product's whole new set of placements when `given` is set by a caller who may place in
 * `inside` (null: anywhere): `given`, and the stored placements outside `inside`. A category of
 * `given` outside is `403 NOT_PERMITTED`, naming nothing (the guard refuses it before validation;
 * this is for a caller that comes another way). The result is what is written, recorded in the
 * history and answered.
 */
export function placementsWithin(
  stored: readonly string[],
  given: readonly string[],
  inside: ReadonlySet<string> | null,
): string[] {
  if (!inside) return [...given];
  if (given.some((id) => !inside.has(id))) throw forbidden(NOT_PERMITTED);
  return [...new Set([...given, ...stored.filter((id) => !inside.has(id))])];
}
