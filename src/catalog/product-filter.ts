import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { products } from '../db/schema';
import { ftsMatchExpression } from './product-search';
import { PRODUCT_STATUSES } from '../kernel/product-status';
import { LANGUAGE_CODE } from '../kernel/code-rules';
import { RELEASE_NAME } from '../kernel/release-name';
import { int, languageNumber, SPAN } from './search-scope';
import type { Caller } from '../kernel/caller';
import { catalogProductScopeSql, scopeSubtreeSql } from '../db/product-scope';
import { keptScopeMastersSql } from '../db/scope-counts';
import { completenessConditions, completenessDrivers } from './product-filter-completeness';

/**
 * The product filter shared by the product list (`GET /api/Catalog/GetProducts`), the MCP
 * search tool and mass edit (`StartMassEdit {filter}`): one schema, one SQL builder, so the
 * grid a user filtered and the set a mass edit changes are the same products.
 *
 * Query strings carry `subtree=true` and `missing=gtin,price`; JSON bodies may carry the same
 * strings or a boolean and an array. Both parse to the same `ProductFilterInput`.
 */
const MISSING_FIELDS = ['gtin', 'price', 'classification'] as const;

const booleanFlag = z.preprocess(
  (v) => (v === 'true' ? true : v === 'false' ? false : v),
  z.boolean({ error: 'must be true or false' }),
);

/**
 * A list a query string carries comma-separated (`missing=gtin,price`); a JSON body may send
 * the array itself. Empty items are dropped.
 */
export const commaList = <T extends z.ZodType>(items: T) =>
  z.preprocess(
    (v) =>
      typeof v === 'string'
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s !== '')
        : v,
    items,
  );

const missingList = commaList(
  z
    .array(z.enum(MISSING_FIELDS, { error: `must name fields of ${MISSING_FIELDS.join(', ')}` }))
    .max(MISSING_FIELDS.length),
);

export const ProductFilter = z.strictObject({
  /** Full-text search over SKU, name, manufacturer part number, GTIN and keywords. */
  q: z
    .string()
    .max(200, 'must be at most 200 characters')
    .regex(/^[^\p{Cc}]*$/u, 'q must not contain control characters')
    .optional(),
  /**
   * The search (`q`) finds words of this language only (ISO 639-2, e.g. `eng`): the catalog's
   * default language is the products' own fields, any other their translated name and keywords.
   * Without it a search finds words of every language (docs/search.md, "Languages").
   */
  searchLanguage: z.string().regex(LANGUAGE_CODE, 'searchLanguage must be an ISO 639-2 code such as eng').optional(),
  /** Only products placed in this category (and, with `subtree`, in any category below it). */
  categoryId: z.uuid().optional(),
  subtree: booleanFlag.optional(),
  status: z.enum(PRODUCT_STATUSES).optional(),
  /** Only products classified with this standard class code, e.g. ETIM `EC000042`. */
  classCode: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, 'classCode must be a class code such as EC000042')
    .optional(),
  /** Only products with a class of this release (`ETIM-9.0`): those still on an old release. */
  classificationRelease: z
    .string()
    .regex(RELEASE_NAME, 'classificationRelease must be a release such as ETIM-9.0')
    .optional(),
  /** Only products lacking every one of these: `gtin`, `price`, `classification`. */
  missing: missingList.optional(),
  /**
   * Only products whose name or description has a default-language text but none in this
   * language (a code the catalog publishes, e.g. `eng`): the grid's "missing translation in X".
   */
  missingTranslation: z
    .string()
    .regex(/^[a-z]{3}$/, 'missingTranslation must be a language code such as eng')
    .optional(),
  /** Only products not complete for this channel (docs/completeness.md): in `channelLanguage`, else in any of its languages. */
  incompleteFor: z.uuid().optional(),
  /** The language `incompleteFor` and `incompleteVariantsFor` are judged in (ISO 639-2). */
  channelLanguage: z
    .string()
    .regex(/^[a-z]{3}$/, 'channelLanguage must be an ISO 639-2 code such as eng')
    .optional(),
  /**
   * Only masters with at least one variant not complete for this channel (each variant's own
   * score, docs/completeness.md "Variants"): in `channelLanguage`, else in any of its languages.
   */
  incompleteVariantsFor: z
    .uuid()
    .optional()
    .describe(
      'Only masters with at least one variant not complete for this channel (each variant scored on its own), in channelLanguage or any language of the channel; missingRequirement narrows it to variants lacking that requirement',
    ),
  /** With `incompleteFor` / `incompleteVariantsFor`: only products (variants) missing this requirement, e.g. `name`, `values.colour`, `media.normal>=1`. */
  missingRequirement: z.string().min(1).max(120).optional(),
});
export type ProductFilterInput = z.infer<typeof ProductFilter>;

/** Category ids of `categoryId` and, with `subtree`, all its descendants (trees are small: thousands). */
function categoryScope(tenant: Caller, catalogId: string, categoryId: string, subtree: boolean): SQL {
  const own = sql`SELECT id FROM categories WHERE id = ${categoryId} AND company_id = ${tenant.companyId} AND catalog_id = ${catalogId}`;
  if (!subtree) return own;
  return sql`WITH RECURSIVE sub(id) AS (
      ${own}
      UNION SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id
    ) SELECT id FROM sub`;
}

/**
 * The one category whose placements a list can walk in SKU order (product-list-source.ts,
 * `placementSource`), as a subquery of its id (none when it is not the tenant's and the
 * catalog's); null when the filter names no category, or a subtree (several categories, whose
 * orders would have to be merged).
 */
export function walkedCategory(tenant: Caller, catalogId: string, filter: ProductFilterInput): SQL | null {
  return filter.categoryId && !filter.subtree ? categoryScope(tenant, catalogId, filter.categoryId, false) : null;
}

/** A condition of a filter as the ids of the master products it admits (`SELECT ... AS mid`). */
export interface FilterDriver {
  ids: SQL;
  /** How many products `ids` names when that is known without reading them (a scalar subquery; NULL: count them). */
  size?: SQL;
  /** Read through an index (cheap to count), or by a scan of its table (counted only when no indexed one drives). */
  scan: boolean;
  /** The member's category subtrees (docs/teams.md), not a condition of the filter: the only driver with a kept `size`. */
  memberScope?: boolean;
  /** For a scanned condition: a cheap statement that is 0 when it admits no product at all (then nothing is scanned). */
  none?: SQL;
  /**
   * The filter field whose condition these ids are exactly (an EXISTS per product in
   * `productFilterWhere`): a list driven by them leaves it out of its WHERE, one random seek less
   * per product of the set (a leaf category of 1,000 masters at 1M: 12.2 ms CPU to 9.4).
   */
  covers?:
    | 'categoryId'
    | 'classCode'
    | 'classificationRelease'
    | 'missingTranslation'
    | 'incompleteFor'
    | 'incompleteVariantsFor';
}

/**
 * The conditions of `filter` that can name their products directly, each as a subquery of the
 * master product ids it admits (a superset of the filter's products: the caller applies
 * `productFilterWhere` to them too). The product list counts them and, when one names few
 * products, reads those instead of walking a sort order's index (docs/search.md, "Filter
 * plans"). Through an index: a category's placements (`product_categories_category_idx`), a
 * status other than active and a missing GTIN or price (partial indexes of migration 0012, whose
 * WHERE these statements repeat word for word: SQLite uses a partial index only then). By a scan:
 * a class code (`classification_link_classes` has no index on it; an index would cost about
 * 25 bytes per product row), skipped when no link names the code at all (`none`). A missing
 * classification never drives.
 */
export function filterDrivers(tenant: Caller, catalogId: string, filter: ProductFilterInput): FilterDriver[] {
  const drivers: FilterDriver[] = [];
  const indexed = (ids: SQL, covers?: FilterDriver['covers']) => drivers.push({ ids, scan: false, covers });
  if (filter.categoryId) {
    const scope = categoryScope(tenant, catalogId, filter.categoryId, filter.subtree ?? false);
    indexed(
      sql`SELECT DISTINCT product_id AS mid FROM product_categories WHERE category_id IN (${scope})`,
      'categoryId',
    );
  }
  const memberScope = tenant.productScope;
  if (memberScope && !memberScope.catalogIds.includes(catalogId))
    // A member's category subtrees name their products through the placements' index, as a
    // category filter does: a small subtree drives the list (product-list.ts, `drivenIds`). How
    // many they are, the scope set's kept counters say (docs/teams.md "Counts"), so a large
    // subtree is not counted up to the drive limit on every list.
    // Of this catalog only: a subtree of another catalog names none of its products.
    drivers.push({
      ids: sql`SELECT DISTINCT product_id AS mid FROM product_categories WHERE category_id IN (
        SELECT s.id FROM (${scopeSubtreeSql(memberScope, tenant.companyId)}) s CROSS JOIN categories c ON c.id = s.id AND c.catalog_id = ${catalogId})`,
      size: keptScopeMastersSql(tenant.companyId, memberScope, catalogId),
      scan: false,
      memberScope: true,
    });
  const masters = sql`SELECT id AS mid FROM products WHERE catalog_id = ${catalogId} AND company_id = ${tenant.companyId}`;
  if (filter.status && filter.status !== 'active')
    indexed(sql`${masters} AND status = ${filter.status} AND parent_id IS NULL AND status <> 'active'`);
  const missing = new Set(filter.missing ?? []);
  if (missing.has('gtin')) indexed(sql`${masters} AND parent_id IS NULL AND (gtin IS NULL OR gtin = '')`);
  if (missing.has('price')) indexed(sql`${masters} AND parent_id IS NULL AND (price IS NULL OR price = '')`);
  if (filter.missingTranslation)
    // A key range of the gaps the triggers of migration 0025 keep (docs/languages.md).
    indexed(
      sql`SELECT product_id AS mid FROM translation_gaps WHERE catalog_id = ${catalogId} AND lang = ${filter.missingTranslation}`,
      'missingTranslation',
    );
  for (const { ids, covers } of completenessDrivers(tenant, catalogId, filter)) indexed(ids, covers);
  if (filter.classificationRelease)
    // a range of migration 0020's partial index (release, link_id); each link by its integer key
    indexed(
      sql`SELECT DISTINCT l.element_id AS mid FROM classification_link_classes lc CROSS JOIN classification_links l ON l.id = lc.link_id
        WHERE lc."release" = ${filter.classificationRelease} AND l.company_id = ${tenant.companyId}`,
      'classificationRelease',
    );
  if (filter.classCode) {
    // the class rows first (CROSS JOIN), each link by its integer key; a link may name the code in two groups
    drivers.push({
      ids: sql`SELECT DISTINCT l.element_id AS mid FROM classification_link_classes lc CROSS JOIN classification_links l ON l.id = lc.link_id
        WHERE lc.code = ${filter.classCode} AND l.company_id = ${tenant.companyId}`,
      scan: true,
      // migration 0023: links naming the code, in any company (0: no product has the class)
      none: sql`SELECT coalesce((SELECT links FROM classification_class_use WHERE code = ${filter.classCode}), 0) AS n`,
      covers: 'classCode',
    });
  }
  return drivers;
}

/**
 * The WHERE condition selecting the master products of one catalog that match `filter`,
 * always scoped to the tenant. `catalogId` must already be known to belong to the tenant
 * (e.g. from `findCatalog`). The condition is over the `products` table and may be combined
 * with keyset conditions and any ORDER BY.
 */
export function productFilterWhere(
  tenant: Caller,
  catalogId: string,
  filter: ProductFilterInput,
  /** The search as planned by search-plan.ts (`searchMatch`); by default every word is a prefix. */
  match: string | null = filter.q !== undefined ? ftsMatchExpression(filter.q) : null,
): SQL {
  const conditions: (SQL | undefined)[] = [
    eq(products.catalogId, catalogId),
    eq(products.companyId, tenant.companyId),
    isNull(products.parentId),
    // A member limited to category subtrees (docs/teams.md): nothing else is listed, counted or found.
    catalogProductScopeSql(tenant, catalogId, sql`${products.id}`) ?? undefined,
  ];
  if (filter.q !== undefined && filter.q.trim() !== '') {
    // A q without any searchable character matches nothing rather than everything. A master
    // matches through its own documents or a variant's (a variant is indexed as a master is:
    // identifiers, name, keywords, translated names; migration 0032). With a language: its
    // documents only (the products' own for the catalog's default, identifiers included), as
    // the product list's search scope (search-scope.ts).
    const own = filter.searchLanguage
      ? sql`${filter.searchLanguage} = (SELECT language FROM catalogs WHERE id = ${catalogId})`
      : sql`1`;
    const docs = (docid: SQL) =>
      filter.searchLanguage
        ? sql` AND ${docid} / ${SPAN} = (CASE WHEN ${own} THEN 0 ELSE ${int(languageNumber(filter.searchLanguage))} END)`
        : sql``;
    conditions.push(
      match === null
        ? sql`0`
        : sql`("products"."rowid" IN (SELECT rowid % ${SPAN} FROM products_fts WHERE products_fts MATCH ${match}${docs(sql`rowid`)})
            OR "products"."id" IN (SELECT d.parent_id FROM products_fts f CROSS JOIN "products" d ON d.rowid = f.rowid % ${SPAN}
              WHERE f.products_fts MATCH ${match}${docs(sql`f.rowid`)} AND d.parent_id IS NOT NULL))`,
    );
  }
  if (filter.categoryId) {
    // The product is the tenant's (the catalog condition above) and so is every category of the scope.
    const scope = categoryScope(tenant, catalogId, filter.categoryId, filter.subtree ?? false);
    conditions.push(
      sql`EXISTS (SELECT 1 FROM product_categories pc WHERE pc.product_id = ${products.id} AND pc.category_id IN (${scope}))`,
    );
  }
  if (filter.status) conditions.push(eq(products.status, filter.status));
  if (filter.classCode) {
    conditions.push(sql`EXISTS (SELECT 1 FROM classification_links l JOIN classification_link_classes lc ON lc.link_id = l.id
      WHERE l.element_id = ${products.id} AND l.company_id = ${tenant.companyId} AND lc.code = ${filter.classCode})`);
  }
  if (filter.classificationRelease)
    conditions.push(sql`EXISTS (SELECT 1 FROM classification_links l JOIN classification_link_classes lc ON lc.link_id = l.id
      WHERE l.element_id = ${products.id} AND l.company_id = ${tenant.companyId} AND lc."release" = ${filter.classificationRelease})`);
  if (filter.missingTranslation)
    conditions.push(sql`EXISTS (SELECT 1 FROM translation_gaps g WHERE g.catalog_id = ${catalogId}
      AND g.lang = ${filter.missingTranslation} AND g.product_id = ${products.id})`);
  conditions.push(...completenessConditions(tenant, filter));
  for (const field of new Set(filter.missing ?? [])) {
    if (field === 'gtin') conditions.push(sql`(${products.gtin} IS NULL OR ${products.gtin} = '')`);
    if (field === 'price') conditions.push(sql`(${products.price} IS NULL OR ${products.price} = '')`);
    if (field === 'classification') {
      conditions.push(sql`NOT EXISTS (SELECT 1 FROM classification_links l WHERE l.element_id = ${products.id})`);
    }
  }
  return and(...conditions)!;
}
