import { Hono } from 'hono';
import { INVENTORY_COUNT_HEADER, NDJSON_CONTENT_TYPE, skuSchema } from '../../../src/sync/protocol/wire';
import type { ConnectorEnv } from '../env';
import { ConnectorError } from '../http/connector-error';
import type { ShopStore } from '../store/shop-store';

/** Rows per D1 query while streaming; one page of SKUs and fingerprints is all that sits in memory. */
export const INVENTORY_PAGE = 1000;

/** NDJSON lines of the active managed products after `after`, read page by page with a keyset. */
export function inventoryStream(
  store: ShopStore,
  after: string | null,
  pageSize = INVENTORY_PAGE,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor = after;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const page = await store.inventoryPage(cursor, pageSize);
        if (page.length > 0) {
          controller.enqueue(
            encoder.encode(
              page.map((line) => `${JSON.stringify({ sku: line.sku, fingerprint: line.fingerprint })}\n`).join(''),
            ),
          );
          cursor = page[page.length - 1]!.sku;
        }
        if (page.length < pageSize) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * GET /inventory[?after=<sku>]: one `{sku, fingerprint}` line per active managed product, in
 * UTF-8 byte order of SKU, with the number of lines in X-Inventory-Count.
 */
export const inventoryRoutes = new Hono<ConnectorEnv>().get('/inventory', async (c) => {
  const raw = c.req.query('after');
  const parsed = raw === undefined || raw === '' ? null : skuSchema.safeParse(raw);
  if (parsed && !parsed.success) throw new ConnectorError('bad_request', 'after must be a SKU (1 to 64 characters)');
  const after = parsed ? parsed.data : null;
  const store = c.get('store');
  const count = await store.inventoryCount(after);
  return c.body(inventoryStream(store, after), 200, {
    'Content-Type': NDJSON_CONTENT_TYPE,
    [INVENTORY_COUNT_HEADER]: String(count),
    'Cache-Control': 'no-store',
  });
});
