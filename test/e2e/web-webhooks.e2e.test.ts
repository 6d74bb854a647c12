import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
import { WebhookReceiver } from './webhook-receiver';
import {
  expectAccessible,
  expectAnnounced,
  launchChromium,
  newContext,
  SALES,
  screenshot,
  signIn,
} from './web-browser';

/**
 * The Webhooks admin screen against a real receiver (node:http on 127.0.0.1; the e2e wrangler dev
 * allows private targets through .dev.vars): an admin adds an endpoint, sends a test event and
 * sees it delivered with 200, the receiver verifying each signature with `standardwebhooks`; the
 * receiver then answers 500 to a product change, the log shows the failure, the receiver is
 * fixed, *Redeliver* sends the same message again and the log shows 200 (docs/webhooks.md).
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);
const CATALOG = `E2E Webhook-Katalog ${suffix}`;
const SKU = `WH-${suffix}-1`;

const receiver = new WebhookReceiver();
let browser: Browser;
let page: Page;
let cookie: string;
let catalogId: string;
let productId: string;

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000, interval: 250 });

/** The delivery log's row of the newest delivery of this event type, and the text of its cells. */
function logRow(eventType: string): Locator {
  return page
    .getByRole('table', { name: `Deliveries to ${receiver.url}` })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: eventType, exact: true }) })
    .first();
}
const cells = async (row: Locator) => {
  if ((await row.count()) === 0) return null;
  const [subject, status, attempts, response] = await row.getByRole('cell').allTextContents();
  return { subject, status, attempts, response };
};

beforeAll(async () => {
  await receiver.start();
  browser = await launchChromium();
  cookie = await login('admin@demo.test');
  ({ catalogId } = await api(cookie, 'Catalog/AddCatalog', { departmentId: SALES, name: CATALOG }));
  ({ productId } = await api(cookie, 'Catalog/AddProduct', {
    departmentId: SALES,
    catalogId,
    sku: SKU,
    name: `Verteilerdose ${SKU}`,
  }));
  page = await (await newContext(browser)).newPage();
  await signIn(page, base(), 'admin@demo.test');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await receiver.stop();
  // Other e2e files change the demo company: no endpoint of this test may keep receiving.
  const endpoints = (await api(cookie, 'Webhooks/GetEndpoints')).items;
  for (const e of endpoints.filter((e: { url: string }) => e.url === receiver.url))
    await api(cookie, 'Webhooks/DeleteEndpoint', { endpointId: e.endpointId });
  if (catalogId) await api(cookie, 'Catalog/DeleteCatalog', { departmentId: SALES, catalogId });
});

describe('web application: webhooks (admin@demo.test)', () => {
  it('adds an endpoint, delivers a signed test event, shows a failure and redelivers it', async () => {
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Administration' })
      .click();
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();

    const form = page.getByRole('form', { name: 'Add endpoint' });
    // A URL that is not one is refused by the API with its reason, and nothing is stored.
    await form.getByLabel('Receiver URL').fill('ftp://127.0.0.1/hooks');
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await poll(() => form.getByRole('alert').textContent()).toMatch(/url/i);
    expect(
      (await api(cookie, 'Webhooks/GetEndpoints')).items.some((e: { url: string }) => e.url.startsWith('ftp:')),
    ).toBe(false);

    await form.getByLabel('Receiver URL').fill(receiver.url);
    await form.getByLabel('Description').fill(`E2E receiver ${suffix}`);
    await form.getByLabel('product.updated', { exact: true }).check();
    await form.getByLabel('webhook.test', { exact: true }).check();
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    await expectAnnounced(page, `Endpoint ${receiver.url} added.`);

    // The secret is shown once, as AddEndpoint answered it; the list never carries it.
    const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    receiver.secret = secret;
    const stored = (await api(cookie, 'Webhooks/GetEndpoints')).items.find(
      (e: { url: string }) => e.url === receiver.url,
    );
    expect(stored).toMatchObject({ enabled: true, eventTypes: ['product.updated', 'webhook.test'] });
    expect(JSON.stringify(stored)).not.toContain(secret);
    const row = page
      .getByRole('table', { name: 'Webhook endpoints' })
      .getByRole('row')
      .filter({ hasText: receiver.url });
    expect(await row.textContent()).toContain('product.updated, webhook.test');
    await expectAccessible(page, 'webhooks screen with a new endpoint');
    await page.getByRole('button', { name: 'I have stored it' }).click();

    // Test event: delivered, 200 in the log, signature verified by the receiver.
    await page.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
    await poll(async () => (await cells(logRow('webhook.test')))?.response).toBe('200');
    expect(await cells(logRow('webhook.test'))).toMatchObject({ status: 'Delivered', attempts: '1' });
    const test = receiver.ofType('webhook.test');
    expect(test).toHaveLength(1);
    expect(test[0]).toMatchObject({ verifyError: null, answered: 200, data: { endpointId: stored.endpointId } });

    // The receiver breaks: a product change is answered 500 and the log shows it.
    receiver.status = 500;
    await api(cookie, 'Catalog/UpdateProduct', { departmentId: SALES, catalogId, productId, price: '7.25' });
    await poll(async () => (await cells(logRow('product.updated')))?.response).toBe('500');
    const failed = await cells(logRow('product.updated'));
    expect(failed?.status).toMatch(/^Pending · next attempt/);
    expect(failed?.subject).toContain(`product ${productId}`);
    const first = receiver.ofType('product.updated');
    expect(first[0]).toMatchObject({ verifyError: null, answered: 500, data: { elementId: productId } });
    await expectAccessible(page, 'webhooks delivery log with a failure');
    await screenshot(page, 'webhooks-log-failure');

    // Fixed: Redeliver sends the same message (same webhook-id) again and the log shows 200.
    receiver.status = 200;
    const messageId = first[0]!.id;
    const before = receiver.received.filter((r) => r.id === messageId).length;
    await logRow('product.updated')
      .getByRole('button', { name: /^Redeliver product\.updated of / })
      .click();
    await expectAnnounced(page, 'product.updated is being sent again.');
    await poll(() => receiver.received.filter((r) => r.id === messageId && r.answered === 200).length).toBeGreaterThan(
      0,
    );
    await poll(() => receiver.received.filter((r) => r.id === messageId).length).toBeGreaterThan(before);
    await poll(async () => (await cells(logRow('product.updated')))?.response).toBe('200');
    // Redeliver starts a fresh schedule: one attempt (the automatic retry alone would show two).
    expect(await cells(logRow('product.updated'))).toMatchObject({ status: 'Delivered', attempts: '1' });
    for (const r of receiver.received) expect(r.verifyError).toBeNull();
    await screenshot(page, 'webhooks-log-redelivered');

    // The status filter (GetDeliveries status=): both delivered, none failed.
    const log = page.getByRole('region', { name: `Deliveries to ${receiver.url}` });
    await log.getByLabel('Status').selectOption({ label: 'Failed' });
    await log.getByText('No deliveries with this status.').waitFor();
    await log.getByLabel('Status').selectOption({ label: 'Delivered' });
    await poll(async () => (await cells(logRow('webhook.test')))?.status).toBe('Delivered');
    expect((await cells(logRow('product.updated')))?.status).toBe('Delivered');
    await log.getByLabel('Status').selectOption({ label: 'All' });
  });

  it('rotates the secret (the receiver verifies with the new one), edits, disables and enables the endpoint, and deletes it after confirming', async () => {
    await page.getByRole('button', { name: `Rotate secret of ${receiver.url}` }).click();
    await expectAnnounced(page, /New signing secret/);
    const rotated = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(receiver.secret);
    receiver.secret = rotated;
    const count = receiver.ofType('webhook.test').length;
    await page.getByRole('button', { name: `Send test event to ${receiver.url}` }).click();
    await poll(() => receiver.ofType('webhook.test').length).toBe(count + 1);
    expect(receiver.ofType('webhook.test').at(-1)).toMatchObject({ verifyError: null, answered: 200 });

    // Edit: the events change; disabled, the endpoint takes no test event; enabled again.
    await page.getByRole('button', { name: `Edit endpoint ${receiver.url}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit endpoint' });
    await edit.getByLabel('product.deleted', { exact: true }).check();
    await edit.getByLabel('Description').fill(`E2E receiver ${suffix} (edited)`);
    await expectAccessible(page, 'edit endpoint dialog');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectAnnounced(page, `Endpoint ${receiver.url} saved.`);
    const edited = (await api(cookie, 'Webhooks/GetEndpoints')).items.find(
      (e: { url: string }) => e.url === receiver.url,
    );
    expect(edited).toMatchObject({
      description: `E2E receiver ${suffix} (edited)`,
      eventTypes: ['product.updated', 'webhook.test', 'product.deleted'],
    });
    await page.getByRole('button', { name: `Disable endpoint ${receiver.url}` }).click();
    await expectAnnounced(page, `Endpoint ${receiver.url} disabled.`);
    const row = page
      .getByRole('table', { name: 'Webhook endpoints' })
      .getByRole('row')
      .filter({ hasText: receiver.url });
    await poll(() => row.getByRole('cell').nth(1).textContent()).toBe('Disabled');
    expect(await page.getByRole('button', { name: `Send test event to ${receiver.url}` }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: `Enable endpoint ${receiver.url}` }).click();
    await expectAnnounced(page, `Endpoint ${receiver.url} enabled.`);
    await poll(() => row.getByRole('cell').nth(1).textContent()).toBe('Enabled');

    await page.getByRole('button', { name: `Delete endpoint ${receiver.url}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete endpoint?' });
    expect(await dialog.textContent()).toContain(receiver.url);
    await expectAccessible(page, 'delete endpoint dialog');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectAnnounced(page, `Endpoint ${receiver.url} deleted.`);
    const left = (await api(cookie, 'Webhooks/GetEndpoints')).items;
    expect(left.some((e: { url: string }) => e.url === receiver.url)).toBe(false);
  });
});
