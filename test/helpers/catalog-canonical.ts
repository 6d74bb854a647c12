import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { loadProductAggregates, type ProductNode } from '../../src/model/product-aggregate';
import { readTranslations } from '../../src/model/translation-store';
import { categories, media, products } from '../../src/db/schema';
import { db } from './factories';

/** Keys that name where a row is, not what it says: ids, times, revisions, fingerprints, storage. */
const NOT_DATA = new Set([
  'id',
  'companyId',
  'catalogId',
  'createdAt',
  'updatedAt',
  'revision',
  'fingerprint',
  'fingerprintRevision',
  'mediaId',
  'storageKey',
  'linkId',
  'productCount',
]);

/** `value` without the keys of NOT_DATA, at any depth; key order normalised. */
function dataOnly(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dataOnly);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => !NOT_DATA.has(k) && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => [k, dataOnly(v)]),
  );
}

/** A product or variant as data: its row, values, classification, media, prices, references, UDX, blocks, texts. */
function nodeData(node: ProductNode) {
  // The master's id (a feature's FPARENT_ID, also `parentId`, is data and stays).
  const { parentId: _master, ...product } = node.product;
  return dataOnly({
    ...node,
    product,
    references: node.references.map(({ targetProductId, ...r }) => ({
      ...r,
      target: targetProductId === null ? 'pending' : 'resolved',
    })),
    classification: node.classification && {
      ...node.classification,
      classes: [...node.classification.classes].sort((a, b) => (a.group < b.group ? -1 : 1)),
    },
  });
}

/**
 * A catalog's data in a form two catalogs can be compared in (issue 19, round trip): the
 * category tree by path (names, descriptions, order, translations, links), and every master
 * with its variants as the product aggregate the exports and the sync read (every field,
 * value, classification feature, media entry, price row, reference, UDX, feature block and
 * translation), ids, times and storage keys removed, placements as category paths,
 * references as target SKU plus pending / resolved, masters and variants by SKU.
 */
export async function catalogData(companyId: string, catalogId: string) {
  const groups = await db()
    .select()
    .from(categories)
    .where(eq(categories.catalogId, catalogId))
    .orderBy(asc(categories.name));
  const byId = new Map(groups.map((g) => [g.id, g]));
  const pathOf = (id: string): string => {
    const g = byId.get(id);
    if (!g) return `? ${id}`;
    return g.parentId ? `${pathOf(g.parentId)} > ${g.name}` : g.name;
  };
  const ids = groups.map((g) => g.id);
  const texts = await readTranslations(db(), ids);
  // The categories' media, 90 ids a query (D1 binds at most 100 parameters).
  const links: (typeof media.$inferSelect)[] = [];
  for (let i = 0; i < ids.length; i += 90)
    links.push(
      ...(await db()
        .select()
        .from(media)
        .where(inArray(media.elementId, ids.slice(i, i + 90)))),
    );
  const linksOf = (id: string) =>
    links
      .filter((m) => m.elementId === id)
      .sort((a, b) => a.sortOrder - b.sortOrder)
      .map(({ elementId: _e, ...m }) => dataOnly(m));
  const tree = groups
    .map((g) => ({
      path: pathOf(g.id),
      description: g.description,
      sortOrder: g.sortOrder,
      translations: texts.get(g.id) ?? {},
      media: linksOf(g.id),
    }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));

  const masters = await db()
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.catalogId, catalogId), isNull(products.parentId)))
    .orderBy(asc(products.sku));
  const aggregates = await loadProductAggregates(
    db(),
    companyId,
    masters.map((m) => m.id),
  );
  const productsData = aggregates.map(({ categoryIds, variants, ...master }) => ({
    ...(nodeData(master) as object),
    categories: categoryIds.map(pathOf).sort(),
    variants: variants.map(nodeData),
  }));
  return { categories: tree, products: dataOnly(productsData) };
}
