import type { FormulaNode } from '../../model/catalog-formulas';
import { readFormulaPage } from '../../model/catalog-formulas';
import type { ExportContext } from '../exporter';
import type { BmecatPlan } from './plan';
import { el, textEl } from './xml-text';

/** Formulas per page: one FORMULA is at most 256 KiB of JSON (the import's bound), most far less. */
const FORMULA_PAGE_SIZE = 20;

/** One stored element written back as it was read: attributes, then its text or its children in order. */
function formulaElement(node: FormulaNode): string {
  if (node.children) return el(node.name, node.children.map(formulaElement), node.attrs);
  return textEl(node.name, node.text, node.attrs);
}

/** The groups phase's cursor once the categories are written and the formulas follow: `formulas:<position>`. */
const FORMULAS_CURSOR = 'formulas:';

/** Where the groups phase goes on after its last category page: the formulas, when the plan pinned any. */
export const formulasStart = (plan: BmecatPlan): string | null =>
  (plan.formulasThrough ?? 0) > 0 ? `${FORMULAS_CURSOR}0` : null;

export const isFormulasCursor = (cursor: string | null): cursor is string =>
  cursor?.startsWith(FORMULAS_CURSOR) ?? false;

/**
 * A page of BMEcat 2005's FORMULAS (after CATALOG_GROUP_SYSTEM, before the products: the XSD's
 * place in T_NEW_CATALOG): every formula the catalog keeps (migration 0089), in its order, up to
 * the one the plan pinned (`formulasThrough`), each FORMULA written back element by element as
 * the import read and checked it (src/imports/records/bmecat-formulas.ts). All of them, not only
 * those the file's prices name: a formula is the catalog's, like its group system, and an import
 * of the file keeps it again. Written by the groups phase after its categories (bmecat-exporter.ts),
 * so the phases of an export started before formulas keep their numbers.
 */
export async function formulasPage(
  ctx: ExportContext,
  plan: BmecatPlan,
  cursor: string,
): Promise<{ text: string; nextCursor: string | null }> {
  const after = Number(cursor.slice(FORMULAS_CURSOR.length));
  const { formulas, last } = await readFormulaPage(
    ctx.db,
    { companyId: ctx.companyId, catalogId: ctx.catalog.id },
    { after, through: plan.formulasThrough ?? 0, limit: FORMULA_PAGE_SIZE },
  );
  const first = after === 0;
  // A first page without rows writes nothing, so no empty FORMULAS (the XSD requires one FORMULA).
  if (first && formulas.length === 0) return { text: '', nextCursor: null };
  const text =
    (first ? '<FORMULAS>\n' : '') +
    formulas.map((f) => formulaElement(f.formula)).join('') +
    (last === null ? '</FORMULAS>\n' : '');
  return { text, nextCursor: last === null ? null : `${FORMULAS_CURSOR}${last}` };
}
