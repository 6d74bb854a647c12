import type { Product, Variant } from '../../../../src/sync/protocol/wire';

/**
 * The order details of a node as every adapter reads them (docs/shops.md "Order details";
 * docs/data-model.md "Order details"): the content unit (a UN/ECE Rec. 20 code), content units
 * per order unit, the minimum order quantity and the step above it, decimals as the PIM keeps
 * them. A variant without its own value has its master's (as the exports write it); none at all
 * means BMEcat's default (content unit = order unit, the rest 1), which an adapter writes as the
 * shop's own default (nothing, or a cleared field).
 */
export const ORDER_DETAIL_FIELDS = ['contentUnit', 'contentPerUnit', 'quantityMin', 'quantityInterval'] as const;
export type OrderDetailField = (typeof ORDER_DETAIL_FIELDS)[number];

/** One order detail in effect: its value and the record field it comes from (`product.variants.2.quantityMin`). */
export interface OrderDetail {
  value: string;
  field: string;
}

export type OrderDetails = Partial<Record<OrderDetailField, OrderDetail>>;

/**
 * The order details in effect for `node` (the master itself, or one of its variants), each with
 * the field it is read from: the node's own (`<field>.<name>`), else the master's
 * (`product.<name>`). `field` is the node's record field (`product`, `product.variants.2`).
 */
export function orderDetailsOf(node: Product | Variant, master: Product, field: string): OrderDetails {
  const out: OrderDetails = {};
  for (const name of ORDER_DETAIL_FIELDS) {
    const own = node[name];
    const inherited = node === master ? undefined : master[name];
    if (own !== undefined) out[name] = { value: own, field: `${field}.${name}` };
    else if (inherited !== undefined) out[name] = { value: inherited, field: `product.${name}` };
  }
  return out;
}

/** An order detail a shop field cannot take, with the record field and the reason: reported, never rounded or dropped. */
export class OrderDetailRefused extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A decimal as the whole number it is (`10`, `10.000`), for a shop field that keeps integers
 * (Shopware's minPurchase and purchaseSteps); a fraction (`2.5`) throws `OrderDetailRefused`
 * naming the field and the shop's field, so the record fails with the reason instead of the
 * shop receiving a rounded quantity a customer could not order.
 */
export function wholeQuantity(detail: OrderDetail, shopField: string): number {
  const [whole = '0', fraction = ''] = detail.value.split('.');
  if (/[1-9]/.test(fraction))
    throw new OrderDetailRefused(
      detail.field,
      `the shop keeps ${shopField} as a whole number: ${detail.value} is not sent rounded (write a whole number, or order in a smaller unit)`,
    );
  const n = Number(whole);
  if (!Number.isSafeInteger(n))
    throw new OrderDetailRefused(detail.field, `${detail.value} is too large for ${shopField}`);
  return n;
}
