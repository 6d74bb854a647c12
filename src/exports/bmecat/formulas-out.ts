import type { FormulaNode } from '../../model/catalog-formulas';
import { readFormulaPage } from '../../model/catalog-formulas';
import type { ExportPhase } from '../exporter';
import type { BmecatPlan } from './plan';
import { el, textEl } from './xml-text';

/** Formulas per page: one FORMULA is at most 256 KiB of JSON (the import's bound), most far less. */
const FORMULA_PAGE_SIZE = 20;

/** One stored element written back as it was read: attributes, then its text or its children in order. */
function formulaElement(node: FormulaNode): string {
  if (node.children) return el(node.name, node.children.map(formulaElement), node.attrs);
  return textEl(node.name, node.text, node.attrs);
}

/**
 * BMEcat 2005's FORMULAS (after CATALOG_GROUP_SYSTEM, before the products: the XSD's place in
 * T_NEW_CATALOG): every formula the catalog keeps (migration 0089), in its order, up to the one
 * the plan pinned (`formulasThrough`), each FORMULA written back element by element as the import
 * read and checked it (src/imports/records/bmecat-formulas.ts). All of them, not only those the
 * file's prices name: a formula is the catalog's, like its group system, and an import of the
 * file keeps it again. Nothing when the catalog has none.
 */
export const formulasPhase: ExportPhase<BmecatPlan> = {
  name: 'formulas',
  async run(ctx, plan, cursor) {
    const through = plan.formulasThrough ?? 0;
    if (through <= 0) return { text: '', nextCursor: null, products: 0 };
    const after = cursor === null ? 0 : Number(cursor);
    const { formulas, last } = await readFormulaPage(
      ctx.db,
      { companyId: ctx.companyId, catalogId: ctx.catalog.id },
      { after, through, limit: FORMULA_PAGE_SIZE },
    );
    const open = cursor === null && formulas.length > 0 ? '<FORMULAS>\n' : '';
    // A first page without rows writes nothing, so no empty FORMULAS (the XSD requires one FORMULA).
    const close = last === null && (cursor !== null || formulas.length > 0) ? '</FORMULAS>\n' : '';
    const text = open + formulas.map((f) => formulaElement(f.formula)).join('') + close;
    return { text, nextCursor: last === null ? null : String(last), products: 0 };
  },
};
