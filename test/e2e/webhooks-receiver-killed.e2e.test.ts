import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login } from './export-harness';
import { WebhookReceiver, changesArrived, changesSince } from './webhook-receiver';
import { SALES } from './web-browser';

/**
 * At least once, in order per product, through a receiver that dies mid-burst (issue 34,
 * docs/webhooks.md "Delivery"): an endpoint subscribes to product updates, 30 updates of 5
 * products go in through REST as the demo admin, the receiver's server is closed (its open
 * connections cut) after the first few deliveries and started again on the same port 3 s later.
 * Deliveries that failed meanwhile come back with the first retry (5 s after a failure, longer
 * than the outage, so no shortened schedule is needed), the others wait behind them per product.
 * Every change must arrive, each request verified with `standardwebhooks`, and each product's
 * changes in commit order (first arrival of each change; a retried request may arrive twice).
 */
const suffix = Date.now().toString(36).slice(-5);
const PRODUCTS = 5;
const UPDATES = 30;
/** The first retry comes 5 s after a failure (RETRY_SCHEDULE_SECONDS[0]): the outage stays shorter. */
const OUTAGE_MS = 3000;

const receiver = new WebhookReceiver();
let cookie: string;
let catalogId: string;
let endpointId: string;
const productIds: string[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A product's versions, oldest first (GetHistory answers newest first). */
async function versionsOf(productId: string): Promise<string[]> {
  const page = await api(cookie, `Catalog/GetHistory?elementId=${productId}&limit=100`);
  return (page.items as { versionId: string }[]).map((v) => v.versionId).reverse();
}

beforeAll(async () => {
  await receiver.start();
  cookie = await login('admin@demo.test');
  ({ catalogId } = await api(cookie, 'Catalog/AddCatalog', { departmentId: SALES, name: `E2E Hooks-Burst ${suffix}` }));
  for (let i = 0; i < PRODUCTS; i++) {
    const { productId } = await api(cookie, 'Catalog/AddProduct', {
      departmentId: SALES,
      catalogId,
      sku: `HB-${suffix}-${i}`,
      name: `Abzweigdose ${i}`,
    });
    productIds.push(productId);
  }
  const endpoint = await api(cookie, 'Webhooks/AddEndpoint', {
    url: receiver.url,
    description: `e2e burst ${suffix}`,
    eventTypes: ['product.updated'],
  });
  endpointId = endpoint.endpointId;
  receiver.secret = endpoint.secret;
}, 120_000);

afterAll(async () => {
  await receiver.stop();
  if (endpointId) await api(cookie, 'Webhooks/DeleteEndpoint', { endpointId });
  if (catalogId) await api(cookie, 'Catalog/DeleteCatalog', { departmentId: SALES, catalogId });
});

describe('webhooks: a receiver killed mid-burst and restarted', () => {
  it('gets every change at least once, verified, in order per product', async () => {
    const before = new Map<string, string[]>();
    for (const id of productIds) before.set(id, await versionsOf(id));

    // The burst, paced so that it is still running when the receiver dies.
    const burst = (async () => {
      for (let n = 0; n < UPDATES; n++) {
        await api(cookie, 'Catalog/UpdateProduct', {
          departmentId: SALES,
          catalogId,
          productId: productIds[n % PRODUCTS],
          price: `${n + 1}.00`,
        });
        await sleep(100);
      }
    })();

    await expect.poll(() => receiver.received.length, { timeout: 20_000, interval: 20 }).toBeGreaterThanOrEqual(3);
    await receiver.stop();
    const killedAfter = receiver.received.length;
    await sleep(OUTAGE_MS);
    await receiver.start();
    await burst;

    const expected = await changesSince(productIds, before, versionsOf);
    expect([...expected.values()].flat()).toHaveLength(UPDATES);

    const arrived = () => changesArrived(receiver, productIds);
    await expect.poll(() => [...arrived().values()].flat().length, { timeout: 40_000, interval: 250 }).toBe(UPDATES);

    for (const id of productIds)
      expect({ product: id, changes: arrived().get(id) }).toEqual({ product: id, changes: expected.get(id) });
    for (const r of receiver.received) {
      expect(r.verifyError).toBeNull();
      expect(r.type).toBe('product.updated');
    }
    // The outage really failed deliveries, and the log shows them retried to success.
    const log = await api(cookie, `Webhooks/GetDeliveries?endpointId=${endpointId}&limit=100`);
    const retried = (
      log.items as { attempts: number; status: string; log: { status: number | null; error: string | null }[] }[]
    ).filter((d) => d.attempts > 1);
    expect(retried.length).toBeGreaterThan(0);
    for (const d of retried) {
      expect(d.status).toBe('delivered');
      expect(d.log[0]!.error).toBe('connection failed');
      expect(d.log.at(-1)).toMatchObject({ status: 200, error: null });
    }
    expect(receiver.received.length).toBeGreaterThan(killedAfter);
  });
});
