import type { ReferenceType } from '../../../src/model/reference-types';

/**
 * One row of the references form. `targetKind` is kept as read: a reference by manufacturer
 * number (an ETIM xChange ProductRelation) stays one when the list is saved.
 */
export type ReferenceRow = {
  id: number;
  type: ReferenceType;
  targetSku: string;
  targetKind: 'sku' | 'mpn';
  quantity: string;
};

/** The SetReferences list of the form's rows: empty targets left out, `targetKind` sent only for `mpn`. */
export function referencesOfRows(rows: readonly ReferenceRow[]) {
  return rows
    .filter((r) => r.targetSku.trim() !== '')
    .map((r) => ({
      type: r.type,
      targetSku: r.targetSku.trim(),
      ...(r.targetKind === 'mpn' ? { targetKind: 'mpn' as const } : {}),
      quantity: r.quantity ? Number(r.quantity) : null,
    }));
}
