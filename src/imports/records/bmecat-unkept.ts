import { orderUnit } from '../../catalog/upsert/resolve/order-units';
import { child, type XmlNode } from '../read/xml-node';
import type { FileWarning } from './record-actions';

/** A quantity the file writes as 1 (`1`, `1.0`, `1,00`): what the product model assumes. */
const isOne = (text: string) => Number(text.trim().replace(',', '.')) === 1;

/** Two units that are the same code once a supplier's spelling is mapped (`PCE` and `C62`). */
const sameUnit = (a: string, b: string) => (orderUnit(a)?.code ?? a.trim()) === (orderUnit(b)?.code ?? b.trim());

/**
 * The parts of ORDER_DETAILS a product has no place for, reported where they say something:
 * a CONTENT_UNIT other than the ORDER_UNIT, NO_CU_PER_OU, QUANTITY_MIN or QUANTITY_INTERVAL
 * other than 1 (a box of 6 pieces, order at least 10 in steps of 5). The product keeps its
 * ORDER_UNIT and PRICE_QUANTITY; the exports write CONTENT_UNIT = ORDER_UNIT and
 * NO_CU_PER_OU 1, so a file that says only that reads without a warning (issue 32: found in
 * olivere's 1.2 file, BOX of 6 PCE, and SAP PSX's, minimum 10 in steps of 5, dropped unreported).
 */
export function orderDetailsWarnings(order: XmlNode | undefined, unit: string | null, warnings: FileWarning[]) {
  if (!order) return;
  const lost: string[] = [];
  const text = (name: string) => child(order, name)?.text.trim() || null;
  const content = text('CONTENT_UNIT');
  if (content && !(unit && sameUnit(content, unit))) lost.push(`CONTENT_UNIT ${content}`);
  for (const name of ['NO_CU_PER_OU', 'QUANTITY_MIN', 'QUANTITY_INTERVAL']) {
    const value = text(name);
    if (value && !isOne(value)) lost.push(`${name} ${value}`);
  }
  if (lost.length === 0) return;
  warnings.push({
    code: 'order_details_not_kept',
    message: `${lost.join(', ')} not kept: a product has one order unit and price quantity (the exports write CONTENT_UNIT = ORDER_UNIT, NO_CU_PER_OU 1)`,
    line: order.line,
    path: order.name,
  });
}

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
