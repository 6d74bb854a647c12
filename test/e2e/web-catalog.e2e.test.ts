import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
import { expectAccessible, expectAnnounced, launchChromium, newContext, SALES, signIn } from './web-browser';

/**
 * The catalog screens beyond the first walkthrough (web.e2e.test.ts), through the UI only: the
 * category tree (drag and drop, the API's cycle refusal, rename, delete with confirmation), the
 * product grid (search, filters, inline edit with the API's refusal in place), a mass edit over a
 * filter and export templates (cancelling a running export: web-export-cancel.e2e.test.ts). The catalog is prepared through the
 * REST API; every check afterwards reads the API too.
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);
const CATALOG = `E2E Sortiment ${suffix}`;

let browser: Browser;
let page: Page;
let cookie: string;
let catalogId: string;
const cat: Record<string, string> = {};

/** A GTIN-13 with its check digit, so the API accepts it. */
function gtin(n: number): string {
  const body = `400638${String(n).padStart(6, '0')}`;
  const sum = [...body].reduce((s, d, i) => s + Number(d) * (i % 2 ? 3 : 1), 0);
  return body + ((10 - (sum % 10)) % 10);
}
const sku = (i: number) => `G${suffix}-${String(i).padStart(3, '0')}`;

interface TreeNode {
  categoryId: string;
  name: string;
  children: TreeNode[];
}
async function tree(): Promise<TreeNode[]> {
  return (await api(cookie, `Catalog/GetCategoryTree?catalogId=${catalogId}`)).items;
}
async function products(query: string): Promise<{ sku: string; productId: string }[]> {
  return (await api(cookie, `Catalog/GetProducts?catalogId=${catalogId}&limit=500&${query}`)).items;
}
/** Waits for what the user sees: the API and the renderer share two busy cores with other tests. */
const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });
/**
 * Clicks a filter checkbox and waits until it shows the new state: filters live in the address
 * bar and the router applies a navigation as a transition, so the controlled box follows a
 * moment later (Playwright's check() would look at once).
 */
async function toggle(box: Locator, checked: boolean) {
  await box.click();
  await poll(() => box.isChecked()).toBe(checked);
}
/** The row of a category in the tree (the part that is dragged and dropped on). */
const treeRow = (name: string): Locator =>
  page.locator('.tree-row', { has: page.getByText(name, { exact: true }) }).first();

beforeAll(async () => {
  cookie = await login('editor@demo.test');
  catalogId = (await api(cookie, 'Catalog/AddCatalog', { departmentId: SALES, name: CATALOG })).catalogId;
  const add = async (name: string, parentId: string | null = null) =>
    (cat[name] = (
      await api(cookie, 'Catalog/AddCategory', { departmentId: SALES, catalogId, parentId, name })
    ).categoryId);
  await add('Schutzgeräte');
  await add('Leitungsschutzschalter', cat.Schutzgeräte);
  await add('Kabel');
  await add('Restposten');
  await add('Restposten alt', cat.Restposten);
  // 12 active breakers with price and GTIN; 12 draft cables, every second one without a price.
  const items = Array.from({ length: 24 }, (_, n) => {
    const i = n + 1;
    return i <= 12
      ? {
          sku: sku(i),
          name: `Leitungsschutzschalter B${i}`,
          status: 'active' as const,
          price: '10.00',
          gtin: gtin(i),
          categoryIds: [cat.Leitungsschutzschalter!],
        }
      : {
          sku: sku(i),
          name: `Mantelleitung NYM-J ${i}`,
          status: 'draft' as const,
          price: i % 2 ? null : '55.00',
          categoryIds: [cat.Kabel!],
        };
  });
  const upsert = await api(cookie, 'Catalog/UpsertProducts', { departmentId: SALES, catalogId, items });
  expect(upsert.items.filter((o: { status: string }) => o.status !== 'created')).toEqual([]);
  browser = await launchChromium();
  page = await (await newContext(browser)).newPage();
  await signIn(page, base(), 'editor@demo.test');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  // Other e2e files export every catalog of the demo company: leave the company as seeded.
  const templates = (await api(cookie, 'Export/GetTemplates')).items;
  for (const t of templates.filter((t: { name: string }) => t.name.includes(suffix)))
    await api(cookie, 'Export/DeleteTemplate', { templateId: t.templateId });
  if (catalogId) await api(cookie, 'Catalog/DeleteCatalog', { departmentId: SALES, catalogId });
});

describe('web application: catalog work (editor@demo.test)', () => {
  it('moves categories by drag and drop (a cycle is refused in words), renames and deletes one after confirming', async () => {
    await page.goto(`${base()}/categories?catalog=${catalogId}`);
    await treeRow('Kabel').waitFor();

    // "Kabel" dropped on "Schutzgeräte" becomes its subcategory.
    await treeRow('Kabel').dragTo(treeRow('Schutzgeräte'));
    await expectAnnounced(page, 'Category moved.');
    await poll(async () =>
      (await tree())
        .find((c) => c.name === 'Schutzgeräte')
        ?.children.map((c) => c.name)
        .sort(),
    ).toEqual(['Kabel', 'Leitungsschutzschalter']);

    // "Schutzgeräte" dropped on its own subcategory: the API refuses, the message says why.
    await page.getByRole('treeitem', { name: /^Schutzgeräte/ }).press('ArrowRight');
    await treeRow('Leitungsschutzschalter').waitFor();
    await treeRow('Schutzgeräte').dragTo(treeRow('Leitungsschutzschalter'));
    const refusal = page.locator('.tree-panel [role="alert"]');
    await poll(() => refusal.textContent()).toMatch(/below itself|cycle|own/i);
    expect((await tree()).map((c) => c.name).sort()).toEqual(['Restposten', 'Schutzgeräte']);
    await expectAccessible(page, 'category tree with a refused move');

    // Back to the top level through the drop zone under the tree.
    await treeRow('Kabel').dragTo(page.getByText('Drop here: to the top level'));
    await poll(async () => (await tree()).map((c) => c.name).sort()).toEqual(['Kabel', 'Restposten', 'Schutzgeräte']);

    // Rename through the detail panel.
    await treeRow('Kabel').click();
    await page.getByLabel('Rename').fill('Kabel und Leitungen');
    await page
      .locator('form', { has: page.getByLabel('Rename') })
      .getByRole('button', { name: 'Save' })
      .click();
    await expectAnnounced(page, 'Renamed to “Kabel und Leitungen”.');
    await treeRow('Kabel und Leitungen').waitFor();
    expect((await tree()).find((c) => c.categoryId === cat.Kabel)?.name).toBe('Kabel und Leitungen');

    // Delete a category with its subcategory: the dialog names it; cancelling keeps it.
    await treeRow('Restposten').click();
    await page.getByRole('button', { name: 'Delete category with subcategories' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete category?' });
    await confirm.getByText('Restposten').first().waitFor();
    await expectAccessible(page, 'delete category dialog');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    expect((await tree()).some((c) => c.name === 'Restposten')).toBe(true);
    await page.getByRole('button', { name: 'Delete category with subcategories' }).click();
    await confirm.getByRole('button', { name: 'Delete category with subcategories' }).click();
    await expectAnnounced(page, '2 category(ies) deleted.');
    await poll(() => treeRow('Restposten').count()).toBe(0);
    expect((await tree()).map((c) => c.name).sort()).toEqual(['Kabel und Leitungen', 'Schutzgeräte']);
  });

  it('searches and filters the grid and edits a cell in place, showing the refusal of a bad value where it happened', async () => {
    await page.goto(`${base()}/products?catalog=${catalogId}`);
    const count = page.locator('.selection-bar > span');
    await poll(() => count.textContent()).toBe('24 products');

    await page.getByRole('searchbox', { name: 'Search' }).fill('Mantelleitung');
    await poll(() => count.textContent()).toBe('12 products');
    expect(new URL(page.url()).searchParams.get('q')).toBe('Mantelleitung');
    await page.getByRole('link', { name: `Open product ${sku(13)}` }).waitFor();
    expect(await page.getByRole('link', { name: `Open product ${sku(1)}` }).count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await poll(() => count.textContent()).toBe('24 products');

    // Status, category with subcategories, missing price: each narrows what the API answers.
    await page.getByRole('combobox', { name: /^Status/ }).selectOption('draft');
    await poll(() => count.textContent()).toBe('12 products');
    await toggle(page.getByRole('checkbox', { name: 'Price', exact: true }), true);
    await poll(() => count.textContent()).toBe('6 products');
    const shown = await page.getByRole('link', { name: /^Open product / }).allTextContents();
    expect(shown.sort()).toEqual((await products('status=draft&missing=price')).map((p) => p.sku).sort());
    await toggle(page.getByRole('checkbox', { name: 'Price', exact: true }), false);
    await page.getByRole('combobox', { name: /^Status/ }).selectOption('');
    await page.getByRole('combobox', { name: /^Category/ }).selectOption({ label: 'Schutzgeräte' });
    await page.getByText('No products match the search and filters.').waitFor();
    await toggle(page.getByRole('checkbox', { name: 'including subcategories' }), true);
    await poll(() => count.textContent()).toBe('12 products');
    await expectAccessible(page, 'filtered product grid');

    // Inline edit: a bad GTIN is refused under the cell and changes nothing; a good price is saved.
    const target = (await products(`q=${sku(3)}`))[0]!;
    await page.getByRole('button', { name: new RegExp(`^GTIN/EAN of ${sku(3)}:`) }).click();
    const gtinInput = page.getByRole('textbox', { name: `GTIN/EAN of ${sku(3)}` });
    await gtinInput.fill('4006381333932');
    await gtinInput.press('Enter');
    const cellError = page.locator('.cell-error');
    await poll(() => cellError.textContent()).toMatch(/GTIN/);
    await expectAccessible(page, 'grid with a refused cell value');
    await gtinInput.press('Escape');
    expect((await api(cookie, `Catalog/GetProduct?productId=${target.productId}`)).gtin).toBe(gtin(3));
    await page.getByRole('button', { name: new RegExp(`^Price of ${sku(3)}:`) }).click();
    const priceInput = page.getByRole('textbox', { name: `Price of ${sku(3)}` });
    await priceInput.fill('12.75');
    await priceInput.press('Enter');
    await page.getByRole('button', { name: `Price of ${sku(3)}: 12.75` }).waitFor();
    expect((await api(cookie, `Catalog/GetProduct?productId=${target.productId}`)).price).toBe('12.75');
  });

  it('mass-edits every product a filter matches as a background job', async () => {
    await page.goto(`${base()}/products?catalog=${catalogId}&status=draft`);
    await poll(() => page.locator('.selection-bar > span').textContent()).toBe('12 products');
    await page.getByRole('button', { name: 'Edit all matches …' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mass edit' });
    await dialog.getByLabel('Field or attribute').selectOption('manufacturerName');
    await dialog.getByLabel('New value').fill('Lapp');
    await expectAccessible(page, 'mass edit over a filter');
    await dialog.getByRole('button', { name: 'Start change' }).click();
    await dialog.getByText('12 changed, 0 unchanged, 0 failed.').waitFor({ timeout: 60_000 });
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    const all = await api(cookie, `Catalog/GetProducts?catalogId=${catalogId}&limit=500`);
    const byStatus = (s: string) =>
      all.items
        .filter((p: { status: string }) => p.status === s)
        .map((p: { manufacturerName: string | null }) => p.manufacturerName);
    expect(byStatus('draft')).toEqual(Array(12).fill('Lapp'));
    expect(byStatus('active').every((m: string | null) => m !== 'Lapp')).toBe(true);
  });

  it('creates and edits an export template', async () => {
    const name = `E2E Vorlage ${suffix}`;
    await page.goto(`${base()}/exports/templates`);
    await page.getByRole('button', { name: 'New template' }).click();
    const dialog = page.getByRole('dialog', { name: 'New export template' });
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Format', { exact: true }).selectOption('BMEcat-ETIM');
    await dialog.getByLabel('Price type').fill('net_customer');
    await dialog.getByRole('checkbox', { name: 'Discontinued' }).uncheck();
    await expectAccessible(page, 'template dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('rowheader', { name }).waitFor();
    const created = (await api(cookie, 'Export/GetTemplates')).items.find((t: { name: string }) => t.name === name);
    expect(created).toMatchObject({
      exportType: 'BMEcat-ETIM',
      language: 'deu',
      options: { priceType: 'net_customer', statuses: ['active', 'draft'] },
    });

    await page.getByRole('button', { name: `Edit template “${name}”` }).click();
    const edit = page.getByRole('dialog', { name: `Edit template “${name}”` });
    await poll(() => edit.getByLabel('Price type').inputValue()).toBe('net_customer');
    await edit.getByLabel('Name', { exact: true }).fill(`${name} (Kunde)`);
    await edit.getByLabel('Language', { exact: true }).fill('eng');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('rowheader', { name: `${name} (Kunde)` }).waitFor();
    expect(await api(cookie, `Export/GetTemplates`).then((r) => r.items)).toContainEqual(
      expect.objectContaining({
        templateId: created.templateId,
        name: `${name} (Kunde)`,
        language: 'eng',
        options: expect.objectContaining({ priceType: 'net_customer', statuses: ['active', 'draft'] }),
      }),
    );
  });
});
