import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lagServerArgs, prepareLagState } from '../../scripts/lib/dev-lag';
import { type DevServer, startDevServer } from '../../scripts/lib/dev-server';
import { stateFingerprint } from './global-setup';
import { expectAnnounced, launchChromium, newContext, signIn } from './web-browser';

/**
 * Read-your-writes in the browser under replica lag (issue 22; docs/scaling.md section 6): the
 * server runs as `npm run dev -- --lag` does, every database behind a simulated replica that
 * trails it by LAG_MS. A user renames a product in the editor, reloads the grid and opens the
 * product again, and sees the new name each time; a raw REST read with the same session but
 * without the bookmark still sees the old one (so the lag was real all along). One user of a
 * company in cell-1, then, in the same tab, one of a company in cell-2: the tab keeps both
 * cells' bookmarks (web/src/api/bookmark.ts).
 */
const LAG_MS = 120_000;
const suffix = Date.now().toString(36).slice(-5);

let server: DevServer;
let state: string;
let browser: Browser;

/** The demo state with replicas (the seeded e2e state, each replica a copy of its primary), built once per fingerprint, copied per run. */
async function lagState(): Promise<string> {
  const cache = join(process.cwd(), 'node_modules', '.cache', 'pim-e2e-lag', stateFingerprint());
  if (!existsSync(join(cache, 'ready'))) {
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    await prepareLagState(cache, inject('seededState'));
    writeFileSync(join(cache, 'ready'), '');
  }
  const dir = mkdtempSync(join(tmpdir(), 'pim-e2e-lag-'));
  cpSync(cache, dir, { recursive: true });
  return dir;
}

beforeAll(async () => {
  state = await lagState();
  server = await startDevServer(state, { args: lagServerArgs(LAG_MS) });
  browser = await launchChromium();
}, 1_800_000);
afterAll(async () => {
  await browser?.close();
  server?.stop();
  if (state) rmSync(state, { recursive: true, force: true });
});

const url = (path: string) => `${server.baseUrl}${path}`;

async function browserCookie(page: Page): Promise<string> {
  const c = (await page.context().cookies()).find((x) => x.name === 'Service.Cookie');
  return `${c!.name}=${c!.value}`;
}

/** A REST read with the browser's session cookie and only the bookmark given (none: unconstrained). */
async function rawGet(page: Page, path: string, bookmark?: string): Promise<any> {
  const res = await fetch(url(`/api/${path}`), {
    headers: { Cookie: await browserCookie(page), ...(bookmark ? { 'x-d1-bookmark': bookmark } : {}) },
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** The first product of the signed-in user's first catalog. */
async function someProduct(page: Page) {
  const catalog = (await rawGet(page, 'Catalog/GetCatalogs?limit=1')).items[0];
  const product = (await rawGet(page, `Catalog/GetProducts?catalogId=${catalog.catalogId}&limit=1`)).items[0];
  return {
    catalogId: catalog.catalogId as string,
    productId: product.productId as string,
    name: product.name as string,
    sku: product.sku as string,
  };
}

/** What the tab keeps (web/src/api/bookmark.ts): the newest bookmark per database. */
const keptBookmarks = (page: Page) =>
  page.evaluate(
    () => JSON.parse(globalThis.sessionStorage.getItem('pim.d1-bookmarks') ?? '{}') as Record<string, string>,
  );

async function renameAndReadBack(page: Page, email: string, cell: 'cell-1' | 'cell-2'): Promise<void> {
  await signIn(page, server.baseUrl, email);
  const product = await someProduct(page);
  const renamed = `${product.name} (lag ${suffix})`;

  await page.goto(url(`/products/${product.productId}`));
  const name = page.getByLabel('Name', { exact: true });
  await expect.poll(() => name.inputValue()).toBe(product.name);
  await name.fill(renamed);
  await page.getByRole('button', { name: 'Save' }).click();
  await expectAnnounced(page, 'Saved.');

  // The control: the same session without a bookmark reads the replica, which lags.
  expect((await rawGet(page, `Catalog/GetProduct?productId=${product.productId}`)).name).toBe(product.name);
  const kept = await keptBookmarks(page);
  expect(kept[cell], JSON.stringify(kept)).toMatch(cell === 'cell-1' ? /^sim-/ : /^cell-2:sim-/);

  // A full reload of the grid (the tab's memory is gone, its bookmarks are not) ...
  await page.goto(url(`/products?catalog=${product.catalogId}`));
  await page.getByText(renamed, { exact: true }).first().waitFor({ timeout: 20_000 });
  // ... and back into the product through the app.
  await page.getByRole('link', { name: `Open product ${product.sku}` }).click();
  await expect.poll(() => name.inputValue(), { timeout: 20_000 }).toBe(renamed);

  // Still within the lag: without the bookmark the old name, with the tab's bookmark the new.
  expect((await rawGet(page, `Catalog/GetProduct?productId=${product.productId}`)).name).toBe(product.name);
  expect((await rawGet(page, `Catalog/GetProduct?productId=${product.productId}`, kept[cell])).name).toBe(renamed);
}

describe('the web app under replica lag (npm run dev -- --lag)', () => {
  it('shows its own writes after a reload and a navigation, in cell-1 and then, in the same tab, in cell-2', async () => {
    const page = await (await newContext(browser)).newPage();
    await renameAndReadBack(page, 'editor@demo.test', 'cell-1');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    await renameAndReadBack(page, 'other@demo.test', 'cell-2');
    // Both databases' bookmarks are kept side by side, cell-1's not replaced by cell-2's.
    expect(Object.keys(await keptBookmarks(page)).sort()).toEqual(['cell-1', 'cell-2']);
    await page.context().close();
  });
});
