import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
import { dropFile, expectAccessible, expectAnnounced, launchChromium, newContext, SALES, signIn } from './web-browser';

/**
 * A member limited to one brand's subtree, in the browser (issue 33, docs/teams.md): the
 * categories screen and the grid's category filter show their subtree under the path above it
 * (greyed, not chosen) and nothing of the other brand; the editor's Categories tab saves a product
 * placed in their subtree and in the other brand, keeping the other brand's placement unnamed;
 * as a translator for French limited to the
 * same subtree, the imports screen has the texts-only import chosen for them: the check lists
 * what it leaves out, the import writes the French name of the product inside and rejects the
 * one outside.
 *
 * The demo seed has no such member and the API adds no user with a password, so a demo editor
 * takes the role and scope for the test and gets their role back, without scope, in afterAll.
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);
const MEMBER = 'noai@demo.test';
const IN = `E2E-SCOPE-IN-${suffix}`;
const OUT = `E2E-SCOPE-OUT-${suffix}`;
const MIX = `E2E-SCOPE-MIX-${suffix}`;
const FRENCH = `Câble de la marque ${suffix}`;

let browser: Browser;
let page: Page;
let admin: string;
let saved: { defaultLanguage: string; languages: { code: string }[] };
let member: { userId: string; role: string };
let catalogId: string | undefined;
const ids: Record<string, string> = {};

beforeAll(async () => {
  admin = await login('admin@demo.test');
  saved = await api(admin, 'Catalog/GetLanguages');
  const users = (await api(admin, 'Account/GetUsers')).items as { userId: string; email: string; role: string }[];
  const user = users.find((u) => u.email === MEMBER);
  if (!user) throw new Error(`demo user ${MEMBER} missing`);
  member = user;
  const languages = [...new Set([...saved.languages.map((l) => l.code), 'fra'])];
  await api(admin, 'Catalog/SetLanguages', { defaultLanguage: saved.defaultLanguage, languages });
  catalogId = (
    await api(admin, 'Catalog/AddCatalog', {
      departmentId: SALES,
      name: `E2E Scope ${suffix}`,
      language: 'deu',
      languages: ['fra'],
    })
  ).catalogId;
  const add = async (name: string, parent?: string) => {
    ids[name] = (
      await api(admin, 'Catalog/AddCategory', {
        departmentId: SALES,
        catalogId,
        name,
        ...(parent ? { parentId: ids[parent] } : {}),
      })
    ).categoryId;
  };
  await add('Marke');
  await add('Linien', 'Marke');
  await add('Andere Linie', 'Marke');
  await add('Fremdmarke');
  for (const [sku, category] of [
    [IN, 'Linien'],
    [OUT, 'Fremdmarke'],
  ] as const)
    ids[sku] = (
      await api(admin, 'Catalog/AddProduct', {
        departmentId: SALES,
        catalogId,
        sku,
        name: `Kabel ${sku}`,
        categoryIds: [ids[category]],
      })
    ).productId;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  // Shared server and seed: the member's role back without scope, the catalog and languages as they were.
  if (member)
    await api(admin, 'Account/SetMemberRole', {
      userId: member.userId,
      role: member.role,
      catalogIds: [],
      categoryIds: [],
      channelIds: [],
    });
  if (catalogId) await api(admin, 'Catalog/DeleteCatalog', { departmentId: SALES, catalogId });
  await api(admin, 'Catalog/SetLanguages', {
    defaultLanguage: saved.defaultLanguage,
    languages: saved.languages.map((l) => l.code),
  });
});

async function signInAs(role: string, extra: Record<string, unknown> = {}) {
  await api(admin, 'Account/SetMemberRole', { userId: member.userId, role, categoryIds: [ids.Linien], ...extra });
  page = await (await newContext(browser)).newPage();
  await signIn(page, base(), MEMBER);
}

describe('a member limited to one brand (issue 33)', () => {
  it('sees their subtree under the path above it, and nothing of the other brand', async () => {
    await signInAs('editor');
    await page.goto(`${base()}/categories?catalog=${catalogId}`);
    const tree = page.getByRole('tree');
    const brand = tree.getByRole('treeitem', { name: /^Marke/ });
    const lines = tree.getByRole('treeitem', { name: /^Linien/ });
    // the path above their subtree is open from the start, greyed and not chosen
    await lines.waitFor();
    expect(await brand.getAttribute('aria-disabled')).toBe('true');
    expect(await brand.getAttribute('aria-expanded')).toBe('true');
    expect(await tree.textContent()).not.toContain('Andere Linie');
    expect(await tree.textContent()).not.toContain('Fremdmarke');
    await brand.locator('.tree-row').first().click();
    expect(await brand.getAttribute('aria-selected')).toBe('false');
    await page.getByRole('heading', { name: 'Choose a category of your part of the catalog' }).waitFor();
    expect(await page.getByLabel('Name of the new category').count()).toBe(0);
    await lines.locator('.tree-row').first().click();
    await page.getByRole('heading', { name: 'Linien', level: 2 }).waitFor();
    expect(await page.getByText('Drop here: to the top level').count()).toBe(0);
    await expectAccessible(page, "a scoped member's category tree");

    // the grid's category filter: the path shown, not to be chosen; their categories offered
    await page.goto(`${base()}/products?catalog=${catalogId}`);
    const filter = page.locator('select').filter({ has: page.locator('option', { hasText: 'All categories' }) });
    await expect
      .poll(() => filter.locator('option').allTextContents(), { timeout: 15_000 })
      .toEqual(['All categories', 'Marke', 'Marke › Linien']);
    expect(await filter.locator('option', { hasText: /^Marke$/ }).isDisabled()).toBe(true);
    await page.getByRole('link', { name: `Open product ${IN}` }).waitFor();
    expect(await page.getByRole('link', { name: `Open product ${OUT}` }).count()).toBe(0);
  });

  it("saves a product's placements in their subtree, the other brand's placement kept and not named", async () => {
    // made after the first case, whose lists it would change: a category below theirs, a product in both brands
    ids.Trommeln = (
      await api(admin, 'Catalog/AddCategory', {
        departmentId: SALES,
        catalogId,
        name: 'Trommeln',
        parentId: ids.Linien,
      })
    ).categoryId;
    ids[MIX] = (
      await api(admin, 'Catalog/AddProduct', {
        departmentId: SALES,
        catalogId,
        sku: MIX,
        name: `Kabel ${MIX}`,
        categoryIds: [ids.Linien, ids.Fremdmarke],
      })
    ).productId;
    await signInAs('editor');
    await page.goto(`${base()}/products/${ids[MIX]}?tab=categories`);
    await page.getByText('Placements of this product outside your part of the catalog: 1.', { exact: false }).waitFor();
    const panel = page.getByRole('tabpanel');
    expect(await panel.textContent()).not.toContain('Fremdmarke');
    await panel.getByLabel('Trommeln', { exact: true }).check();
    await panel.getByLabel('Linien', { exact: true }).uncheck();
    await expectAccessible(page, "a scoped member's Categories tab");
    await panel.getByRole('button', { name: 'Save' }).click();
    await expectAnnounced(page, 'Saved.');
    const saved = await api(admin, `Catalog/GetProduct?productId=${ids[MIX]}`);
    expect([...saved.categoryIds].sort()).toEqual([ids.Trommeln, ids.Fremdmarke].sort());
  });

  it('imports only French texts as a translator: the texts-only import chosen, what it left out listed', async () => {
    await signInAs('translator', { languages: ['fra'] });
    await page.goto(`${base()}/imports?catalog=${catalogId}`);
    await page.getByText('Your role writes texts: an import writes only the texts in Français (fra)').waitFor();
    const csv = ['sku,name,name@fra,price', `${IN},Neu,${FRENCH},9.99`, `${OUT},Fremd,Dehors,1.00`, ''].join('\r\n');
    await dropFile(page, 'texte.csv', csv, 'text/csv');

    const check = page.getByRole('region', { name: 'What the file holds (checked, nothing written yet)' });
    await check.getByRole('button', { name: 'Start import' }).waitFor({ timeout: 30_000 });
    // no mode to choose: the role imposes it
    expect(await check.getByLabel('Existing products').count()).toBe(0);
    const left = check.locator('.ignored-parts');
    await expect.poll(() => left.textContent()).toContain('Left out (texts-only import)');
    expect(await left.locator('[data-ignored="price"]').textContent()).toMatch(/price: 2 products/);
    expect(await left.locator('[data-ignored="texts in deu"]').textContent()).toMatch(/Texts in deu: 2 products/);
    expect(await check.locator('[data-reason="outside_scope"]').textContent()).toContain(
      'outside your part of the catalog',
    );
    await expectAccessible(page, 'a texts-only import, checked');

    await check.getByRole('button', { name: 'Start import' }).click();
    const done = page.getByRole('region', { name: 'Import finished' });
    await done.waitFor({ timeout: 30_000 });
    expect(await done.locator('[data-reason="outside_scope"]').textContent()).toContain(OUT);
    await done.locator('.ignored-parts').waitFor();

    const inside = await api(admin, `Catalog/GetProduct?productId=${ids[IN]}&language=fra`);
    expect(inside.name).toBe(FRENCH);
    const german = await api(admin, `Catalog/GetProduct?productId=${ids[IN]}`);
    expect(german).toMatchObject({ name: `Kabel ${IN}` });
    expect(german.price ?? null).toBeNull();
    const outside = await api(admin, `Catalog/GetProduct?productId=${ids[OUT]}&language=fra`);
    expect(outside.name).toBeNull();
  });
});
