import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startDevServer, type DevServer } from '../../scripts/lib/dev-server';
import { etimIxfFile } from '../helpers/release-ixf-fixture';
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
 * The class picker's group filter against an ETIM IXF release (the format with class groups).
 * Releases are reference data shared by every company, and the picker chooses the newest loaded
 * ETIM release by default: an ETIM release on the shared e2e server would take the built-in data
 * away from every other browser test. So this file runs its own wrangler dev on a copy of the
 * seeded demo state, loads the release there, and throws the state away at the end.
 */
const RELEASE = 'ETIM-10.0';

let server: DevServer;
let dir: string;
let browser: Browser;
let page: Page;
let cookie: string;

async function call(path: string, init: { body?: unknown; raw?: string; query?: string } = {}): Promise<any> {
  const post = init.body !== undefined || init.raw !== undefined;
  const res = await fetch(`${server.baseUrl}/api/${path}${init.query ?? ''}`, {
    method: post ? 'POST' : 'GET',
    headers: {
      Cookie: cookie,
      Origin: server.baseUrl,
      ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(init.raw !== undefined ? { 'Content-Type': 'application/xml' } : {}),
    },
    body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Uploads the IXF fixture and loads it as ETIM 10.0 (its Header says 10.0), waiting for the job. */
async function loadGroupedRelease() {
  const [[name, file]] = Object.entries(etimIxfFile({ releaseVersion: '10.0' })) as [[string, { content: string }]];
  const { fileId } = await call('Import/Upload', { query: `?fileName=${name}`, raw: file.content });
  const started = await call('Classification/StartReleaseLoad', {
    body: { system: 'ETIM', version: '10.0', format: 'ETIM_XML', files: [{ fileId }] },
  });
  expect(started).toMatchObject({ status: 'loading', jobId: expect.any(String) });
  // expect.poll only runs inside a test; this is the file's setup.
  const deadline = Date.now() + 60_000;
  let status: string | undefined;
  while (status !== 'loaded' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const { items } = await call('Classification/GetReleases');
    status = items.find((r: { release: string }) => r.release === RELEASE)?.status;
  }
  expect(status).toBe('loaded');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pim-e2e-groups-'));
  cpSync(inject('seededState'), dir, { recursive: true });
  [server, browser] = await Promise.all([startDevServer(dir), launchChromium()]);
  const login = await fetch(`${server.baseUrl}/api/Account/Login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'operator@demo.test', password: 'demo-password-1' }),
  });
  cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  await loadGroupedRelease();
  page = await (await newContext(browser)).newPage();
  await signIn(page, server.baseUrl, 'admin@demo.test');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it("filters the class search by the release's groups, shows each match's group, and classifies with the class picked", async () => {
  const { catalogId } = await call('Catalog/AddCatalog', { body: { departmentId: SALES, name: 'Kabel' } });
  const product = await call('Catalog/AddProduct', {
    body: { departmentId: SALES, catalogId, sku: 'DUCT-1', name: 'Kabelkanal' },
  });
  await page.goto(`${server.baseUrl}/products/${product.productId}`);
  await page.getByRole('tab', { name: 'Classification' }).click();
  // The loaded ETIM release is the default; its groups are offered, all groups first.
  const releaseSelect = page.getByRole('combobox', { name: /^Release/ });
  await expect.poll(() => releaseSelect.inputValue(), { timeout: 15_000 }).toBe(RELEASE);
  const groupSelect = page.getByRole('combobox', { name: /^Class group/ });
  await groupSelect.waitFor();
  expect(await groupSelect.locator('option').allTextContents()).toEqual([
    'All groups',
    'EG000017 Installation material',
    'EG000020 Cable management',
  ]);
  expect(await groupSelect.inputValue()).toBe('');

  // All groups: both cable classes, each with its group.
  await page.getByLabel('Find a class (code or name)').fill('cable');
  const results = page.getByRole('list', { name: 'Classes found' }).getByRole('button');
  await expect.poll(() => results.count(), { timeout: 15_000 }).toBe(2);
  const texts = await results.allTextContents();
  expect(texts.find((x) => x.includes('EC000905'))).toContain('Group EG000017 Installation material');
  expect(texts.find((x) => x.includes('EC000042'))).toContain('Group EG000020 Cable management');
  await expectAccessible(page, 'class picker with class groups');
  await screenshot(page, 'class-picker-groups');

  // One group: only its class.
  await groupSelect.selectOption('EG000020');
  await expect.poll(() => results.count(), { timeout: 15_000 }).toBe(1);
  expect(await results.allTextContents()).toEqual([expect.stringMatching(/^EC000042 Cable duct.*EG000020/)]);

  // The built-in reference data has no groups: the filter is hidden; back on the release it starts from all groups.
  await releaseSelect.selectOption('');
  await expect.poll(() => groupSelect.count()).toBe(0);
  await releaseSelect.selectOption(RELEASE);
  await groupSelect.waitFor();
  expect(await groupSelect.inputValue()).toBe('');
  await groupSelect.selectOption('EG000020');
  await expect.poll(() => results.count(), { timeout: 15_000 }).toBe(1);

  await results.first().click();
  const halogenFree = page.getByLabel('Halogen free');
  await halogenFree.waitFor();
  await halogenFree.selectOption('true');
  await page.getByRole('button', { name: 'Save classification' }).click();
  await expectAnnounced(page, 'Saved.');

  const read = await call('Classification/GetElementClassification', { query: `?elementId=${product.productId}` });
  expect(read.classification.classes).toEqual([
    { group: 'ETIM', system: RELEASE, code: 'EC000042', release: RELEASE, name: 'Cable duct' },
  ]);
  expect(read.classification.features.map((f: { code: string; value: string }) => [f.code, f.value])).toEqual([
    ['EF000139', 'true'],
  ]);

  // In the German interface the groups are asked in German: the release names EG000017 in German only.
  await page.getByRole('combobox', { name: /^Language/ }).selectOption('de');
  const germanGroups = page.getByRole('combobox', { name: /^Klassengruppe/ });
  await expect
    .poll(() => germanGroups.locator('option').allTextContents(), { timeout: 15_000 })
    .toEqual(['Alle Gruppen', 'EG000017 Installationsmaterial', 'EG000020 Cable management']);

  // The feature form is asked in the interface language too: Kabelbinder's width is "Breite"; a
  // feature the release names in English only keeps its English name.
  await germanGroups.selectOption('');
  await page.getByLabel('Klasse suchen (Code oder Name)').fill('Kabelbinder');
  const germanResults = page.getByRole('list', { name: 'Gefundene Klassen' }).getByRole('button');
  await expect.poll(() => germanResults.count(), { timeout: 15_000 }).toBe(1);
  await germanResults.first().click();
  await page.getByLabel(/^Breite/).waitFor();
  expect(await page.getByLabel(/^Width/).count()).toBe(0);
  await page.getByLabel(/^Colour/).waitFor();
}, 120_000);
