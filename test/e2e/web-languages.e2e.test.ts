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
 * Content languages in the web application (issue 18, docs/languages.md), through the UI only
 * and checked through the REST API: the admin enables English for the demo company, a catalog
 * publishes it, an English name is written side by side with the German one and its "missing"
 * marker goes, the grid lists what still misses English, and a category gets its English name.
 * axe on every screen it opens.
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);
const CATALOG = `E2E Sprachen ${suffix}`;
const DONE = `E2E-LANG-A-${suffix}`;
const LEFT = `E2E-LANG-B-${suffix}`;
const ENGLISH_NAME = 'Contactor 3-pole 9 A';

let browser: Browser;
let cookie: string;
let saved: { defaultLanguage: string; languages: { code: string }[] };
let catalogId: string | undefined;

beforeAll(async () => {
  browser = await launchChromium();
  cookie = await login('admin@demo.test');
  saved = await api(cookie, 'Catalog/GetLanguages');
});
afterAll(async () => {
  await browser?.close();
  // Other e2e files export every catalog of the demo company: leave it as it was.
  if (catalogId) await api(cookie, 'Catalog/DeleteCatalog', { departmentId: SALES, catalogId });
  await api(cookie, 'Catalog/SetLanguages', {
    defaultLanguage: saved.defaultLanguage,
    languages: saved.languages.map((l) => l.code),
  });
});

/** The grid's rows by SKU, as the user sees them. */
async function gridSkus(page: Page): Promise<string[]> {
  return page
    .getByRole('table', { name: 'Product list' })
    .getByRole('link', { name: /^Open product / })
    .allTextContents();
}

describe('content languages in the web application (admin@demo.test)', () => {
  it('enables English, translates a name side by side, filters what still misses English and names a category in English', async () => {
    expect(saved.languages.map((l) => l.code)).not.toContain('eng');
    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'admin@demo.test');

    // Administration: tick English, save; the API has it and German stays the default.
    await page.goto(`${base()}/admin`);
    const section = page.getByRole('region', { name: 'Content languages' });
    await section.getByRole('checkbox', { name: 'English (eng)' }).check();
    await expectAccessible(page, 'administration with content languages');
    await section.getByRole('button', { name: 'Save languages' }).click();
    await expectAnnounced(page, 'Content languages saved.');
    const languages = await api(cookie, 'Catalog/GetLanguages');
    expect(languages.defaultLanguage).toBe(saved.defaultLanguage);
    expect(languages.languages.map((l: { code: string }) => l.code)).toContain('eng');

    // A catalog that publishes German and English, made in the catalog form.
    await page.goto(`${base()}/catalogs`);
    await page.getByRole('button', { name: 'New catalog' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create a catalog' });
    await dialog.getByLabel('Name', { exact: true }).fill(CATALOG);
    await dialog
      .getByRole('group', { name: 'Published languages' })
      .getByRole('checkbox', { name: 'English (eng)' })
      .check();
    await expectAccessible(page, 'catalog dialog with languages');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: CATALOG, exact: true }).waitFor();
    const catalog = (await api(cookie, 'Catalog/GetCatalogs?limit=500')).items.find(
      (c: { name: string }) => c.name === CATALOG,
    );
    catalogId = catalog.catalogId;
    expect(catalog).toMatchObject({ language: saved.defaultLanguage, languages: [saved.defaultLanguage, 'eng'] });

    const add = (sku: string, name: string) =>
      api(cookie, 'Catalog/AddProduct', { departmentId: SALES, catalogId, sku, name });
    const done = await add(DONE, 'Schütz 3-polig 9 A');
    await add(LEFT, 'Schütz 3-polig 12 A');

    // The editor in English: German on the left (read-only), English on the right, marked missing.
    await page.goto(`${base()}/products/${done.productId}?language=eng`);
    await page.getByRole('tab', { name: 'Translation' }).waitFor();
    const german = page.getByLabel('Name · Deutsch (deu)');
    expect(await german.inputValue()).toBe('Schütz 3-polig 9 A');
    expect(await german.getAttribute('readonly')).not.toBeNull();
    const english = page.getByLabel('Name · English (eng)');
    expect(await english.getAttribute('aria-describedby')).toMatch(/missing/);
    await page.getByText('Translation missing').waitFor();
    await page.getByText('Texts missing in English (eng): 1.').waitFor();
    await expectAccessible(page, 'side-by-side translation');
    await english.fill(ENGLISH_NAME);
    await page.getByRole('button', { name: 'Save English (eng)' }).click();
    await expectAnnounced(page, 'Saved.');
    await page.getByText('Every text is translated into English (eng).').waitFor();
    expect(await page.getByText('Translation missing').count()).toBe(0);
    await screenshot(page, '17-translation-side-by-side');
    const read = await api(cookie, `Catalog/GetProduct?productId=${done.productId}&language=eng`);
    expect(read).toMatchObject({ name: ENGLISH_NAME, language: 'eng', missingTranslations: [] });
    expect((await api(cookie, `Catalog/GetProduct?productId=${done.productId}`)).name).toBe('Schütz 3-polig 9 A');

    // The grid in English: the translated name, a marker on the one still missing.
    await page.goto(`${base()}/products?catalog=${catalogId}`);
    await page.getByLabel('Content language').selectOption('eng');
    await page.waitForURL(/language=eng/);
    await page.getByRole('button', { name: `Name · English (eng) of ${DONE}: ${ENGLISH_NAME}` }).waitFor();
    await page.getByRole('button', { name: `Name · English (eng) of ${LEFT}: missing` }).waitFor();
    expect((await gridSkus(page)).sort()).toEqual([DONE, LEFT]);
    await expectAccessible(page, 'grid in English');

    // Filter: translation missing in English leaves the product nobody translated yet.
    await page.getByLabel('Translation missing in').selectOption('eng');
    await page.waitForURL(/missingTranslation=eng/);
    await expect.poll(() => gridSkus(page)).toEqual([LEFT]);
    await expectAccessible(page, 'grid filtered by missing English');
    await screenshot(page, '18-grid-missing-english');
    const missing = await api(cookie, `Catalog/GetProducts?catalogId=${catalogId}&missingTranslation=eng`);
    expect(missing.items.map((p: { sku: string }) => p.sku)).toEqual([LEFT]);

    // A category's name in English, in the category screen.
    const category = await api(cookie, 'Catalog/AddCategory', { departmentId: SALES, catalogId, name: 'Schütze' });
    await page.goto(`${base()}/categories?catalog=${catalogId}`);
    await page
      .locator('.tree-row', { has: page.getByText('Schütze', { exact: true }) })
      .first()
      .click();
    const categoryName = page.getByLabel('Name · English (eng)');
    expect(await categoryName.getAttribute('aria-describedby')).toMatch(/missing/);
    await expectAccessible(page, 'category names per language');
    await categoryName.fill('Contactors');
    await page.getByRole('button', { name: 'Save translated names' }).click();
    await expectAnnounced(page, 'Saved.');
    await expect.poll(() => categoryName.getAttribute('aria-describedby')).toBeNull();
    const categoriesInEnglish = await api(cookie, `Catalog/GetCategories?catalogId=${catalogId}&language=eng`);
    expect(categoriesInEnglish.items).toEqual([
      expect.objectContaining({ categoryId: category.categoryId, name: 'Contactors', missingTranslations: [] }),
    ]);
    expect((await api(cookie, `Catalog/GetCategories?catalogId=${catalogId}`)).items[0].name).toBe('Schütze');
  });
});
