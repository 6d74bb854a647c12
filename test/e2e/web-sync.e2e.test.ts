import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
import { DEMO_KEY, inventoryOf, startConnector } from './sync-harness';
import {
  expectAccessible,
  expectAnnounced,
  fillNewConnection,
  launchChromium,
  newContext,
  SALES,
  signIn,
} from './web-browser';

/**
 * The sync screens against the real demo connector Worker (started here on a free port, with
 * its demo shop): an admin adds a connection, tests it, looks at a dry run's plan, syncs, and
 * reads the run's report with the quarantined SKU, all in the browser; the PIM's API and the
 * shop's inventory confirm what happened.
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);
const CATALOG = `E2E Shop-Katalog ${suffix}`;
const CONNECTION = `E2E Webshop ${suffix}`;
const SKUS = [`SY-${suffix}-1`, `SY-${suffix}-2`, `SY-${suffix}-3`];
const BAD_UNIT = `SY-${suffix}-9`;

let connector: Awaited<ReturnType<typeof startConnector>>;
let browser: Browser;
let page: Page;
let cookie: string;
let catalogId: string;

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 30_000 });

beforeAll(async () => {
  [connector, browser] = await Promise.all([startConnector(), launchChromium()]);
  cookie = await login('admin@demo.test');
  ({ catalogId } = await api(cookie, 'Catalog/AddCatalog', { departmentId: SALES, name: CATALOG }));
  for (const sku of [...SKUS, BAD_UNIT]) {
    await api(cookie, 'Catalog/AddProduct', {
      departmentId: SALES,
      catalogId,
      sku,
      name: `Steckdose ${sku}`,
      // A unit the shop has no mapping for: quarantined, reported, not sent.
      unit: sku === BAD_UNIT ? 'XYZ' : 'C62',
      price: '4.90',
    });
  }
  page = await (await newContext(browser)).newPage();
  await signIn(page, base(), 'admin@demo.test');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  connector?.stop();
  // Other e2e files export every catalog and sync the demo connection: leave the company as seeded.
  const connections = (await api(cookie, 'Sync/GetConnections')).items;
  for (const c of connections.filter((c: { name: string }) => c.name === CONNECTION))
    await api(cookie, 'Sync/DeleteConnection', { departmentId: SALES, connectionId: c.connectionId });
  if (catalogId) await api(cookie, 'Catalog/DeleteCatalog', { departmentId: SALES, catalogId });
});

describe('web application: sync with a shop (admin@demo.test)', () => {
  it('adds and tests a connection, shows a dry run plan, syncs and shows the report with the quarantined SKU', async () => {
    // The shop has products of its own: leave them as they are.
    const dialog = await fillNewConnection(page, {
      name: CONNECTION,
      catalog: CATALOG,
      connectorUrl: connector.server.baseUrl,
      keyId: DEMO_KEY.keyId,
      secret: DEMO_KEY.secret,
    });
    await expectAccessible(page, 'new connection dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const card = page.getByRole('region', { name: CONNECTION });
    await card.waitFor();
    const connection = (await api(cookie, 'Sync/GetConnections')).items.find(
      (c: { name: string }) => c.name === CONNECTION,
    );
    expect(connection).toMatchObject({
      connectorUrl: connector.server.baseUrl,
      keyId: DEMO_KEY.keyId,
      hasSecret: true,
      options: expect.objectContaining({ missing: 'ignore' }),
    });

    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByText(/^Connection fine: \d+ manufacturers, \d+ units, \d+ tax rates\.$/).waitFor();

    // Dry run: a plan, nothing sent.
    await card.getByRole('button', { name: 'Dry run' }).click();
    await expectAnnounced(page, 'Dry run started.');
    await card.getByRole('button', { name: 'Report' }).first().waitFor({ timeout: 60_000 });
    await card.getByRole('button', { name: 'Report' }).first().click();
    await card.getByText('Would create (3)').waitFor();
    for (const sku of SKUS) expect(await card.locator('.sku-list').first().textContent()).toContain(sku);
    expect((await inventoryOf(connector.server.baseUrl)).some((r) => r.sku.startsWith(`SY-${suffix}`))).toBe(false);
    await expectAccessible(page, 'sync dry run report');

    // The real run: three products created in the shop, the one with an unmapped unit quarantined.
    await card.getByRole('button', { name: 'Sync now' }).click();
    await expectAnnounced(page, 'Sync started.');
    await poll(() => card.locator('.job-card').count()).toBe(2);
    const run = card.locator('.job-card').first();
    await run.getByText('Done').waitFor({ timeout: 60_000 });
    await run.getByRole('button', { name: 'Report' }).click();
    await run.getByText('1 SKUs in quarantine').waitFor();
    await run.getByRole('cell', { name: BAD_UNIT }).waitFor();
    await run.getByText('The shop has no unit “XYZ”: map it in the shop or change it in the PIM.').waitFor();
    const created = run.locator('dt', { hasText: 'Created' }).locator('xpath=following-sibling::dd[1]');
    expect(await created.textContent()).toBe('3');
    await expectAccessible(page, 'sync run report');

    const runs = (await api(cookie, `Sync/GetRuns?connectionId=${connection.connectionId}&limit=10`)).items;
    expect(runs[0]).toMatchObject({
      state: 'succeeded',
      dryRun: false,
      report: expect.objectContaining({ created: 3, quarantinedCount: 1 }),
    });
    expect(runs[1]).toMatchObject({ state: 'succeeded', dryRun: true });
    const shop = (await inventoryOf(connector.server.baseUrl)).map((r) => r.sku).filter((s) => s.includes(suffix));
    expect(shop.sort()).toEqual(SKUS);
  });
});
