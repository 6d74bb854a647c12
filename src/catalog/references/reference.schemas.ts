import { z } from 'zod';
import { REFERENCE_TYPES } from './reference-rules';

/** The answer of GetReferences and SetReferences (documented in docs/rest-api.md "Product references"). */
export const ReferencesOut = z.object({
  productId: z.string(),
  sku: z.string().nullable(),
  outgoing: z.array(
    z.object({
      position: z.number().int(),
      type: z.enum(REFERENCE_TYPES),
      /** As written: the target's SKU, or its manufacturer number when `targetKind` is `mpn`. */
      targetSku: z.string(),
      /** `mpn`: the target is named by manufacturer product number (an ETIM xChange ProductRelation). */
      targetKind: z.enum(['sku', 'mpn']),
      quantity: z.number().int().nullable(),
      /** REFERENCE_DESCR, and CATALOG_ID / CATALOG_VERSION of the target's catalog, when given. */
      descr: z.string().nullable(),
      targetCatalog: z.string().nullable(),
      targetCatalogVersion: z.string().nullable(),
      targetProductId: z.string().nullable(),
      targetName: z.string().nullable(),
      /** The target SKU is not in the catalog (yet); the reference resolves when it arrives. */
      pending: z.boolean(),
    }),
  ),
  incoming: z.array(
    z.object({
      productId: z.string(),
      sku: z.string().nullable(),
      name: z.string().nullable(),
      type: z.enum(REFERENCE_TYPES),
      quantity: z.number().int().nullable(),
    }),
  ),
  incomingTruncated: z.boolean(),
});
