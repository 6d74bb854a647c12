import { sql } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import { products } from '../db/schema';
import { hasTranslationIn, type ElementTranslations } from '../model/translation-store';

/**
 * The sync record carries a product's texts in the languages its catalog publishes, and only
 * those (docs/languages.md "Sync"): a translation kept for a language the catalog no longer
 * publishes (removing a language deletes no text) is not sent, and publishing a language sends
 * the texts it already has.
 */

/** The translations of the `published` languages only (the default language among them has none: it is the columns). */
export function publishedTranslations(
  translations: ElementTranslations | undefined,
  published: readonly string[],
): ElementTranslations | undefined {
  if (!translations) return undefined;
  return Object.fromEntries(Object.entries(translations).filter(([language]) => published.includes(language)));
}

/**
 * The statement, for the batch that changes a catalog's languages from `before` to `after`, that
 * moves the revision of every master whose record changes with them: one with a translation (its
 * own or a variant's) in a language added or removed. The sync then finds their fingerprints
 * stale and recomputes them (master-reader.ts), so the next run sends each exactly one update;
 * masters without such texts keep their revision and are not resent. Null when no language
 * changed. One pass over the catalog's products with a primary-key probe of `translations` each.
 */
export function languagesChangedStatement(
  db: Database,
  catalogId: string,
  before: readonly string[],
  after: readonly string[],
): BatchStatement | null {
  const changed = [...before.filter((l) => !after.includes(l)), ...after.filter((l) => !before.includes(l))];
  if (changed.length === 0) return null;
  return db
    .update(products)
    .set({ revision: sql`${products.revision} + 1` })
    .where(
      sql`${products.id} IN (SELECT coalesce(p.parent_id, p.id) FROM products p WHERE p.catalog_id = ${catalogId} AND ${hasTranslationIn(sql`p.id`, changed)})`,
    );
}
