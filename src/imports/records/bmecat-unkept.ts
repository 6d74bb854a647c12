import type { XmlNode } from '../read/xml-node';
import type { FileWarning } from './record-actions';

/** The PRODUCT_DETAILS / ARTICLE_DETAILS a product stores (docs/import.md "What is read from BMEcat"). */
const DETAILS_READ: ReadonlySet<string> = new Set([
  'DESCRIPTION_SHORT',
  'DESCRIPTION_LONG',
  'INTERNATIONAL_PID',
  'EAN',
  'MANUFACTURER_PID',
  'MANUFACTURER_AID',
  'MANUFACTURER_NAME',
  'DELIVERY_TIME',
  'KEYWORD',
  // Mapped to active / draft / discontinued by a documented rule.
  'PRODUCT_STATUS',
  'ARTICLE_STATUS',
]);

/**
 * The PRODUCT_DETAILS / ARTICLE_DETAILS with a text a product has no field for (REMARKS,
 * MANUFACTURER_TYPE_DESCR, SPECIAL_TREATMENT_CLASS, PRODUCT_TYPE, BUYER_PID …), named in one
 * warning per product with how often each came (issue 32: the ETIM guideline's sample has
 * REMARKS in two languages, Weidmüller's a MANUFACTURER_TYPE_DESCR; they were dropped
 * unreported). An empty element (`<BUYER_AID type="BUYER"/>`) says nothing and is not named.
 */
export function detailsWarnings(details: XmlNode | undefined, warnings: FileWarning[]) {
  if (!details) return;
  const unread = new Map<string, number>();
  for (const c of details.children)
    if (!DETAILS_READ.has(c.name) && (c.text.trim() !== '' || c.children.length > 0))
      unread.set(c.name, (unread.get(c.name) ?? 0) + 1);
  if (unread.size === 0) return;
  const named = [...unread].map(([name, n]) => (n > 1 ? `${name} (${n})` : name));
  warnings.push({
    code: 'details_not_kept',
    message: `${named.join(', ')} not kept: a product has no field for ${unread.size > 1 ? 'them' : 'it'}`,
    line: details.line,
    path: details.name,
  });
}
