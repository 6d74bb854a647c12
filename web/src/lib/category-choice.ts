/**
 * The category of a requirement's limit as the dialog picks it (pages/RequirementLimits.tsx): a
 * catalog and the chain of categories from its top level down, one per level select. The limit
 * itself is only the last id of the chain (`categoryId`); none is "any category".
 */
export interface CategoryChoice {
  catalogId: string;
  /** From the top level down; empty: any category of the catalog. */
  chain: string[];
}

/**
 * What the selects show: the user's pick while it still says the row's `categoryId` (rows are
 * kept by position, so a removed row above hands this one another requirement: a pick that no
 * longer matches is dropped), else where the row's category is (`known`, read by GetCategory),
 * else the first catalog with no category. Null while the row's category is still being read.
 */
export function currentChoice(
  picked: CategoryChoice | null,
  categoryId: string | undefined,
  known: CategoryChoice | null,
  firstCatalogId: string | undefined,
): CategoryChoice | null {
  if (picked && picked.chain.at(-1) === categoryId) return picked;
  if (categoryId) return known;
  return { catalogId: firstCatalogId ?? '', chain: [] };
}

/** The choice after the select of `level` is set to `categoryId` (empty: the level above, or any category). */
export function chooseAt(choice: CategoryChoice, level: number, categoryId: string): CategoryChoice {
  return { catalogId: choice.catalogId, chain: [...choice.chain.slice(0, level), ...(categoryId ? [categoryId] : [])] };
}
