import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DevServer, startDevServer } from '../../scripts/lib/dev-server';
import { api as harnessApi, login } from './export-harness';
import { SALES } from './web-browser';
import { WebhookReceiver, changesArrived, changesSince } from './webhook-receiver';

/**
 * A receiver down longer than the first retry (issue 34, docs/webhooks.md "Delivery"): the
 * receiver is stopped, product updates go in, their deliveries fail, the first retry fails too
 * and the next one is scheduled; then the receiver comes back and every change arrives, each
 * request verified with `standardwebhooks`, each product's changes in commit order.
 *
 * The production schedule waits 5 minutes after the first retry, so this file runs its own
 * `wrangler dev` (over a copy of the seeded demo state) with the local-test-only var
 * WEBHOOK_RETRY_DIVISOR=60 (5 s, 5 min, 30 min, ... become 1 s, 5 s, 30 s; honoured only together
 * with ALLOW_PRIVATE_TARGETS, src/webhooks/deliver.ts `retryDivisorOf`). The shared e2e server
 * keeps the production schedule (web-webhooks relies on it).
 */
const suffix = Date.now().toString(36).slice(-5);
const PRODUCTS = 3;
const UPDATES = 9;

const receiver = new WebhookReceiver();
let pim: DevServer;
let persistTo: string;
let cookie: string;
let catalogId: string;
let endpointId: string;
const productIds: string[] = [];

/** An API call on this file's own server, as the admin. */
const api = (path: string, body?: unknown) => harnessApi(cookie, path, body, pim.baseUrl);

/** A product's versions, oldest first (GetHistory answers newest first). */
async function versionsOf(productId: string): Promise<string[]> {
  const page = await api(`Catalog/GetHistory?elementId=${productId}&limit=100`);
  return (page.items as { versionId: string }[]).map((v) => v.versionId).reverse();
}

interface Delivery {
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  log: { status: number | null; error: string | null }[];
}
async function deliveries(): Promise<Delivery[]> {
  return (await api(`Webhooks/GetDeliveries?endpointId=${endpointId}&limit=100`)).items;
}

beforeAll(async () => {
  persistTo = mkdtempSync(join(tmpdir(), 'pim-e2e-hooks-down-'));
  cpSync(inject('seededState'), persistTo, { recursive: true });
  pim = await startDevServer(persistTo, {
    args: ['--var', 'ALLOW_PRIVATE_TARGETS:true', '--var', 'WEBHOOK_RETRY_DIVISOR:60'],
  });
  await receiver.start();
  cookie = await login('admin@demo.test', undefined, pim.baseUrl);
  ({ catalogId } = await api('Catalog/AddCatalog', { departmentId: SALES, name: `E2E Hooks-Down ${suffix}` }));
  for (let i = 0; i < PRODUCTS; i++) {
    const { productId } = await api('Catalog/AddProduct', {
      departmentId: SALES,
      catalogId,
      sku: `HD-${suffix}-${i}`,
      name: `Klemme ${i}`,
    });
    productIds.push(productId);
  }
  const endpoint = await api('Webhooks/AddEndpoint', {
    url: receiver.url,
    description: `e2e receiver down ${suffix}`,
    eventTypes: ['product.updated'],
  });
  endpointId = endpoint.endpointId;
  receiver.secret = endpoint.secret;
}, 180_000);

afterAll(async () => {
  await receiver.stop();
  pim?.stop();
  if (persistTo) rmSync(persistTo, { recursive: true, force: true });
});

describe('webhooks: a receiver down longer than the first retry', () => {
  it('gets every change once it is back, verified, in order per product', { timeout: 120_000 }, async () => {
    const before = new Map<string, string[]>();
    for (const id of productIds) before.set(id, await versionsOf(id));

    await receiver.stop();
    for (let n = 0; n < UPDATES; n++)
      await api('Catalog/UpdateProduct', {
        departmentId: SALES,
        catalogId,
        productId: productIds[n % PRODUCTS],
        price: `${n + 1}.00`,
      });

    // Down past the first retry: a delivery has failed twice (its first attempt and the first
    // retry) and waits for the next retry, scheduled in the future.
    await expect
      .poll(
        async () =>
          (await deliveries()).some(
            (d) => d.status === 'pending' && d.attempts >= 2 && Date.parse(d.nextAttemptAt!) > Date.now(),
          ),
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true);
    const whileDown = await deliveries();
    expect(whileDown.every((d) => d.status === 'pending')).toBe(true);
    for (const d of whileDown)
      for (const a of d.log) expect(a).toMatchObject({ status: null, error: 'connection failed' });
    expect(receiver.received).toHaveLength(0);

    await receiver.start();

    const expected = await changesSince(productIds, before, versionsOf);
    expect([...expected.values()].flat()).toHaveLength(UPDATES);

    const arrived = () => changesArrived(receiver, productIds);
    await expect.poll(() => [...arrived().values()].flat().length, { timeout: 60_000, interval: 250 }).toBe(UPDATES);
    for (const id of productIds)
      expect({ product: id, changes: arrived().get(id) }).toEqual({ product: id, changes: expected.get(id) });
    for (const r of receiver.received) {
      expect(r.verifyError).toBeNull();
      expect(r.type).toBe('product.updated');
    }

    // The log: every delivery ends delivered; the ones tried while the receiver was down failed
    // at least twice (the first attempt and the first retry) before the 200.
    await expect
      .poll(async () => (await deliveries()).every((d) => d.status === 'delivered'), { timeout: 30_000, interval: 250 })
      .toBe(true);
    const retried = (await deliveries()).filter((d) => d.attempts > 1);
    expect(retried.some((d) => d.attempts >= 3)).toBe(true);
    for (const d of retried) {
      expect(d.log.slice(0, -1).every((a) => a.error === 'connection failed')).toBe(true);
      expect(d.log.at(-1)).toMatchObject({ status: 200, error: null });
    }
  });
});
