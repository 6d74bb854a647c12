import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startShopifyContract } from '../shops/shopify/contract-server';
import { api, login } from './export-harness';
import { DEMO_KEY, startConnector } from './sync-harness';
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
 * The shop screens (docs/web.md "Shops") against the real connector Worker and the Shopify
 * contract server (test/shops/shopify, Shopify's pinned Admin GraphQL schema over an in-memory
 * shop): an admin adds a connection with a Shopify shop, edits its mapping, tests it (the shop's
 * name, languages, currencies and a warning in plain words), tests settings unsaved (a new
 * connection before its first save, an edited one's mapping),
 * resets the mapping and picks a price type and feature system from the catalog's, sees a dry
 * run's changes per product, and reads the plain reason of a shop that cannot be reached.
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);
const CATALOG = `E2E Shopify-Katalog ${suffix}`;
const CONNECTION = `E2E Shopify ${suffix}`;
const SKUS = [`SH-${suffix}-1`, `SH-${suffix}-2`];
const TOKEN = 'shpat_e2e_token';

let connector: Awaited<ReturnType<typeof startConnector>>;
let shop: Awaited<ReturnType<typeof startShopifyContract>>;
let browser: Browser;
let page: Page;
let cookie: string;
let catalogId: string;

const connectionNamed = async () =>
  (await api(cookie, 'Sync/GetConnections')).items.find((c: { name: string }) => c.name === CONNECTION);

beforeAll(async () => {
  [connector, shop, browser] = await Promise.all([
    startConnector({ allowPrivateTargets: true }),
    startShopifyContract({ token: TOKEN, now: () => Date.now() }),
    launchChromium(),
  ]);
  cookie = await login('admin@demo.test');
  ({ catalogId } = await api(cookie, 'Catalog/AddCatalog', { departmentId: SALES, name: CATALOG }));
  for (const sku of SKUS)
    await api(cookie, 'Catalog/AddProduct', { departmentId: SALES, catalogId, sku, name: `Schalter ${sku}` });
  // A price type and a feature system of the catalog: the mapping editor offers them as choices.
  const [first] = (await api(cookie, `Catalog/GetProducts?catalogId=${catalogId}&limit=1`)).items;
  const productId = first.productId;
  const prices = [{ type: 'net_customer', amount: '9.90', currency: 'EUR' }];
  await api(cookie, 'Catalog/SetPrices', { departmentId: SALES, productId, prices });
  const featureBlocks = [{ system: 'UNSPSC', features: [{ name: 'Farbe', values: ['rot'] }] }];
  await api(cookie, 'Catalog/SetFeatureBlocks', { departmentId: SALES, productId, featureBlocks });
  page = await (await newContext(browser)).newPage();
  await signIn(page, base(), 'admin@demo.test');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  connector?.stop();
  await shop?.close();
  const c = cookie ? await connectionNamed() : null;
  if (c) await api(cookie, 'Sync/DeleteConnection', { departmentId: SALES, connectionId: c.connectionId });
  if (catalogId) await api(cookie, 'Catalog/DeleteCatalog', { departmentId: SALES, catalogId });
});

describe('web application: a connection with a shop (admin@demo.test)', () => {
  it('adds a Shopify shop, edits and resets its mapping, tests it and shows a dry run as changes per product', async () => {
    const dialog = await fillNewConnection(page, {
      name: CONNECTION,
      catalog: CATALOG,
      connectorUrl: connector.server.baseUrl,
      keyId: DEMO_KEY.keyId,
      secret: DEMO_KEY.secret,
    });

    await dialog.getByLabel('Shop system').selectOption('shopify');
    const locale = dialog.getByLabel(/^Locale in the shop for .*deu/);
    // The kind's defaults are prefilled.
    await expect.poll(() => locale.inputValue()).toBe('de');
    expect(await dialog.getByLabel('Currency').inputValue()).toBe('EUR');
    // Without address and token the form says what is missing before anything is sent.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('This shop system needs its address.').waitFor();
    await dialog.getByText('Fill in every field of the sign-in.').waitFor();
    await dialog.getByLabel('Shop address').fill(shop.url);
    await dialog.getByLabel('Access token').fill(TOKEN);
    // A locale the shop does not offer, and deletion instead of disabling.
    await locale.fill('de-CH');
    await dialog.getByLabel('A product taken out of the shop is').selectOption('delete');
    // Tested before it is saved: through the connector, key and secret as typed in the dialog.
    await dialog.getByRole('button', { name: 'Test these shop settings' }).click();
    await dialog
      .getByRole('region', { name: 'What would not arrive as expected' })
      .getByText(/^“deu” goes to the locale “de-CH”, which the shop does not offer/)
      .waitFor({ timeout: 30_000 });
    expect(await connectionNamed()).toBeUndefined();
    await expectAccessible(page, 'new connection dialog with a shop');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });

    let connection = await connectionNamed();
    expect(connection.shop).toMatchObject({
      kind: 'shopify',
      url: shop.url,
      hasCredentials: true,
      mapping: expect.objectContaining({ languages: { deu: 'de-CH', eng: 'en', fra: 'fr' }, onDeactivate: 'delete' }),
    });
    const card = page.getByRole('region', { name: CONNECTION });
    await card.getByText(`Shop: Shopify · ${shop.url}`).waitFor();

    // The test: the shop's name, languages and currencies, and the lost language in plain words.
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByText(/^Shop “.+”: languages .+; currencies .+\.$/).waitFor({ timeout: 30_000 });
    const warnings = card.getByRole('region', { name: 'What would not arrive as expected' });
    await warnings.getByText(/^“deu” goes to the locale “de-CH”, which the shop does not offer/).waitFor();
    await expectAccessible(page, 'shop test with warnings');

    // Edit: reset the mapping to the kind's defaults; the token left empty stays stored.
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: `Edit connection “${CONNECTION}”` });
    expect(await edit.getByLabel(/^Locale in the shop for .*deu/).inputValue()).toBe('de-CH');
    await edit.getByText('Sign-in data is stored: leave the fields empty to keep it.').waitFor();
    // The settings as edited are tested without saving them: another locale the shop lacks.
    await edit.getByLabel(/^Locale in the shop for .*deu/).fill('de-AT');
    await edit.getByRole('button', { name: 'Test these shop settings' }).click();
    const unsaved = edit.getByRole('region', { name: 'What would not arrive as expected' });
    await unsaved.getByText(/^“deu” goes to the locale “de-AT”, which the shop does not offer/).waitFor({
      timeout: 30_000,
    });
    await expectAccessible(page, 'test of unsaved shop settings');
    expect((await connectionNamed()).shop.mapping.languages.deu).toBe('de-CH');
    await edit.getByRole('button', { name: 'Reset mapping to defaults' }).click();
    await expectAnnounced(page, 'The mapping is back to the defaults of Shopify.');
    expect(await edit.getByLabel(/^Locale in the shop for .*deu/).inputValue()).toBe('de');
    // Pick lists: the catalog's price type, and its feature system ticked from the keyboard.
    await edit.getByLabel('Price type sent as the shop’s price').selectOption('net_customer');
    const systems = edit.getByRole('group', { name: 'Feature systems in this catalog' });
    await systems.getByRole('checkbox', { name: 'UNSPSC' }).focus();
    await page.keyboard.press('Space');
    expect(await edit.getByLabel('Feature-block systems').inputValue()).toBe('UNSPSC');
    await expectAccessible(page, 'mapping pick lists');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden' });
    connection = await connectionNamed();
    expect(connection.shop).toMatchObject({
      hasCredentials: true,
      mapping: expect.objectContaining({
        languages: { deu: 'de', eng: 'en', fra: 'fr' },
        onDeactivate: 'disable',
        priceType: 'net_customer',
        features: expect.objectContaining({ featureBlocks: ['UNSPSC'] }),
      }),
    });
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByText(/^Shop “.+”: languages/).waitFor({ timeout: 30_000 });
    expect(await card.getByText(/goes to the locale/).count()).toBe(0);

    // The dry run: per product its SKU, "new" and the fields it would set; nothing reaches the shop.
    await card.getByRole('button', { name: 'Dry run' }).click();
    await expectAnnounced(page, 'Dry run started.');
    const run = card.locator('.job-card').first();
    await run.getByText('Done').waitFor({ timeout: 60_000 });
    await run.getByRole('button', { name: 'Report' }).click();
    await run.getByText('Changes in the shop (2)').waitFor();
    for (const sku of SKUS) {
      const row = run.getByRole('row', { name: new RegExp(sku) });
      await row.getByText('new', { exact: true }).waitFor();
      expect(await row.textContent()).toContain('Name');
    }
    await expectAccessible(page, 'dry run changes');
    const runs = (await api(cookie, `Sync/GetRuns?connectionId=${connection.connectionId}&limit=1`)).items;
    expect(runs[0].report).toMatchObject({ changesCount: 2 });
    expect(runs[0].report.changes.map((c: { sku: string }) => c.sku).sort()).toEqual(SKUS);
  });

  it('says in plain words why a shop that cannot be reached refused the test', async () => {
    const connection = await connectionNamed();
    await api(cookie, 'Sync/UpdateConnection', {
      departmentId: SALES,
      connectionId: connection.connectionId,
      catalogId,
      name: CONNECTION,
      connectorUrl: connection.connectorUrl,
      keyId: connection.keyId,
      options: connection.options,
      shop: { kind: 'shopify', url: 'http://127.0.0.1:9', mapping: {} },
    });
    await page.reload();
    const card = page.getByRole('region', { name: CONNECTION });
    await card.getByRole('button', { name: 'Test connection' }).click();
    await card.getByText(/^The shop refused: .+/).waitFor({ timeout: 30_000 });
    await expectAccessible(page, 'shop test refused');
  });
});
