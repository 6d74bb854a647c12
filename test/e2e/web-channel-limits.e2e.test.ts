import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
import { expectAccessible, launchChromium, newContext, SALES, screenshot, signIn } from './web-browser';

/**
 * A requirement's limits in the channel dialog (issue 21, docs/completeness.md "Requirements"):
 * the user limits "GTIN" to German and to the category Kabel › Erdkabel, chosen level by level;
 * after saving, the API has both limits, only the product placed there misses its GTIN and only
 * in German, and the dialog reopened shows both (the category by its path), also once the row
 * above is removed. A language the channel stops publishing is then refused by the API under
 * the row's language limit; both limits lifted leave the requirement without them. Last, review
 * before publishing is turned on in the same dialog with a rule of fields and a language.
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);
const CHANNEL = `E2E Limits ${suffix}`;
const CATALOG = `E2E Einschränkungen ${suffix}`;

let browser: Browser;
let cookie: string;
let saved: { defaultLanguage: string; languages: { code: string }[] };
let catalogId: string | undefined;
let channelId: string | undefined;

beforeAll(async () => {
  browser = await launchChromium();
  cookie = await login('admin@demo.test');
  saved = await api(cookie, 'Catalog/GetLanguages');
  await api(cookie, 'Catalog/SetLanguages', {
    defaultLanguage: saved.defaultLanguage,
    languages: [...new Set([...saved.languages.map((l) => l.code), 'eng'])],
  });
});
afterAll(async () => {
  await browser?.close();
  // Other e2e files read the demo company's channels, catalogs and languages: leave it as it was.
  if (channelId) await api(cookie, 'Catalog/DeleteChannel', { channelId });
  if (catalogId) await api(cookie, 'Catalog/DeleteCatalog', { departmentId: SALES, catalogId });
  await api(cookie, 'Catalog/SetLanguages', {
    defaultLanguage: saved.defaultLanguage,
    languages: saved.languages.map((l) => l.code),
  });
});

type Missing = { requirement: string };
type Read = { channels: { channelId: string; languages: { language: string; missing: Missing[] }[] }[] };

/** What the product misses for our channel, per language: `{ deu: ['gtin'], eng: [] }`. */
async function missingOf(productId: string): Promise<Record<string, string[]>> {
  const read: Read = await api(cookie, `Catalog/GetCompleteness?productId=${productId}`);
  const ours = read.channels.find((c) => c.channelId === channelId);
  return Object.fromEntries(
    (ours?.languages ?? []).map((l) => [l.language, l.missing.map((m) => m.requirement).sort()]),
  );
}

describe('limits of a channel requirement in the web dialog (admin@demo.test)', () => {
  it('limits a requirement to one language and one category, saves, scores by it and shows both when reopened', async () => {
    expect(saved.defaultLanguage).toBe('deu');
    catalogId = (await api(cookie, 'Catalog/AddCatalog', { departmentId: SALES, name: CATALOG })).catalogId;
    const category = (name: string, parentId?: string) =>
      api(cookie, 'Catalog/AddCategory', { departmentId: SALES, catalogId, name, parentId });
    const kabel = await category('Kabel');
    const erdkabel = await category('Erdkabel', kabel.categoryId);
    const leuchten = await category('Leuchten');
    const product = (sku: string, categoryId: string) =>
      api(cookie, 'Catalog/AddProduct', {
        departmentId: SALES,
        catalogId,
        sku,
        name: `Produkt ${sku}`,
        categoryIds: [categoryId],
      });
    const inside = await product(`E2E-LIM-IN-${suffix}`, erdkabel.categoryId);
    const outside = await product(`E2E-LIM-OUT-${suffix}`, leuchten.categoryId);
    const channel = await api(cookie, 'Catalog/AddChannel', {
      name: CHANNEL,
      languages: ['deu', 'eng'],
      requirements: [{ kind: 'field', field: 'sku' }],
    });
    channelId = channel.channelId;

    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'admin@demo.test');
    await page.goto(`${base()}/admin`);
    const openDialog = async () => {
      await page
        .getByRole('region', { name: 'Channels' })
        .getByRole('button', { name: `Edit ${CHANNEL}` })
        .click();
      return page.getByRole('dialog', { name: `Edit channel ${CHANNEL}` });
    };
    let dialog = await openDialog();

    // A second requirement, GTIN, limited to German and to Kabel › Erdkabel.
    await dialog.getByRole('button', { name: 'Add requirement' }).click();
    await dialog.getByLabel('Requirement 2: field').selectOption('gtin');
    const limits = dialog.locator('details', { has: page.getByText('Requirement 2: limits') });
    expect(await limits.locator('summary').textContent()).toContain('every language of the channel, every product');
    await limits.locator('summary').click();
    const languages = (d: Locator, n = 2) =>
      d.getByRole('group', { name: `Requirement ${n}: only in these languages` });
    await languages(dialog).getByRole('checkbox', { name: 'Deutsch (deu)' }).check();
    await dialog.getByLabel('Requirement 2: catalog of the category').selectOption({ label: CATALOG });
    await dialog.getByLabel('Requirement 2: only in category').selectOption({ label: 'Kabel' });
    // Erdkabel has no subcategories: once its (empty) level is read, no third level is offered.
    const belowLeaf = page.waitForResponse((r) => r.url().includes(`parentId=${erdkabel.categoryId}`));
    await dialog.getByLabel('Requirement 2: category, level 2').selectOption({ label: 'Erdkabel' });
    await belowLeaf;
    expect(await dialog.getByLabel('Requirement 2: category, level 3').count()).toBe(0);
    await expectAccessible(page, 'channel dialog with a requirement limited');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const channels = await api(cookie, 'Catalog/GetChannels');
    const stored = channels.items.find((c: { channelId: string }) => c.channelId === channelId);
    expect(stored.requirements).toEqual([
      { kind: 'field', field: 'sku' },
      { kind: 'field', field: 'gtin', languages: ['deu'], categoryId: erdkabel.categoryId },
    ]);
    // The scores follow the limit (once the channel's job has run): only the product in the
    // subtree misses its GTIN, and only in German.
    await expect.poll(() => missingOf(inside.productId), { timeout: 60_000 }).toMatchObject({ deu: ['gtin'] });
    expect((await missingOf(inside.productId)).eng ?? []).not.toContain('gtin');
    const out = await missingOf(outside.productId);
    expect(Object.values(out).flat()).not.toContain('gtin');

    // Reopened: the limits are shown, the category by its path and in its level selects.
    await page.reload();
    dialog = await openDialog();
    const summary = dialog.locator('details', { has: page.getByText('Requirement 2: limits') }).locator('summary');
    await expect.poll(() => summary.textContent()).toContain('only in Kabel › Erdkabel and below');
    expect(await summary.textContent()).toContain('only in deu');
    expect(await languages(dialog).getByRole('checkbox', { name: 'Deutsch (deu)' }).isChecked()).toBe(true);
    expect(await languages(dialog).getByRole('checkbox', { name: 'English (eng)' }).isChecked()).toBe(false);
    const level2 = dialog.getByLabel('Requirement 2: category, level 2');
    await expect.poll(() => level2.locator('option:checked').textContent()).toBe('Erdkabel');
    expect(await dialog.getByLabel('Requirement 2: only in category').locator('option:checked').textContent()).toBe(
      'Kabel',
    );
    expect(
      await dialog.getByLabel('Requirement 2: catalog of the category').locator('option:checked').textContent(),
    ).toBe(CATALOG);
    // Requirement 1 has no limits: folded, saying so.
    const first = dialog.locator('details', { has: page.getByText('Requirement 1: limits') });
    expect(await first.getAttribute('open')).toBeNull();
    await expectAccessible(page, 'channel dialog reopened with limits');
    await screenshot(page, '20-channel-requirement-limits');

    // Requirement 1 removed: the limited one moves up with its limits and their inputs as they were.
    await dialog.getByRole('button', { name: 'Remove requirement 1' }).click();
    const moved = dialog.locator('details', { has: page.getByText('Requirement 1: limits') });
    expect(await moved.getAttribute('open')).not.toBeNull();
    expect(await moved.locator('summary').textContent()).toContain('only in Kabel › Erdkabel and below');
    expect(await dialog.getByLabel('Requirement 1: category, level 2').locator('option:checked').textContent()).toBe(
      'Erdkabel',
    );
    expect(await languages(dialog, 1).getByRole('checkbox', { name: 'Deutsch (deu)' }).isChecked()).toBe(true);

    // The channel stops publishing German: the API refuses the limit, shown under the row's languages.
    await dialog
      .getByRole('group', { name: 'Languages', exact: true })
      .getByRole('checkbox', { name: 'Deutsch (deu)' })
      .uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    const group = languages(dialog, 1);
    await expect.poll(() => group.getAttribute('aria-describedby')).toBeTruthy();
    const described = await group.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toContain('is not a language of the channel');
    await expectAccessible(page, 'channel dialog with a limit refused');
    // Nothing was written.
    const after = (await api(cookie, 'Catalog/GetChannels')).items.find(
      (c: { channelId: string }) => c.channelId === channelId,
    );
    expect(after.languages).toEqual(['deu', 'eng']);

    // Lifting both limits in the dialog removes them from the channel. German, no longer
    // published, is offered only while the limit names it: unchecked, it is gone.
    await group.getByRole('checkbox', { name: 'Deutsch (deu)' }).click();
    await expect.poll(() => group.getByRole('checkbox', { name: 'Deutsch (deu)' }).count()).toBe(0);
    expect(await group.getByRole('checkbox', { name: 'English (eng)' }).isChecked()).toBe(false);
    await dialog.getByLabel('Requirement 1: only in category').selectOption('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const lifted = (await api(cookie, 'Catalog/GetChannels')).items.find(
      (c: { channelId: string }) => c.channelId === channelId,
    );
    expect(lifted.languages).toEqual(['eng']);
    expect(lifted.requirements).toEqual([{ kind: 'field', field: 'gtin' }]);

    // Found by name instead: the search box of the catalog's categories, the hit shown by its path.
    dialog = await openDialog();
    await dialog
      .locator('details', { has: page.getByText('Requirement 1: limits') })
      .locator('summary')
      .click();
    await dialog.getByLabel('Requirement 1: catalog of the category').selectOption({ label: CATALOG });
    await dialog.getByLabel('Requirement 1: find a category by name').fill('erdk');
    const hits = dialog.getByRole('list', { name: 'Requirement 1: categories found' });
    await hits.getByRole('button', { name: 'Kabel › Erdkabel' }).waitFor();
    await screenshot(page, '21-channel-limit-search');
    await hits.getByRole('button', { name: 'Kabel › Erdkabel' }).click();
    const found = dialog.getByLabel('Requirement 1: category, level 2');
    await expect.poll(() => found.locator('option:checked').textContent()).toBe('Erdkabel');
    expect(await hits.count()).toBe(0);
    await expectAccessible(page, 'channel dialog with a category found by name');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const searched = (await api(cookie, 'Catalog/GetChannels')).items.find(
      (c: { channelId: string }) => c.channelId === channelId,
    );
    expect(searched.requirements).toEqual([{ kind: 'field', field: 'gtin', categoryId: erdkabel.categoryId }]);

    // Review before publishing, turned on below the requirements (ChannelReviewForm; docs/review.md).
    dialog = await openDialog();
    await dialog
      .getByRole('checkbox', { name: 'Products need an approval before this channel publishes them' })
      .check();
    await dialog.getByRole('radio', { name: 'Changes of these fields and/or languages' }).check();
    await dialog.getByLabel(/^Fields, separated by commas/).fill('name, price');
    await dialog
      .getByRole('group', { name: 'Languages (none checked: every language)' })
      .getByRole('checkbox', { name: 'eng' })
      .check();
    await dialog.getByRole('button', { name: 'Apply review setting' }).click();
    await expect
      .poll(
        async () =>
          (await api(cookie, 'Catalog/GetChannels')).items.find((c: { channelId: string }) => c.channelId === channelId)
            .review,
      )
      .toEqual({ enabled: true, rule: { kind: 'fields', fields: ['name', 'price'], languages: ['eng'] } });
    await expectAccessible(page, 'channel dialog with review on');
  });
});
