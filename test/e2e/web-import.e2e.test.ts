import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
import { expectAccessible, launchChromium, newContext, SALES, screenshot, signIn, dropFile } from './web-browser';

/**
 * The import screen as a new user meets it: a supplier's BMEcat file dropped on the screen is
 * uploaded, checked (dry run: format, languages, counts, nothing written), started, and ends in
 * the report grouped by reason, which downloads; the import is listed. A file that is not XML
 * ends in a plain-words error. Every check of what was written reads the REST API.
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);

/** BMEcat 2005 in German and English: one good product, one with a wrong GTIN check digit, one SKU twice. */
const SUPPLIER_FILE = `<?xml version="1.0" encoding="UTF-8"?>
<BMECAT version="2005" xmlns="http://www.bmecat.org/bmecat/2005fd">
<HEADER><CATALOG><LANGUAGE default="true">deu</LANGUAGE><LANGUAGE>eng</LANGUAGE><CATALOG_ID>L1</CATALOG_ID><CATALOG_VERSION>1.0</CATALOG_VERSION></CATALOG>
<SUPPLIER><SUPPLIER_NAME>Lieferant</SUPPLIER_NAME></SUPPLIER></HEADER>
<T_NEW_CATALOG>
<PRODUCT><SUPPLIER_PID>OK-${suffix}</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Schraube</DESCRIPTION_SHORT></PRODUCT_DETAILS></PRODUCT>
<PRODUCT><SUPPLIER_PID>GTIN-${suffix}</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Mutter</DESCRIPTION_SHORT><INTERNATIONAL_PID type="gtin">4006381333932</INTERNATIONAL_PID></PRODUCT_DETAILS></PRODUCT>
<PRODUCT><SUPPLIER_PID>DUP-${suffix}</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Dübel</DESCRIPTION_SHORT></PRODUCT_DETAILS></PRODUCT>
<PRODUCT><SUPPLIER_PID>DUP-${suffix}</SUPPLIER_PID><PRODUCT_DETAILS><DESCRIPTION_SHORT>Dübel 2</DESCRIPTION_SHORT></PRODUCT_DETAILS></PRODUCT>
</T_NEW_CATALOG>
</BMECAT>
`;

let browser: Browser;
let page: Page;
let cookie: string;
let catalogId: string;

beforeAll(async () => {
  cookie = await login('editor@demo.test');
  catalogId = (await api(cookie, 'Catalog/AddCatalog', { departmentId: SALES, name: `Import ${suffix}` })).catalogId;
  browser = await launchChromium();
  page = await (await newContext(browser)).newPage();
  await signIn(page, base(), 'editor@demo.test');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  // Other e2e files export every catalog of the demo company: this one goes again.
  if (catalogId) await api(cookie, 'Catalog/DeleteCatalog', { departmentId: SALES, catalogId });
});

it('takes a BMEcat file from drop to report: check, start, report by reason, download, listed', async () => {
  await page.goto(`${base()}/imports?catalog=${catalogId}`);
  await page.getByRole('heading', { name: 'Import a supplier file' }).waitFor();
  await expectAccessible(page, 'imports, empty');
  await dropFile(page, 'lieferant.xml', SUPPLIER_FILE, 'text/xml');

  // The check: facts of the file and what would happen, before anything is written.
  const check = page.getByRole('region', { name: 'What the file holds (checked, nothing written yet)' });
  await check.getByRole('button', { name: 'Start import' }).waitFor({ timeout: 30_000 });
  const facts = check.locator('dl.file-facts');
  await expect.poll(() => facts.textContent()).toContain('BMEcat');
  expect(await facts.textContent()).toMatch(/Version2005.*TransactionT_NEW_CATALOG.*EncodingUTF-8.*Languagesdeu, eng/);
  const count = (scope: typeof check, key: string) => scope.locator(`[data-count="${key}"] dd`).textContent();
  expect(await count(check, 'created')).toBe('3');
  expect(await count(check, 'rejected')).toBe('1');
  expect(await count(check, 'warnings')).toBe('1');
  expect(await check.locator('[data-reason="sku_duplicate"]').textContent()).toContain('The same article number twice');
  expect((await api(cookie, `Catalog/GetProducts?catalogId=${catalogId}`)).items).toEqual([]);
  await expectAccessible(page, 'imports, checked');
  await screenshot(page, 'imports-checked');

  await check.getByRole('button', { name: 'Start import' }).click();
  const done = page.getByRole('region', { name: 'Import finished' });
  await done.waitFor({ timeout: 30_000 });
  expect(await count(done, 'created')).toBe('3');
  const duplicate = done.locator('[data-reason="sku_duplicate"]');
  expect(await duplicate.textContent()).toMatch(/Rejected\s*1×.*DUP-/);
  const gtin = done.locator('[data-reason="field_invalid"]');
  expect(await gtin.textContent()).toMatch(/Warning\s*1×/);
  await gtin.locator('summary').click();
  expect(await gtin.textContent()).toContain('4006381333932');
  await expectAccessible(page, 'imports, finished');
  await screenshot(page, 'imports-report');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    done.getByRole('link', { name: 'Download the report (CSV)' }).click(),
  ]);
  const csv = await (await download.createReadStream()).toArray();
  const text = Buffer.concat(csv).toString('utf8');
  expect(text).toContain('# rejected sku_duplicate: 1');
  expect(text).toContain(`GTIN-${suffix}`);

  const skus = (await api(cookie, `Catalog/GetProducts?catalogId=${catalogId}`)).items.map(
    (p: { sku: string }) => p.sku,
  );
  // The first product with the duplicate SKU is imported, the second rejected.
  expect(skus.sort()).toEqual([`DUP-${suffix}`, `GTIN-${suffix}`, `OK-${suffix}`].sort());

  // The list of past imports: the check and the import, newest first, with who and the counts.
  const rows = page.getByRole('region', { name: 'Past imports' }).locator('tbody tr');
  await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
  expect(await rows.first().textContent()).toMatch(/lieferant\.xml.*Done.*3 new, 0 changed, 1 rejected, 1 warnings/);
  expect(await rows.nth(1).textContent()).toContain('check only');
}, 120_000);

it('shows a plain-words error for a file that is not XML', async () => {
  await page.goto(`${base()}/imports?catalog=${catalogId}`);
  await page.locator('input[type="file"]').setInputFiles({
    name: 'preisliste.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4 not a catalog'),
  });
  const alert = page.getByRole('alert').filter({ hasText: 'cannot be imported' });
  await alert.waitFor({ timeout: 30_000 });
  expect(await alert.textContent()).toContain('This file is not a product catalog');
  await expectAccessible(page, 'imports, failed');
}, 60_000);

it('uploads a file over 8 MB in parts (CreateUpload, UploadPart, CompleteUpload) and checks it', async () => {
  // 9 MB of comment inside the catalog: the reader passes over it, the upload must carry it whole.
  const padding = `<!-- ${'x'.repeat(9 * 1024 * 1024)} -->`;
  const large = SUPPLIER_FILE.replace('<T_NEW_CATALOG>', `<T_NEW_CATALOG>${padding}`);
  const parts: string[] = [];
  page.on('request', (r) => {
    const operation = new URL(r.url()).pathname.replace('/api/Import/', '');
    if (/Upload/.test(operation)) parts.push(operation);
  });
  await page.goto(`${base()}/imports?catalog=${catalogId}`);
  await page.locator('input[type="file"]').setInputFiles({
    name: 'gross.xml',
    mimeType: 'text/xml',
    buffer: Buffer.from(large),
  });
  const check = page.getByRole('region', { name: 'What the file holds (checked, nothing written yet)' });
  await check.getByRole('button', { name: 'Start import' }).waitFor({ timeout: 60_000 });
  expect(parts).toEqual(['CreateUpload', 'UploadPart', 'CompleteUpload']);
  const [latest] = (await api(cookie, `Import/GetImports?catalogId=${catalogId}&limit=1`)).items;
  expect(latest).toMatchObject({ fileName: 'gross.xml', fileSize: Buffer.byteLength(large), dryRun: true });
  expect(await check.locator('[data-count="total"] dd').textContent()).toBe('4');
}, 120_000);
