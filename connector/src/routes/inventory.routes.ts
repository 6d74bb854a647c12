import { Hono } from 'hono';
import {
  INVENTORY_COUNT_HEADER,
  type InventoryLine,
  NDJSON_CONTENT_TYPE,
  skuSchema,
} from '../../../src/sync/protocol/wire';
import type { ConnectorEnv } from '../env';
import { ConnectorError } from '../http/connector-error';
import type { ShopStore } from '../store/shop-store';

/** Rows per D1 query while streaming; two pages of SKUs and fingerprints are all that sit in memory. */
const INVENTORY_PAGE = 2000;

/**
 * NDJSON lines of the active managed products after `after`, read page by page with a keyset.
 * The next page is queried while the current one is on its way (one page ahead), so the PIM's
 * merge-join does not wait for a D1 round trip at every page boundary.
 */
export function inventoryStream(
  store: Pick<ShopStore, 'inventoryPage'>,
  after: string | null,
  pageSize = INVENTORY_PAGE,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let ahead: Promise<InventoryLine[]> | null = store.inventoryPage(after, pageSize);
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const page = await ahead!;
        const full = page.length === pageSize;
        ahead = full ? store.inventoryPage(page[page.length - 1]!.sku, pageSize) : null;
        // Awaited by the next pull; a failure then errors the stream (the PIM sees it end early).
        ahead?.catch(() => undefined);
        if (page.length > 0) {
          controller.enqueue(
            encoder.encode(
              page.map((line) => `${JSON.stringify({ sku: line.sku, fingerprint: line.fingerprint })}\n`).join(''),
            ),
          );
        }
        if (!full) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * GET /inventory[?after=<sku>]: one `{sku, fingerprint}` line per active managed product, in
 * UTF-8 byte order of SKU, with the number of lines in X-Inventory-Count. A key with a real
 * shop answers from its mirror: what the shop took, not what the PIM sent.
 */
export const inventoryRoutes = new Hono<ConnectorEnv>().get('/inventory', async (c) => {
  const raw = c.req.query('after');
  const parsed = raw === undefined || raw === '' ? null : skuSchema.safeParse(raw);
  if (parsed && !parsed.success) throw new ConnectorError('bad_request', 'after must be a SKU (1 to 64 characters)');
  const after = parsed ? parsed.data : null;
  const store = (await c.get('remote')())?.mirror ?? c.get('store');
  const count = await store.inventoryCount(after);
  return c.body(inventoryStream(store, after), 200, {
    'Content-Type': NDJSON_CONTENT_TYPE,
    [INVENTORY_COUNT_HEADER]: String(count),
    'Cache-Control': 'no-store',
  });
});
