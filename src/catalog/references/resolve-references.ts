import { isReferenceType, type StoredReference, storedReference } from './reference-rules';

/** Reports a field problem the tolerant import applied a rule to (upsert/resolve-classification.ts's WarnFn). */
type Warn = (field: string, code: 'reference_type' | 'reference_invalid', message: string) => void;
/** Raises an item error naming the field (strict upserts). */
type Fail = (field: string, message: string) => never;

/**
 * The references of one upsert record, checked with SetReferences' rules. Strict (no `warn`):
 * the first problem rejects the record. Tolerant (an import): an unknown type becomes `others`,
 * a quantity that is not a positive whole number is left out, and a reference to the product
 * itself, without a target or listed twice is dropped; each with a warning. A target not in
 * the catalog is no problem: it is kept as pending.
 */
export function resolveReferences(
  ownSku: string,
  list: readonly {
    type: string;
    targetSku: string;
    targetKind?: string | null;
    quantity?: number | null;
    descr?: string | null;
    targetCatalog?: string | null;
    targetCatalogVersion?: string | null;
  }[],
  fail: Fail,
  warn?: Warn,
): StoredReference[] {
  const out: StoredReference[] = [];
  const seen = new Set<string>();
  for (const [i, r] of list.entries()) {
    const field = `references[${i}]`;
    const problem = (code: 'reference_type' | 'reference_invalid', message: string, then: string) => {
      if (!warn) fail(field, message);
      warn(field, code, `${message}: ${then}`);
    };
    const targetSku = r.targetSku.trim();
    if (targetSku === '') {
      problem('reference_invalid', 'a reference needs a target SKU', 'left out');
      continue;
    }
    const byMpn = r.targetKind === 'mpn';
    if (targetSku === ownSku) {
      problem('reference_invalid', 'a product cannot reference itself', 'left out');
      continue;
    }
    let type = r.type.trim().toLowerCase();
    if (!isReferenceType(type)) {
      problem('reference_type', `reference type "${r.type.slice(0, 40)}" is not known`, 'stored as others');
      type = 'others';
    }
    let quantity = r.quantity ?? null;
    if (quantity !== null && !(Number.isInteger(quantity) && quantity > 0 && quantity <= 1_000_000)) {
      problem('reference_invalid', `quantity ${quantity} is not a positive whole number`, 'left out');
      quantity = null;
    }
    const key = `${type}\u0000${byMpn ? 'mpn' : 'sku'}\u0000${targetSku}`;
    if (seen.has(key)) {
      problem('reference_invalid', `the ${type} reference to ${targetSku} is listed twice`, 'the second left out');
      continue;
    }
    seen.add(key);
    const text = (v: string | null | undefined, max: number) => v?.trim().slice(0, max) || null;
    out.push(
      storedReference({
        type,
        targetSku,
        targetKind: byMpn ? 'mpn' : null,
        quantity,
        descr: text(r.descr, 250),
        targetCatalog: text(r.targetCatalog, 64),
        targetCatalogVersion: text(r.targetCatalogVersion, 20),
      }),
    );
  }
  return out;
}
