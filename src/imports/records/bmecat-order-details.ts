import { orderUnit } from '../../catalog/upsert/resolve/order-units';
import type { UpsertRecord } from '../../catalog/upsert/upsert-types';
import { child, type XmlNode } from '../read/xml-node';
import type { FileWarning } from './record-actions';

/** A quantity the file writes as 1 (`1`, `1.0`, `1,00`): BMEcat's default, what "not set" exports as. */
const isOne = (text: string) => Number(text.trim().replace(',', '.')) === 1;

/** Two units that are the same code once a supplier's spelling is mapped (`PCE` and `C62`). */
const sameUnit = (a: string, b: string) => (orderUnit(a)?.code ?? a.trim()) === (orderUnit(b)?.code ?? b.trim());

type OrderFields = Pick<UpsertRecord['fields'], 'contentUnit' | 'contentPerUnit' | 'quantityMin' | 'quantityInterval'>;

/**
 * ORDER_DETAILS beyond ORDER_UNIT and PRICE_QUANTITY as a product's fields (issue 32: a BOX of 6
 * PCE in olivere's 1.2 file, a minimum of 10 in steps of 5 in SAP PSX's). What says only BMEcat's
 * defaults (the XSD's: CONTENT_UNIT = ORDER_UNIT, NO_CU_PER_OU, QUANTITY_MIN and
 * QUANTITY_INTERVAL 1) is "not set", null, as a product without them exports, so a re-import of an
 * export changes nothing and the many files that write the defaults store nothing new. The values
 * pass the fields' rules in the upsert (a bad one is reported `field_invalid` and not stored).
 */
export function orderDetailsOf(order: XmlNode | undefined, unit: string | null): OrderFields {
  const text = (name: string) => (order ? child(order, name)?.text.trim() || null : null);
  const quantity = (name: string) => {
    const value = text(name);
    return value && !isOne(value) ? value : null;
  };
  const content = text('CONTENT_UNIT');
  return {
    contentUnit: content && !(unit && sameUnit(content, unit)) ? content : null,
    contentPerUnit: quantity('NO_CU_PER_OU'),
    quantityMin: quantity('QUANTITY_MIN'),
    quantityInterval: quantity('QUANTITY_INTERVAL'),
  };
}

/** The ORDER_DETAILS elements a product has no field for (BMEcat 2005's; 1.2 has none of them). */
const UNKEPT = ['QUANTITY_MAX', 'PACKING_UNITS', 'SUPPLIER_PIDREF', 'SUPPLIER_IDREF'];

/**
 * The parts of ORDER_DETAILS a product still has no place for, reported where the file gives
 * them: QUANTITY_MAX, PACKING_UNITS and the content unit's SUPPLIER_PIDREF / SUPPLIER_IDREF.
 */
export function orderDetailsWarnings(order: XmlNode | undefined, warnings: FileWarning[]) {
  if (!order) return;
  const lost = UNKEPT.filter((name) => {
    const node = child(order, name);
    return node && (node.text.trim() !== '' || node.children.length > 0);
  });
  if (lost.length === 0) return;
  warnings.push({
    code: 'order_details_not_kept',
    message: `${lost.join(', ')} not kept: a product has an order unit, content unit and count, price quantity, minimum and interval`,
    line: order.line,
    path: order.name,
  });
}
