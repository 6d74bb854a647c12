import { z } from 'zod';
import { PriceDto, PriceOutSchema } from '../../model/price-list';
import { MAX_PRICES, setPrices } from '../../catalog/prices/prices';
import { defineTool, OVERWRITE } from '../tool-definition';

/** Tools over a product's price list (get_product shows it). */
export const priceTools = [
  defineTool({
    name: 'set_prices',
    title: "Replace a product's price list",
    description:
      'Replaces the WHOLE price list of a product or variant (get_product shows the current one under `prices`). Each price: ' +
      '`type` (net_list, gros_list, net_customer, nrp, net_customer_exp, on_request or udp_*), `amount` (decimal such as "12.50" or "21.15701", kept as written, negative for a credit; omit it only on a price on request or by formula), ' +
      'optional `currency` (ISO 4217, e.g. EUR), `tax` as a fraction (0.19 for 19 %), `factor`, `lowerBound` (quantity tier, > 0), ' +
      '`territory` (ISO 3166 codes), `validFrom` / `validTo` (dates), `daily`, and optional `base` when the amount is not per ' +
      'order unit: `{ value: "100", unit: "MTR", factor }` means "per 100 metres" (unit a UN/ECE Rec. 20 code; value and ' +
      'factor decimals > 0, absent = 1), optional `flags` (BMEcat PRICE_FLAG, e.g. `{ "incl_freight": true }`) and `formula` ' +
      '(BMEcat 2005 PRICE_FORMULA in place of the amount: `{ id, parameters: [{ symbol, value }] }`). ' +
      'The first price neither on request, nor a credit, nor by formula becomes the ' +
      "product's price. An empty list removes every price and is refused unless `clear` is true. Recorded in the history.",
    input: z.strictObject({
      productId: z.uuid().describe('A product or variant id (see search_products).'),
      prices: z.array(PriceDto).max(MAX_PRICES).describe('The complete new list, in order (tiers by lowerBound).'),
      clear: z.boolean().optional().describe('Must be true to send an empty list (removes every price).'),
      departmentId: z.uuid().optional().describe("The product's department; default: yours."),
    }),
    output: z.object({ productId: z.string(), price: z.string().nullable(), prices: z.array(PriceOutSchema) }),
    annotations: OVERWRITE,
    run: ({ db, caller }, input) =>
      setPrices(db, caller, { ...input, departmentId: input.departmentId ?? caller.departmentId }),
  }),
];
