import type { XmlNode } from '../read/xml-node';

/** A field problem found while reading a product: what was done, and where in the file. */
export interface FileWarning {
  code: string;
  message: string;
  line: number;
  /** Path below the record element, e.g. PRODUCT_ORDER_DETAILS/ORDER_UNIT. */
  path: string;
}

/**
 * What a product element asks for: `upsert` (T_NEW_CATALOG, T_UPDATE_PRODUCTS mode new /
 * update), `delete` (T_UPDATE_PRODUCTS mode delete) or `prices` (T_UPDATE_PRICES: the price
 * of an existing product, nothing else).
 */
export type ProductAction = 'upsert' | 'delete' | 'prices';

/** The transaction a record path is in, from its element path (e.g. /BMECAT/T_UPDATE_PRICES/ARTICLE). */
export function actionOf(node: XmlNode, path: string): ProductAction {
  if (path.includes('/T_UPDATE_PRICES/')) return 'prices';
  if (path.includes('/T_UPDATE_PRODUCTS/') && node.attrs.mode === 'delete') return 'delete';
  return 'upsert';
}
