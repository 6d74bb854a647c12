import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
import { expectAccessible, expectAnnounced, launchChromium, newContext, SALES, signIn } from './web-browser';

/**
 * The product editor's Links and Other features tabs (docs/web.md): a user adds, edits, orders
 * and deletes media links beside an uploaded file, and edits feature blocks of other systems
 * (system, group, features, values; a block added, one removed), through the UI only. The API
 * is read only to check what the UI did; axe-core checks each tab.
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function setUp() {
  const cookie = await login('editor@demo.test');
  const catalog = await api(cookie, 'Catalog/AddCatalog', { departmentId: SALES, name: `E2E Links ${suffix}` });
  const product = await api(cookie, 'Catalog/AddProduct', {
    departmentId: SALES,
    catalogId: catalog.catalogId,
    sku: `E2E-LINK-${suffix}`,
    name: 'Kabelbinder 200 mm',
  });
  return { cookie, productId: product.productId as string };
}

describe('media links and feature blocks in the product editor (editor@demo.test)', () => {
  it('adds, edits, orders and deletes links among uploaded files', async () => {
    const { cookie, productId } = await setUp();
    const upload = await fetch(
      `${base()}/api/Media/Upload?departmentId=${SALES}&elementId=${productId}&fileName=photo.png`,
      { method: 'POST', headers: { Cookie: cookie, 'Content-Type': 'image/png' }, body: PNG },
    );
    expect(upload.status).toBe(200);

    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'editor@demo.test');
    await page.goto(`${base()}/products/${productId}?tab=links`);
    await page.getByText('No links yet.').waitFor();
    const form = page.getByRole('form', { name: 'Add a link' });
    await form.getByLabel('Address (https://…)').fill('https://cdn.example.com/sheets/kb-200.pdf');
    await form.getByLabel('Use').selectOption('data_sheet');
    await form.getByLabel('ETIM MIME code').fill('md02');
    await form.getByLabel('Description').fill('Datenblatt');
    await form.getByRole('button', { name: 'Add link' }).click();
    await expectAnnounced(page, 'Link added.');
    await form.getByLabel('Address (https://…)').fill('https://cdn.example.com/img/kb-200.jpg');
    await form.getByLabel('Alternative text').fill('Kabelbinder');
    await form.getByRole('button', { name: 'Add link' }).click();
    await expectAnnounced(page, 'Link added.');
    const list = page.getByRole('list', { name: 'Links in their order' });
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    await expectAccessible(page, 'links tab');

    // A bad address is refused in words, and nothing changes.
    await page.getByRole('button', { name: 'Edit “kb-200.pdf”' }).click();
    const edit = page.getByRole('form', { name: 'Change the link' });
    await edit.getByLabel('ETIM MIME code').fill('X1');
    await edit.getByRole('button', { name: 'Save' }).click();
    // The refusal is the form's alert (the field's label also reads "ETIM MIME code").
    const refusal = edit.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/MIME code such as MD01/);
    await edit.getByLabel('ETIM MIME code').fill('MD22');
    await edit.getByLabel('Description').fill('Datenblatt 2026');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectAnnounced(page, 'Link saved.');

    // The image link moves before the data sheet; the uploaded file keeps the first place.
    await page.getByRole('button', { name: 'Move “kb-200.jpg” forward' }).click();
    await expectAnnounced(page, 'Order saved.');
    await expect
      .poll(async () => (await list.getByRole('listitem').first().textContent()) ?? '')
      .toMatch(/kb-200\.jpg/);
    const media = (await api(cookie, `Catalog/GetProduct?productId=${productId}`)).media;
    expect(media.map((m: { fileName: string }) => m.fileName)).toEqual(['photo.png', 'kb-200.jpg', 'kb-200.pdf']);
    expect(media[2]).toMatchObject({
      kind: 'link',
      url: 'https://cdn.example.com/sheets/kb-200.pdf',
      purpose: 'data_sheet',
      mimeCode: 'MD22',
      description: 'Datenblatt 2026',
      contentType: 'application/pdf',
    });
    expect(media[1]).toMatchObject({ kind: 'link', alt: 'Kabelbinder', contentType: 'image/jpeg' });

    await page.getByRole('button', { name: 'Delete “kb-200.pdf”' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete link?' });
    await expectAccessible(page, 'delete link dialog');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(
        async () =>
          (await api(cookie, `Catalog/GetProduct?productId=${productId}`)).media.map(
            (m: { fileName: string }) => m.fileName,
          ),
        { message: 'the link is deleted on the server' },
      )
      .toEqual(['photo.png', 'kb-200.jpg']);
    await expect.poll(() => list.getByRole('listitem').count(), { message: 'the Links tab lists one link' }).toBe(1);
    // The Media tab shows the uploaded file only.
    await page.getByRole('tab', { name: /^Media/ }).click();
    await expect
      .poll(() => page.getByRole('list', { name: 'Media in their order' }).getByRole('listitem').count(), {
        message: 'the Media tab lists the uploaded file only',
      })
      .toBe(1);
  });

  it('edits feature blocks of other systems: group, values, a new feature, a new block, a removed block', async () => {
    const { cookie, productId } = await setUp();
    await api(cookie, 'Catalog/SetFeatureBlocks', {
      departmentId: SALES,
      productId,
      featureBlocks: [
        { system: 'UNSPSC', groupId: '31162800', features: [{ name: 'Farbe', values: ['natur'] }] },
        {
          system: 'ECLASS-ADVANCED',
          features: [{ ftId: '0173-1#02-AAA123#001', fid: '1', values: ['5'], unit: 'mm' }],
        },
      ],
    });
    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'editor@demo.test');
    await page.goto(`${base()}/products/${productId}?tab=feature-blocks`);
    const first = page.getByRole('group', { name: 'Block 1: UNSPSC' });
    await first.waitFor();
    await expectAccessible(page, 'feature blocks tab');
    await first.getByLabel('Group name').fill('Kabelbinder');
    await first.getByLabel('Values 1.1', { exact: true }).fill('natur\nschwarz');
    await first.getByRole('button', { name: 'Add feature' }).click();
    await first.getByLabel('Feature 1.2', { exact: true }).fill('Länge');
    await first.getByLabel('Values 1.2', { exact: true }).fill('200');
    await first.getByLabel('Unit 1.2', { exact: true }).fill('mm');
    await page.getByRole('button', { name: 'Add block' }).click();
    const third = page.getByRole('group', { name: /^Block 3/ });
    await third.getByLabel('Feature system').fill('udf_NMTECHNICALDATA-1.0');
    await third.getByLabel('Feature 3.1', { exact: true }).fill('Material');
    await third.getByLabel('Values 3.1', { exact: true }).fill('PA 6.6');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectAnnounced(page, 'Saved.');

    let blocks = (await api(cookie, `Catalog/GetFeatureBlocks?productId=${productId}`)).featureBlocks;
    expect(blocks).toEqual([
      {
        system: 'UNSPSC',
        groupId: '31162800',
        groupId2: null,
        groupName: 'Kabelbinder',
        features: [
          { name: 'Farbe', values: ['natur', 'schwarz'] },
          { name: 'Länge', values: ['200'], unit: 'mm' },
        ],
      },
      // The eCl@ss Advanced feature keeps what the form does not show (FT_ID, FID).
      {
        system: 'ECLASS-ADVANCED',
        groupId: null,
        groupId2: null,
        groupName: null,
        features: [{ ftId: '0173-1#02-AAA123#001', values: ['5'], unit: 'mm', fid: '1' }],
      },
      {
        system: 'udf_NMTECHNICALDATA-1.0',
        groupId: null,
        groupId2: null,
        groupName: null,
        features: [{ name: 'Material', values: ['PA 6.6'] }],
      },
    ]);

    await page.getByRole('button', { name: 'Remove block 2' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () =>
        (await api(cookie, `Catalog/GetFeatureBlocks?productId=${productId}`)).featureBlocks.map(
          (b: { system: string }) => b.system,
        ),
      )
      .toEqual(['UNSPSC', 'udf_NMTECHNICALDATA-1.0']);
    // Opened again, the tab shows what was saved; emptying the list is sent with clear: true.
    await page.goto(`${base()}/products/${productId}?tab=feature-blocks`);
    await page.getByRole('group', { name: 'Block 2: udf_NMTECHNICALDATA-1.0' }).waitFor();
    expect(await page.getByRole('group', { name: /^Block 3/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Remove block 1' }).click();
    await page.getByRole('button', { name: 'Remove block 1' }).click();
    await page.getByText('No features of other systems.').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(async () => (await api(cookie, `Catalog/GetFeatureBlocks?productId=${productId}`)).featureBlocks.length)
      .toBe(0);
    blocks = (await api(cookie, `Catalog/GetHistory?elementId=${productId}`)).items;
    expect(blocks.length).toBeGreaterThanOrEqual(4);
  });
});
