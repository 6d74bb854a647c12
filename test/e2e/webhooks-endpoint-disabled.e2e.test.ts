import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DevServer, startDevServer } from '../../scripts/lib/dev-server';
import { api as harnessApi, login } from './export-harness';
import { launchChromium, newContext, SALES, signIn } from './web-browser';
import { WebhookReceiver } from './webhook-receiver';

/**
 * The whole retry schedule against a receiver that keeps answering 500 (docs/webhooks.md
 * "Delivery"): eight attempts of the same message, then the delivery is failed and the service
 * disables the endpoint with its notice (GetEndpoints and the admin screen, in Chromium); the
 * receiver is fixed, the admin enables the endpoint (the notice goes) and redelivers. The
 * production schedule takes 27.6 hours, so this file runs its own `wrangler dev` with the
 * local-test-only WEBHOOK_RETRY_DIVISOR=3600 (1 s, 1 s, 1 s, 2 s, 5 s, 10 s, 10 s; honoured only
 * with ALLOW_PRIVATE_TARGETS, src/webhooks/deliver.ts `retryDivisorOf`).
 */
const suffix = Date.now().toString(36).slice(-5);

const receiver = new WebhookReceiver();
let pim: DevServer;
let persistTo: string;
let browser: Browser;
let cookie: string;
let catalogId: string;
let productId: string;
let endpointId: string;

/** An API call on this file's own server, as the admin. */
const api = (path: string, body?: unknown) => harnessApi(cookie, path, body, pim.baseUrl);

interface Endpoint {
  endpointId: string;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
}
const endpoint = async () =>
  ((await api('Webhooks/GetEndpoints')).items as Endpoint[]).find((e) => e.endpointId === endpointId)!;

beforeAll(async () => {
  persistTo = mkdtempSync(join(tmpdir(), 'pim-e2e-hooks-disabled-'));
  cpSync(inject('seededState'), persistTo, { recursive: true });
  pim = await startDevServer(persistTo, {
    args: ['--var', 'ALLOW_PRIVATE_TARGETS:true', '--var', 'WEBHOOK_RETRY_DIVISOR:3600'],
  });
  await receiver.start();
  browser = await launchChromium();
  cookie = await login('admin@demo.test', undefined, pim.baseUrl);
  ({ catalogId } = await api('Catalog/AddCatalog', { departmentId: SALES, name: `E2E Hooks-Disabled ${suffix}` }));
  ({ productId } = await api('Catalog/AddProduct', {
    departmentId: SALES,
    catalogId,
    sku: `HX-${suffix}`,
    name: 'Sicherungsautomat',
  }));
  const added = await api('Webhooks/AddEndpoint', {
    url: receiver.url,
    description: `e2e disabled ${suffix}`,
    eventTypes: ['product.updated'],
  });
  endpointId = added.endpointId;
  receiver.secret = added.secret;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await receiver.stop();
  pim?.stop();
  if (persistTo) rmSync(persistTo, { recursive: true, force: true });
});

describe('webhooks: a receiver that keeps failing', () => {
  it('is tried eight times with the same message, then the endpoint is disabled with a notice; enabled and redelivered it arrives', {
    timeout: 180_000,
  }, async () => {
    receiver.status = 500;
    await api('Catalog/UpdateProduct', { departmentId: SALES, catalogId, productId, price: '12.50' });

    await expect.poll(async () => (await endpoint()).enabled, { timeout: 120_000, interval: 500 }).toBe(false);
    const disabled = await endpoint();
    expect(disabled.disabledReason).toMatch(
      /^disabled after a delivery failed 8 times over more than 24 hours \(last: HTTP 500/,
    );
    expect(disabled.disabledAt).toMatch(/^\d{4}-/);
    const [failed] = (await api(`Webhooks/GetDeliveries?endpointId=${endpointId}`)).items;
    expect(failed).toMatchObject({ status: 'failed', attempts: 8, lastStatus: 500 });
    expect(failed.log.map((a: { status: number }) => a.status)).toEqual([500, 500, 500, 500, 500, 500, 500, 500]);
    // the same message every time, each request verified with standardwebhooks
    expect(receiver.received).toHaveLength(8);
    expect(new Set(receiver.received.map((r) => r.id))).toEqual(new Set([failed.messageId]));
    for (const r of receiver.received) expect(r.verifyError).toBeNull();

    // The admin screen shows the service's notice with the reason.
    const page = await (await newContext(browser)).newPage();
    await signIn(page, pim.baseUrl, 'admin@demo.test');
    await page.goto(`${pim.baseUrl}/admin/webhooks`);
    const row = page
      .getByRole('table', { name: 'Webhook endpoints' })
      .getByRole('row')
      .filter({ hasText: receiver.url });
    await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('Disabled by the service on');
    expect(await row.textContent()).toContain('disabled after a delivery failed 8 times');

    // Fixed, enabled (the notice goes), redelivered: the same message arrives and is logged delivered.
    receiver.status = 200;
    await api('Webhooks/UpdateEndpoint', { endpointId, enabled: true });
    expect(await endpoint()).toMatchObject({ enabled: true, disabledReason: null, disabledAt: null });
    await api('Webhooks/Redeliver', { deliveryId: failed.deliveryId });
    await expect.poll(() => receiver.received.filter((r) => r.answered === 200).length, { timeout: 30_000 }).toBe(1);
    expect(receiver.received.at(-1)!.id).toBe(failed.messageId);
    await expect
      .poll(async () => (await api(`Webhooks/GetDeliveries?endpointId=${endpointId}`)).items[0].status, {
        timeout: 15_000,
      })
      .toBe('delivered');
    await expect.poll(() => row.textContent(), { timeout: 45_000 }).not.toContain('Disabled by the service on');
  });
});
