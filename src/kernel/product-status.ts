/**
 * The statuses a product can have: one home for the value set that the database column, the
 * input validators (REST, /api/ai, MCP, bulk upsert, mass edit), the product filter, the export
 * templates, the sync wire format and the web app's pickers use. This module imports nothing,
 * so `db/schema.ts`, the connector's wire types and the web app can use it too (like
 * `classification/groups.ts`).
 */
export const PRODUCT_STATUSES = ['active', 'draft', 'discontinued'] as const;

export type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** What a new product is when its status is not given. */
export const DEFAULT_PRODUCT_STATUS: ProductStatus = 'active';
