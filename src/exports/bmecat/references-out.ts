import { REFERENCE_TYPES } from '../../catalog/references/reference-rules';
import type { ExportWarnings } from '../export-warnings';
import type { ProductView } from './product-view';
import { el, textEl } from './xml-text';

/**
 * A product's references as PRODUCT_REFERENCE (2005, ETIM) or ARTICLE_REFERENCE (1.2) elements,
 * written after the base product reference, in the product's order, each with the target's
 * SUPPLIER_PID and `quantity`. A pending reference is written too: the target SKU is what the
 * supplier named, and the recipient may have it. A type the dialect's schema does not list
 * (the ETIM guideline has no `diff_orderunit`) is written as `others` and reported.
 */
export function referenceElements(
  view: ProductView,
  element: 'PRODUCT_REFERENCE' | 'ARTICLE_REFERENCE',
  w: ExportWarnings,
  types: readonly string[] = REFERENCE_TYPES,
): string[] {
  const idTo = element === 'PRODUCT_REFERENCE' ? 'PROD_ID_TO' : 'ART_ID_TO';
  return view.references.map((r) => {
    let type = r.type;
    if (!types.includes(type)) {
      w.add(`reference type ${type} is not in this format's schema: written as others`, view.subject);
      type = 'others';
    }
    const attrs: Record<string, string> = { type };
    if (r.quantity !== null) attrs.quantity = String(r.quantity);
    return el(element, [textEl(idTo, r.pid), ...detailElements(r, element, view.subject, w)], attrs);
  });
}

/**
 * CATALOG_ID, CATALOG_VERSION and REFERENCE_DESCR in the schemas' order. What a schema cannot
 * hold is left out with a warning: a CATALOG_ID over 20 characters, a CATALOG_VERSION not of
 * the form 1.0, and REFERENCE_DESCR in 1.2 (its ARTICLE_REFERENCE has none); a description
 * over 250 characters is cut there.
 */
function detailElements(
  r: ProductView['references'][number],
  element: 'PRODUCT_REFERENCE' | 'ARTICLE_REFERENCE',
  subject: string,
  w: ExportWarnings,
): string[] {
  const out: string[] = [];
  if (r.targetCatalog) {
    if (r.targetCatalog.length <= 20) out.push(textEl('CATALOG_ID', r.targetCatalog));
    else w.add('reference CATALOG_ID over 20 characters is not in the schema: left out', subject);
  }
  if (r.targetCatalogVersion) {
    if (/^[0-9]{1,3}\.[0-9]{1,3}$/.test(r.targetCatalogVersion))
      out.push(textEl('CATALOG_VERSION', r.targetCatalogVersion));
    else w.add('reference CATALOG_VERSION is not of the form 1.0: left out', subject);
  }
  if (r.descr) {
    if (element === 'PRODUCT_REFERENCE') out.push(textEl('REFERENCE_DESCR', r.descr.slice(0, 250)));
    else w.add('REFERENCE_DESCR is not in BMEcat 1.2 (ARTICLE_REFERENCE): left out', subject);
  }
  return out;
}

/** The reference types of the ETIM guideline's schema (bmecat_etim_50.xsd). */
export const ETIM_REFERENCE_TYPES = REFERENCE_TYPES.filter((t) => t !== 'diff_orderunit');
