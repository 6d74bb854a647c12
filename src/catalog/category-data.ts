import { z } from 'zod';
import type { categories } from '../db/schema';
import { normaliseBlock, storedFeatureSchema, type StoredFeature } from '../model/feature-block-types';

/**
 * A category's BMEcat group data besides its name, description and order (docs/data-model.md
 * "Category data", migration 0051): KEYWORDs, FEATUREs and the USER_DEFINED_EXTENSIONS an import
 * kept. Its media (pictures, links) are the category's media list (`Media/*`, element = the
 * category). One home for their API form, shared by the category operations.
 */

/** What AddCategory / UpdateCategory take of it (absent = unchanged, null = removed). */
export const CategoryDataInput = {
  /** KEYWORDs, comma-separated (as a product's keywords); in other languages through `translations`. */
  keywords: z.string().max(1000).nullish(),
  /** The group's FEATUREs, in order (a feature block's features, SetFeatureBlocks' shape); `[]` or null removes. */
  features: z.array(storedFeatureSchema).max(1000).nullish(),
  /**
   * The kept USER_DEFINED_EXTENSIONS (verbatim XML): read-only, set by imports only. Accepted and
   * ignored, so a category read and written back succeeds.
   */
  udx: z.string().nullish(),
};

/** The same in answers: each absent when the category has none (so answers of categories without data are unchanged). */
export const CategoryDataOut = {
  keywords: z.string().optional(),
  features: z.array(storedFeatureSchema).optional(),
  udx: z.string().optional(),
};

type Row = Pick<typeof categories.$inferSelect, 'keywords' | 'features' | 'udx'>;

/** The stored columns in their API form. */
export function categoryDataOut(row: Row): { keywords?: string; features?: StoredFeature[]; udx?: string } {
  return {
    ...(row.keywords ? { keywords: row.keywords } : {}),
    ...(row.features ? { features: JSON.parse(row.features) as StoredFeature[] } : {}),
    ...(row.udx ? { udx: row.udx } : {}),
  };
}

/** The columns a write sets: only what the input names; an empty keyword text or list removes. */
export function categoryDataColumns(input: {
  keywords?: string | null;
  features?: StoredFeature[] | null;
}): Partial<Pick<Row, 'keywords' | 'features'>> {
  const out: Partial<Pick<Row, 'keywords' | 'features'>> = {};
  if (input.keywords !== undefined) out.keywords = input.keywords?.trim() || null;
  if (input.features !== undefined)
    out.features = input.features?.length
      ? JSON.stringify(normaliseBlock({ system: '', features: input.features }).features)
      : null;
  return out;
}
