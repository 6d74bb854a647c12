/**
 * Product references (docs/data-model.md "Product references"): the types are BMEcat's
 * PRODUCT_REFERENCE `type` values (2005 and 1.2's ARTICLE_REFERENCE alike), so a file and the
 * API name them the same way. This module imports nothing, so the web app bundles it as it is.
 */
export const REFERENCE_TYPES = [
  'accessories',
  'sparepart',
  'similar',
  'followup',
  'mandatory',
  'select',
  'consists_of',
  'diff_orderunit',
  'others',
] as const;
export type ReferenceType = (typeof REFERENCE_TYPES)[number];
