import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
import { expectAccessible, expectAnnounced, launchChromium, newContext, screenshot, signIn } from './web-browser';

/**
 * The product editor's History tab (docs/history.md, docs/web.md): a change made in the editor
 * appears with its before → after, user and surface; restoring the earlier version brings the
 * old name back and is itself recorded. Through the UI only; the API checks the outcome.
 */
const base = () => inject('baseUrl');
const SALES = '0190a000-0000-7000-8000-000000000011';
const suffix = Date.now().toString(36).slice(-5);
const SKU = `E2E-HIST-${suffix}`;
const FIRST = 'Schütz 3-polig 9 A';
const SECOND = 'Schütz 3-polig 12 A';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('product history in the web application (editor@demo.test)', () => {
  it('shows a change with before → after and restores the earlier version', async () => {
    const cookie = await login('editor@demo.test');
    const catalog = await api(cookie, 'Catalog/AddCatalog', { departmentId: SALES, name: `E2E History ${suffix}` });
    const product = await api(cookie, 'Catalog/AddProduct', {
      departmentId: SALES,
      catalogId: catalog.catalogId,
      sku: SKU,
      name: FIRST,
    });

    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'editor@demo.test');
    await page.goto(`${base()}/products/${product.productId}`);
    await page.getByRole('heading', { name: new RegExp(FIRST), level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(SECOND);
    await page.getByRole('button', { name: 'Save' }).click();
    await expectAnnounced(page, 'Saved.');

    await page.getByRole('tab', { name: 'History' }).click();
    const list = page.getByRole('list', { name: `Changes to ${SKU}, newest first` });
    await list.waitFor();
    const entries = list.getByRole('listitem');
    await expect.poll(() => entries.count()).toBe(2);
    const newest = entries.first();
    await newest.getByText('Changed', { exact: true }).waitFor();
    await newest.getByText('Erika Editor via web').waitFor();
    const nameRow = newest.getByRole('row', { name: /Name/ });
    expect(await nameRow.locator('del').textContent()).toBe(FIRST);
    expect(await nameRow.locator('ins').textContent()).toBe(SECOND);
    // The newest version is the current state: only older ones offer a restore.
    expect(await newest.getByRole('button', { name: /Restore/ }).count()).toBe(0);
    await expectAccessible(page, 'product history');
    await screenshot(page, '14-product-history');

    await entries
      .nth(1)
      .getByRole('button', { name: /^Restore this version \(/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Restore this version?' });
    await dialog.getByText(new RegExp(SKU)).waitFor();
    await expectAccessible(page, 'restore dialog');
    await dialog.getByRole('button', { name: 'Restore' }).click();
    await expectAnnounced(page, /restored\./);
    await page.getByRole('heading', { name: new RegExp(FIRST), level: 1 }).waitFor();
    await expect.poll(() => entries.count()).toBe(3);
    await entries.first().getByText('Restored', { exact: true }).waitFor();
    const restoredRow = entries.first().getByRole('row', { name: /Name/ });
    expect(await restoredRow.locator('del').textContent()).toBe(SECOND);
    expect(await restoredRow.locator('ins').textContent()).toBe(FIRST);

    expect((await api(cookie, `Catalog/GetProduct?productId=${product.productId}`)).name).toBe(FIRST);
    const history = await api(cookie, `Catalog/GetHistory?elementId=${product.productId}`);
    expect(history.items.map((v: { action: string }) => v.action)).toEqual(['restore', 'update', 'create']);
    expect(history.items[0]).toMatchObject({ surface: 'web', user: { name: 'Erika Editor' } });
  });
});
