import { z } from 'zod';
import {
  REFERENCE_TYPES,
  type ReferenceType,
  type StoredReference,
  storedReference,
} from '../../model/reference-types';

export { REFERENCE_TYPES, type ReferenceType, type StoredReference, storedReference };

export function isReferenceType(value: string): value is ReferenceType {
  return (REFERENCE_TYPES as readonly string[]).includes(value);
}

/** The most references one product may have (a BMEcat product rarely has more than a few dozen). */
export const MAX_REFERENCES = 500;

/** One outgoing reference as the API, MCP and the history write it. */
export const ReferenceIn = z.strictObject({
  type: z.enum(REFERENCE_TYPES),
  targetSku: z.string().trim().min(1).max(255),
  /** `mpn`: `targetSku` is the target's manufacturer product number; absent or `sku`: its SKU. */
  targetKind: z.enum(['sku', 'mpn']).optional(),
  /** How many of the target go with one of this product (BMEcat's `quantity`); absent = unspecified. */
  quantity: z.number().int().positive().max(1_000_000).nullable().optional(),
  /** REFERENCE_DESCR: what the reference is about. */
  descr: z.string().trim().max(250).nullable().optional(),
  /** CATALOG_ID and CATALOG_VERSION of the catalog the target is in, when it is another one. */
  targetCatalog: z.string().trim().max(64).nullable().optional(),
  targetCatalogVersion: z.string().trim().max(20).nullable().optional(),
});
export type ReferenceInput = z.infer<typeof ReferenceIn>;

/**
 * The rules a list of references must meet beyond its shape: no reference to the product itself
 * and no (type, target) twice. Returns the problem naming the field, or null.
 */
export function referenceListProblem(ownSku: string | null, list: readonly StoredReference[]): string | null {
  const seen = new Set<string>();
  for (const [i, r] of list.entries()) {
    if (ownSku !== null && r.targetSku === ownSku)
      return `references[${i}].targetSku: a product cannot reference itself`;
    const key = `${r.type}\u0000${r.targetKind ?? 'sku'}\u0000${r.targetSku}`;
    if (seen.has(key)) return `references[${i}]: the ${r.type} reference to ${r.targetSku} is listed twice`;
    seen.add(key);
  }
  return null;
}

/** The stored form of an input list (quantity absent = null). */
export function storedReferences(list: readonly ReferenceInput[]): StoredReference[] {
  return list.map(storedReference);
}
