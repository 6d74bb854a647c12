import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
import { expectAccessible, expectAnnounced, launchChromium, newContext, SALES, signIn } from './web-browser';

/**
 * The service operator (operator@demo.test, also an admin of the demo company) loads a
 * proficl@ss release on the releases screen (files, format, progress, counts; a broken file ends
 * in its file, line and reason), then classifies a product against it in the editor with the
 * form typed from the release. A company admin who is not the operator sees the releases and
 * the company's own actions, no load form, and is refused the load. What was stored is read back through
 * the REST API. Only PROFICLASS releases are loaded here: other files pick ETIM classes from
 * the built-in data, which stays the default while no ETIM release is loaded.
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);
const csv = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');

/** A small proficl@ss release in the published single-file layout (UTF-8 here; Latin-1 is tested in unit tests). */
function releaseFiles(features = ['AAA003f001;Gewicht;numerisch;pc-7.0', 'AAA031f001;Höhe;numerisch;pc-7.0']) {
  const files: Record<string, string[]> = {
    'Einheiten.csv': [
      'Einheit_ID;Einheitcode;Einheitkurzbezeichnung;Einheitbezeichnung;Klassifikationssystem_ID',
      'AAA001u001;MMT;mm;Millimeter;pc-7.0',
    ],
    'Klassen.csv': [
      'Klasse_ID;Parent_ID;Klassenbezeichnung;Hierarchieebene;Klassifikationssystem_ID',
      'AAA446h002;;Arbeitssicherheit;1;pc-7.0',
      'EAB006c006;AAA446h002;Absperrgitter für Straßen;2;pc-7.0',
    ],
    'Merkmale.csv': [
      'Merkmal_ID;Merkmalbezeichnung;Datentyp;Klassifikationssystem_ID',
      ...features,
      'AAA100f001;Reflektierend;logisch;pc-7.0',
    ],
    'KlassenMerkmale_rel.csv': [
      'KlasseMerkmal_Nr;Klasse_ID;Merkmal_ID;Einheit_ID;Sortier_Nr;Mussmerkmal;Klassifikationssystem_ID',
      '1;EAB006c006;AAA003f001;;1;FALSE;pc-7.0',
      '2;EAB006c006;AAA031f001;AAA001u001;2;TRUE;pc-7.0',
      '3;EAB006c006;AAA100f001;;3;FALSE;pc-7.0',
    ],
  };
  return Object.entries(files).map(([name, lines]) => ({ name, mimeType: 'text/csv', buffer: csv(lines) }));
}

let browser: Browser;
let page: Page;
let cookie: string;
let catalogId: string;
/** The product the second test classifies against the first release, upgraded by the third. */
let gitterId: string;

beforeAll(async () => {
  cookie = await login('operator@demo.test');
  catalogId = (await api(cookie, 'Catalog/AddCatalog', { departmentId: SALES, name: `Releases ${suffix}` })).catalogId;
  browser = await launchChromium();
  page = await (await newContext(browser)).newPage();
  await signIn(page, base(), 'operator@demo.test');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (catalogId) await api(cookie, 'Catalog/DeleteCatalog', { departmentId: SALES, catalogId });
});

async function load(version: string, files: ReturnType<typeof releaseFiles>) {
  await page.getByLabel('System').selectOption('PROFICLASS');
  await page.getByLabel('Version', { exact: true }).fill(version);
  await page.getByLabel('Format').selectOption('PROFICLASS_CSV');
  await page.getByLabel('Release files').setInputFiles(files);
  await page.getByRole('button', { name: 'Load release' }).click();
}

it('loads a release from its files with progress and counts; a broken file ends in file, line and reason', async () => {
  await page.goto(`${base()}/releases`);
  await page.getByRole('heading', { name: 'Classification releases' }).waitFor();
  await expectAccessible(page, 'releases, empty form');

  await load(`e${suffix}`, releaseFiles());
  const counts = page.getByRole('definition').first();
  await counts.waitFor({ timeout: 60_000 });
  const count = (key: string) => page.locator(`[data-count="${key}"] dd`).textContent();
  expect(await count('classes')).toBe('2');
  expect(await count('features')).toBe('3');
  expect(await count('classFeatures')).toBe('3');
  const row = page.getByRole('row', { name: new RegExp(`PROFICLASS-e${suffix}`) });
  await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain('Loaded');
  await expectAccessible(page, 'releases, loaded');

  await page.getByLabel('Version', { exact: true }).fill('');
  await load(`b${suffix}`, releaseFiles(['AAA003f001;Gewicht;zahl;pc-7.0', 'AAA031f001;Höhe;numerisch;pc-7.0']));
  const failure = page.getByText(/The release was not loaded: Merkmale\.csv line \d+: Datentyp "zahl"/);
  await failure.waitFor({ timeout: 60_000 });
  const releases = (await (
    await fetch(`${base()}/api/Classification/GetReleases`, { headers: { Cookie: cookie } })
  ).json()) as { items: { release: string; status: string }[] };
  expect(releases.items.find((r: { release: string }) => r.release === `PROFICLASS-b${suffix}`)?.status).toBe('failed');
  expect(releases.items.find((r: { release: string }) => r.release === `PROFICLASS-e${suffix}`)?.status).toBe('loaded');
  await expectAccessible(page, 'releases, failed load');
}, 120_000);

it('classifies a product against the loaded release with the form typed from it', async () => {
  const release = `PROFICLASS-e${suffix}`;
  const product = await api(cookie, 'Catalog/AddProduct', {
    departmentId: SALES,
    catalogId,
    sku: `GITTER-${suffix}`,
    name: 'Gitter',
  });
  gitterId = product.productId;
  await page.goto(`${base()}/products/${product.productId}`);
  await page.getByRole('tab', { name: 'Classification' }).click();
  await page.getByLabel('System').selectOption('PROFICLASS');
  // The label wraps the select, so its accessible name includes the chosen option.
  await page.getByRole('combobox', { name: /^Release/ }).selectOption(release);
  await page.getByLabel('Find a class (code or name)').fill('absperrgitter');
  await page.getByRole('button', { name: /EAB006c006/ }).click();
  // Typed from the release: numbers with the release's unit symbol, a yes/no choice.
  const height = page.getByLabel('Höhe', { exact: true });
  await height.waitFor();
  expect(await page.locator('.unit').first().textContent()).toBe('mm');
  await height.fill('1200');
  await page.getByLabel('Reflektierend').selectOption('true');
  await page.getByRole('button', { name: 'Save classification' }).click();
  await expectAnnounced(page, 'Saved.');
  await expectAccessible(page, 'classification against a release');

  const read = (await (
    await fetch(`${base()}/api/Classification/GetElementClassification?elementId=${product.productId}`, {
      headers: { Cookie: cookie },
    })
  ).json()) as {
    classification: { classes: unknown[]; features: { code: string; value: string; unit: string | null }[] };
  };
  expect(read.classification.classes).toEqual([
    { group: 'PROFICLASS', system: release, code: 'EAB006c006', release, name: 'Absperrgitter für Straßen' },
  ]);
  expect(
    read.classification.features.map((f: { code: string; value: string; unit: string | null }) => [
      f.code,
      f.value,
      f.unit,
    ]),
  ).toEqual([
    ['AAA031f001', '1200', 'MMT'],
    ['AAA100f001', 'true', null],
  ]);
}, 90_000);

it('a newer release marks the class as on an old release; the releases screen verifies, shows the dry run and upgrades', async () => {
  const [old, next] = [`PROFICLASS-e${suffix}`, `PROFICLASS-f${suffix}`];
  await page.goto(`${base()}/releases`);
  await page.getByRole('heading', { name: 'Classification releases' }).waitFor();
  await page.getByLabel('Version', { exact: true }).fill('');
  await load(`f${suffix}`, releaseFiles());
  const row = page.getByRole('row', { name: new RegExp(next) });
  await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain('Loaded');

  const product = { productId: gitterId };
  await page.goto(`${base()}/products/${product.productId}`);
  await page.getByRole('tab', { name: 'Classification' }).click();
  const chip = page.locator('.chip', { hasText: 'EAB006c006' });
  await expect.poll(() => chip.textContent(), { timeout: 15_000 }).toContain('on an old release');

  await page.goto(`${base()}/releases`);
  // The release list counts the company's products on each release, linking to them.
  const onOld = page.getByRole('row', { name: new RegExp(old) }).getByRole('link');
  await expect.poll(() => onOld.textContent(), { timeout: 15_000 }).toBe('1');
  expect(await onOld.getAttribute('href')).toBe(`/products?classificationRelease=${old}`);
  await page.getByLabel('Against release').selectOption(next);
  await page.getByRole('button', { name: 'Verify kept codes' }).click();
  // The class was picked from the loaded release, so nothing is kept: the job ends with its counts at 0.
  const verified = page.locator('[data-count="classesVerified"] dd');
  await verified.waitFor({ timeout: 60_000 });
  expect(await verified.textContent()).toBe('0');

  await page.getByLabel('From release').selectOption(old);
  await page.getByLabel('To release').selectOption(next);
  await page.getByRole('button', { name: 'Dry run' }).click();
  await page.getByText(`1 classifications on ${old}; 1 move to ${next}.`).waitFor({ timeout: 15_000 });
  await expectAccessible(page, 'releases, upgrade dry run');
  await page.getByRole('button', { name: 'Start the upgrade' }).click();
  const moved = page.locator('[data-count="moved"] dd');
  await moved.waitFor({ timeout: 60_000 });
  expect(await moved.textContent()).toBe('1');

  const read = (await (
    await fetch(`${base()}/api/Classification/GetElementClassification?elementId=${product.productId}`, {
      headers: { Cookie: cookie },
    })
  ).json()) as { classification: { classes: { release: string }[] } };
  expect(read.classification.classes.map((c) => c.release)).toEqual([next]);
}, 180_000);

it('a company admin who is not the operator sees the releases and its own actions, no load form, and is refused the load', async () => {
  const adminPage = await (await newContext(browser)).newPage();
  await signIn(adminPage, base(), 'admin@demo.test');
  await adminPage.goto(`${base()}/releases`);
  await adminPage.getByRole('heading', { name: 'Classification releases' }).waitFor();
  await adminPage.getByText('only the service operator loads or replaces them', { exact: false }).waitFor();
  await adminPage.getByRole('button', { name: 'Verify kept codes' }).waitFor({ timeout: 15_000 });
  expect(await adminPage.getByRole('heading', { name: 'Load a release' }).count()).toBe(0);
  expect(await adminPage.getByLabel('Release files').count()).toBe(0);
  await expect
    .poll(() => adminPage.getByRole('row', { name: new RegExp(`PROFICLASS-e${suffix}`) }).count(), { timeout: 15_000 })
    .toBe(1);
  await expectAccessible(adminPage, 'releases, company admin');

  const adminCookie = await login('admin@demo.test');
  const refused = await fetch(`${base()}/api/Classification/StartReleaseLoad`, {
    method: 'POST',
    headers: { Cookie: adminCookie, 'Content-Type': 'application/json' },
    body: JSON.stringify({ system: 'PROFICLASS', version: `x${suffix}`, files: [] }),
  });
  expect([refused.status, ((await refused.json()) as { error: string }).error]).toEqual([
    403,
    'only the service operator may do this',
  ]);
  const me = (await (await fetch(`${base()}/api/Account/Me`, { headers: { Cookie: adminCookie } })).json()) as {
    operator: boolean;
  };
  expect(me.operator).toBe(false);
  await adminPage.close();
}, 90_000);
