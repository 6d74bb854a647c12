import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
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
 * Completeness in the web application (issue 21, docs/completeness.md): a channel defined
 * through the API requires a GTIN and a description; the grid shows each product's score as a
 * badge for that channel, sorts worst first and filters "missing GTIN"; the editor lists what is
 * missing with a link that opens the GTIN field; fixing it there raises the score at once; the
 * overview and the channel administration show the channel. axe on every screen it opens.
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);
const CHANNEL = `E2E Shop ${suffix}`;
const LACKING = `E2E-COMP-A-${suffix}`;
const HALF = `E2E-COMP-B-${suffix}`;

let browser: Browser;
let cookie: string;
let catalogId: string | undefined;
let channelId: string | undefined;

beforeAll(async () => {
  browser = await launchChromium();
  cookie = await login('admin@demo.test');
});
afterAll(async () => {
  await browser?.close();
  // Other e2e files read the demo company's channels and catalogs: leave it as it was.
  if (channelId) await api(cookie, 'Catalog/DeleteChannel', { channelId });
  if (catalogId) await api(cookie, 'Catalog/DeleteCatalog', { departmentId: SALES, catalogId });
});

async function waitForJob(jobId: string) {
  await expect
    .poll(async () => (await api(cookie, `Job/GetJob?jobId=${jobId}`)).state, { timeout: 60_000 })
    .toBe('succeeded');
}

/** The grid's rows by SKU, as the user sees them. */
async function gridSkus(page: Page): Promise<string[]> {
  return page
    .getByRole('table', { name: 'Product list' })
    .getByRole('link', { name: /^Open product / })
    .allTextContents();
}

describe('completeness in the web application (admin@demo.test)', () => {
  it('shows the badge, sorts and filters by it, links from the missing list to the field and rises when fixed', async () => {
    const { defaultLanguage } = await api(cookie, 'Catalog/GetLanguages');
    const catalog = await api(cookie, 'Catalog/AddCatalog', {
      departmentId: SALES,
      name: `E2E Vollständigkeit ${suffix}`,
    });
    catalogId = catalog.catalogId;
    const add = (sku: string, gtin?: string) =>
      api(cookie, 'Catalog/AddProduct', { departmentId: SALES, catalogId, sku, name: `Produkt ${sku}`, gtin });
    const lacking = await add(LACKING);
    await add(HALF, '4006381333931');
    const channel = await api(cookie, 'Catalog/AddChannel', {
      name: CHANNEL,
      languages: [defaultLanguage],
      requirements: [
        { kind: 'field', field: 'gtin' },
        { kind: 'field', field: 'description' },
      ],
    });
    channelId = channel.channelId;
    await waitForJob(channel.jobId);

    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'admin@demo.test');

    // The grid with the channel chosen: a badge per product, worst first when sorted by it.
    await page.goto(`${base()}/products?catalog=${catalogId}`);
    await page.getByRole('table', { name: 'Product list' }).waitFor();
    // (a select inside its label: its accessible name ends with the chosen option)
    await page.getByRole('combobox', { name: /^Channel/ }).selectOption({ label: CHANNEL });
    await page.waitForURL(/completenessChannel=/);
    const grid = page.getByRole('table', { name: 'Product list' });
    await grid.getByText(/^0 %/).waitFor();
    await grid.getByText(/^50 %/).waitFor();
    await grid.getByRole('button', { name: /^Complete/ }).click();
    await page.waitForURL(/sort=completeness/);
    await expect.poll(() => gridSkus(page)).toEqual([LACKING, HALF]);
    await expectAccessible(page, 'grid with completeness badges');

    // Filters: only incomplete (both), then missing GTIN (one); the API agrees.
    await page.getByRole('checkbox', { name: 'Only incomplete' }).check();
    await page.waitForURL(/incompleteFor=/);
    await expect.poll(() => gridSkus(page)).toEqual([LACKING, HALF]);
    await page
      .locator('.completeness-filters')
      .getByRole('combobox', { name: /^Missing/ })
      .selectOption('gtin');
    await page.waitForURL(/missingRequirement=gtin/);
    await expect.poll(() => gridSkus(page)).toEqual([LACKING]);
    await expectAccessible(page, 'grid filtered by a missing requirement');
    await screenshot(page, '19-grid-completeness');
    const filtered = await api(
      cookie,
      `Catalog/GetProducts?catalogId=${catalogId}&incompleteFor=${channelId}&missingRequirement=gtin`,
    );
    expect(filtered.items.map((p: { sku: string }) => p.sku)).toEqual([LACKING]);

    // The editor's missing list, a link to the GTIN field, the fix, the score risen.
    await page.goto(`${base()}/products/${lacking.productId}?tab=completeness`);
    const panel = page.getByRole('region', { name: CHANNEL });
    await panel.getByRole('link', { name: 'Add gtin' }).waitFor();
    await panel.getByRole('link', { name: 'Add description' }).waitFor();
    await expectAccessible(page, 'editor completeness tab');
    await panel.getByRole('link', { name: 'Add gtin' }).click();
    await page.waitForURL(/tab=fields.*focus=gtin/);
    // (a string: the Node-side tsconfig has no DOM types)
    await page.waitForFunction("document.activeElement?.getAttribute('name') === 'gtin'");
    await page.locator('input[name="gtin"]').fill('4006381333931');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectAnnounced(page, 'Saved.');
    await page.getByRole('tab', { name: 'Completeness' }).click();
    await page.getByRole('region', { name: CHANNEL }).getByText(/^50 %/).waitFor();
    expect(await page.getByRole('link', { name: 'Add gtin' }).count()).toBe(0);
    const read = await api(cookie, `Catalog/GetCompleteness?productId=${lacking.productId}`);
    const ours = read.channels.find((c: { channelId: string }) => c.channelId === channelId);
    expect(ours.languages[0]).toMatchObject({ score: 50, missing: [{ requirement: 'description' }] });

    // The overview per channel and language, and the channel in the administration.
    await page.goto(`${base()}/`);
    const overview = page.getByRole('region', { name: 'Completeness per channel' });
    await overview.getByRole('link', { name: CHANNEL }).waitFor();
    await expectAccessible(page, 'overview with completeness');
    await page.goto(`${base()}/admin`);
    const admin = page.getByRole('region', { name: 'Channels' });
    await admin.getByRole('button', { name: `Edit ${CHANNEL}` }).click();
    const dialog = page.getByRole('dialog', { name: `Edit channel ${CHANNEL}` });
    await dialog.getByLabel('Requirement 2: field').waitFor();
    expect(await dialog.getByLabel('Requirement 2: field').inputValue()).toBe('description');
    await expectAccessible(page, 'channel dialog');

    // A range rule added in the dialog: the server's 400 (min over max) is shown under the minimum.
    await dialog.getByRole('button', { name: 'Add requirement' }).click();
    await dialog.getByLabel('Requirement 3: kind').selectOption('quality');
    await dialog.getByLabel('Requirement 3: rule').selectOption('range');
    await dialog.getByLabel('Requirement 3: feature (e.g. EF000008)').fill('EF000008');
    const min = dialog.getByLabel('Requirement 3: minimum');
    await min.fill('400');
    await dialog.getByLabel('Requirement 3: maximum').fill('230');
    await dialog.getByLabel(/^Requirement 3: unit/).fill('VLT');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => min.getAttribute('aria-invalid')).toBe('true');
    const described = await min.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toContain('greater than max');
    await expectAccessible(page, 'channel dialog with a range rule refused');
    await min.fill('100');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const channels = await api(cookie, 'Catalog/GetChannels');
    const saved = channels.items.find((c: { channelId: string }) => c.channelId === channelId);
    expect(saved.requirements[2]).toMatchObject({
      kind: 'quality',
      rule: 'range',
      system: 'ETIM',
      feature: 'EF000008',
      min: 100,
      max: 230,
      unit: 'VLT',
    });
  });
});
