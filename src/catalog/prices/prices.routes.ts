import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../env';
import { validate } from '../../http/validate';
import { describeOperation } from '../../openapi/describe-operation';
import { PriceOutSchema } from '../../model/price-list';
import { getPrices, SetPricesDto, setPrices } from './prices';

const PricesOut = z.object({
  productId: z.string(),
  /** The default net price (the product's `price`): the amount of the list's first price not on request. */
  price: z.string().nullable(),
  prices: z.array(PriceOutSchema),
});

/** `/api/Catalog/GetPrices` and `/api/Catalog/SetPrices`: a product's price list (docs/rest-api.md "Prices"). */
export const priceRoutes = new Hono<AppEnv>()
  .get(
    '/GetPrices',
    describeOperation({
      tag: 'Catalog',
      summary: "A product's or variant's price list",
      response: PricesOut,
      security: 'cookie',
    }),
    validate('query', z.strictObject({ productId: z.uuid() })),
    async (c) => c.json(await getPrices(c.var.db, c.var.caller, c.req.valid('query').productId)),
  )
  .post(
    '/SetPrices',
    describeOperation({
      tag: 'Catalog',
      summary:
        "Replace a product's or variant's whole price list; the first price not on request becomes its price. An empty list needs clear: true. A price's optional base (BMEcat's PRICE_BASE) says its amount is for value x unit (e.g. 100 MTR), not per order unit",
      response: PricesOut,
      security: 'cookie',
    }),
    validate('json', SetPricesDto),
    async (c) => c.json(await setPrices(c.var.db, c.var.caller, c.req.valid('json'))),
  );
