import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, expectValid, login } from './export-harness';
import { expectAccessible, expectAnnounced, launchChromium, newContext, screenshot, signIn } from './web-browser';

/**
 * A product manager's day in the web application, through the UI only (headless Chromium
 * against wrangler dev with the demo seed): every action is a click or a keystroke; the API is
 * read only to check what the UI did. axe-core checks each screen on the way.
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);
const CATALOG = `E2E Katalog ${suffix}`;
const CATEGORY = 'Leitungsschutzschalter';
const SKU = `E2E-MCB-${suffix}`;
const VARIANT_SKU = `${SKU}-B16`;
// A 1x1 PNG: what a user drops as the product picture.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let browser: Browser;
const state: { catalogId?: string; productId?: string } = {};

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function openCatalogProducts(page: Page) {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Catalogs' }).click();
  await page.getByRole('link', { name: CATALOG, exact: true }).click();
  await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
}

describe('web application (editor@demo.test)', () => {
  it('signs in, creates a catalog, a category, a product with a variant, values, a classification and a picture', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${base()}/`);
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    await expectAccessible(page, 'sign-in');
    await screenshot(page, '01-sign-in');
    await signIn(page, base(), 'editor@demo.test');
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await page.getByText('Inventory').waitFor();
    await expectAccessible(page, 'dashboard');
    await screenshot(page, '02-dashboard');

    // Catalog
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Catalogs' }).click();
    await page.getByRole('button', { name: 'New catalog' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a catalog' });
    await dialog.getByLabel('Name').fill(CATALOG);
    await dialog.getByLabel('Version').fill('2027.1');
    await expectAccessible(page, 'catalog dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: CATALOG, exact: true }).waitFor();
    await expectAccessible(page, 'catalogs');
    await screenshot(page, '03-catalogs');
    const cookie = await login('editor@demo.test');
    const catalog = (await api(cookie, 'Catalog/GetCatalogs?limit=500')).items.find(
      (c: { name: string }) => c.name === CATALOG,
    );
    expect(catalog).toMatchObject({ catalogVersion: '2027.1', language: 'deu', currency: 'EUR' });
    state.catalogId = catalog.catalogId;

    // Category
    await page.getByRole('link', { name: `0 categories of “${CATALOG}”` }).click();
    await page.getByLabel('Name of the new category').fill(CATEGORY);
    await page.getByRole('button', { name: 'Create category' }).click();
    await page.getByRole('treeitem', { name: new RegExp(CATEGORY) }).waitFor();
    await expectAccessible(page, 'categories');
    await screenshot(page, '04-categories');

    // Product and its fields
    await openCatalogProducts(page);
    await page.getByRole('button', { name: 'New product' }).click();
    const create = page.getByRole('dialog', { name: 'Create a product' });
    await create.getByLabel('SKU').fill(SKU);
    await create.getByLabel('Name').fill('Leitungsschutzschalter B16 1-polig');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: /Leitungsschutzschalter B16 1-polig/, level: 1 }).waitFor();
    state.productId = new URL(page.url()).pathname.split('/').at(-1);
    await page.getByLabel('Price', { exact: true }).fill('12.50');
    await page.getByLabel('Unit', { exact: true }).fill('C62');
    await page.getByLabel('GTIN/EAN').fill('4006381333931');
    await page.getByLabel('Manufacturer', { exact: true }).fill('Hager');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectAnnounced(page, 'Saved.');
    await expectAccessible(page, 'product editor');
    await screenshot(page, '05-product-editor');

    // Placement in the category
    await page.getByRole('tab', { name: 'Categories' }).click();
    await page.getByRole('checkbox', { name: CATEGORY }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expectAnnounced(page, 'Saved.');

    // Variant
    await page.getByRole('tab', { name: /^Variants/ }).click();
    await page.getByRole('button', { name: 'Add variant' }).click();
    const variantDialog = page.getByRole('dialog', { name: 'New variant' });
    await variantDialog.getByLabel('SKU').fill(VARIANT_SKU);
    await variantDialog.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('link', { name: VARIANT_SKU }).waitFor();
    await expectAccessible(page, 'variants');

    // ETIM classification with features
    await page.getByRole('tab', { name: 'Classification' }).click();
    await page.getByLabel('Find a class (code or name)').fill('circuit breaker');
    await page.getByRole('button', { name: /EC000042/ }).click();
    await page.getByLabel('Rated voltage', { exact: true }).fill('230');
    await page.getByLabel('Release characteristic').selectOption('EV000040');
    await page.getByLabel('Number of poles').fill('1');
    await page.getByRole('button', { name: 'Save classification' }).click();
    await expectAnnounced(page, 'Saved.');
    await expectAccessible(page, 'classification editor');
    await screenshot(page, '06-classification');

    // Picture
    await page.getByRole('tab', { name: /^Media/ }).click();
    await page.locator('input[type="file"]').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('img', { name: 'front.png' }).waitFor();
    await page.locator('input[type="file"]').setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('img', { name: 'back.png' }).waitFor();
    // Order with the keyboard alternative to drag and drop: the back view becomes the first picture.
    await page.getByRole('button', { name: 'Move “back.png” forward' }).click();
    await expectAnnounced(page, 'Order saved.');
    await expectAccessible(page, 'media');
    await screenshot(page, '07-media');

    const product = await api(cookie, `Catalog/GetProduct?productId=${state.productId}`);
    expect(product).toMatchObject({
      sku: SKU,
      price: '12.50',
      unit: 'C62',
      gtin: '4006381333931',
      manufacturerName: 'Hager',
      status: 'draft',
    });
    expect(product.categoryIds).toHaveLength(1);
    expect(product.variants.map((v: { sku: string }) => v.sku)).toEqual([VARIANT_SKU]);
    expect(product.classification.classes).toEqual([{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042' }]);
    expect(product.classification.features).toEqual(
      expect.arrayContaining([
        { group: 'ETIM', code: 'EF000008', value: '230', unit: 'VLT' },
        { group: 'ETIM', code: 'EF000073', value: 'EV000040', unit: null },
      ]),
    );
    expect(product.media).toEqual([
      expect.objectContaining({ fileName: 'back.png', contentType: 'image/png', size: PNG.byteLength }),
      expect.objectContaining({ fileName: 'front.png', contentType: 'image/png', size: PNG.byteLength }),
    ]);
    await page.context().close();
  });

  it('exports the catalog as BMEcat, downloads a valid file, mass-edits a status and signs out', async () => {
    expect(state.productId).toBeDefined();
    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'editor@demo.test');

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Exports' }).click();
    // A label wrapping a select: its accessible name also carries the chosen option.
    await page.getByRole('combobox', { name: /^Catalog/ }).selectOption({ label: CATALOG });
    await page.getByRole('combobox', { name: /^Format/ }).selectOption('BMEcat');
    await page.getByRole('button', { name: 'Start export' }).click();
    const downloadLink = page.getByRole('link', { name: /^Download .*BMEcat/ }).first();
    await downloadLink.waitFor({ timeout: 60_000 });
    await expectAccessible(page, 'exports');
    await screenshot(page, '08-exports');
    const [download] = await Promise.all([page.waitForEvent('download'), downloadLink.click()]);
    const xml = readFileSync((await download.path())!, 'utf8');
    expect(xml).toContain(`<SUPPLIER_PID>${SKU}</SUPPLIER_PID>`);
    expect(xml).toContain(`<SUPPLIER_PID>${VARIANT_SKU}</SUPPLIER_PID>`);
    expect(xml).toContain('EC000042');
    expectValid(xml, 'BMEcat');

    // Mass edit of the selection: the master goes from draft to discontinued.
    await openCatalogProducts(page);
    await page.getByRole('checkbox', { name: `Select product ${SKU}` }).check();
    await expectAccessible(page, 'product grid');
    await screenshot(page, '09-product-grid');
    await page.getByRole('button', { name: 'Edit selection …' }).click();
    const massEdit = page.getByRole('dialog', { name: 'Mass edit' });
    await massEdit.getByLabel('Field or attribute').selectOption('status');
    await massEdit.getByLabel('New value').selectOption('discontinued');
    await massEdit.getByRole('button', { name: 'Start change' }).click();
    await massEdit.getByText('1 changed, 0 unchanged, 0 failed.').waitFor({ timeout: 30_000 });
    await expectAccessible(page, 'mass edit');
    await screenshot(page, '10-mass-edit');
    await massEdit.getByRole('button', { name: 'Close' }).first().click();
    const cookie = await login('editor@demo.test');
    expect((await api(cookie, `Catalog/GetProduct?productId=${state.productId}`)).status).toBe('discontinued');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    expect((await page.context().cookies()).some((c) => c.name === 'Service.Cookie')).toBe(false);
    await page.context().close();
  });
});

describe('web application (admin and another company)', () => {
  it("lets the admin switch a user's AI access", async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'admin@demo.test');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Administration' })
      .click();
    const toggle = page.getByRole('switch', { name: 'AI may edit classifications for Norbert Ohne-KI' });
    await expect.poll(() => toggle.isChecked()).toBe(false);
    // The switch shows the server's state: it flips once SetAiSwitch has answered.
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await expectAnnounced(page, 'AI may now edit classifications for Norbert Ohne-KI.');
    await expectAccessible(page, 'administration');
    await screenshot(page, '11-administration');
    const cookie = await login('admin@demo.test');
    const users = (await api(cookie, 'Account/GetUsers')).items;
    expect(users.find((u: { email: string }) => u.email === 'noai@demo.test').aiMayEditClassifications).toBe(true);
    // Back as seeded: other e2e files rely on noai@demo.test having the switch off.
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await expectAnnounced(page, 'AI may no longer edit classifications for Norbert Ohne-KI.');
    expect(
      (await api(cookie, 'Account/GetUsers')).items.find((u: { email: string }) => u.email === 'noai@demo.test')
        .aiMayEditClassifications,
    ).toBe(false);
    await page.context().close();
  });

  it('shows another company none of it', async () => {
    expect(state.productId).toBeDefined();
    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'other@demo.test');
    await page.getByText('Zweite Handel GmbH', { exact: true }).waitFor();
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Catalogs' }).click();
    await page.getByRole('table').waitFor();
    await expect.poll(() => page.getByRole('link', { name: CATALOG }).count()).toBe(0);
    expect(
      await page
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: 'Administration' })
        .count(),
    ).toBe(0);
    await page.goto(`${base()}/products/${state.productId}`);
    await page.getByText('The item does not exist (any more).').waitFor();
    expect(await page.getByText(SKU).count()).toBe(0);
    await expectAccessible(page, 'not found for another company');
    await page.context().close();
  });
});
