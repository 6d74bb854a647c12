import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
import { expectAccessible, expectAnnounced, launchChromium, newContext, SALES, signIn } from './web-browser';

/**
 * A team at work (issue 33, docs/teams.md and docs/review.md), in the browser: a translator for
 * French finds the French gaps only, writes one French name, submits it for review and cannot
 * start an export; a reviewer approves it in the review inbox; the channel's export then has the
 * product with its French name, and before the approval it did not.
 *
 * The demo seed has no translator or reviewer and the API adds no user with a password, so two
 * demo editors take those roles for the test and get `editor` back in afterAll (the e2e files run
 * one after another on one server). The catalog, channel and template are the test's own.
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);
const SKU = `E2E-TEAM-${suffix}`;
const CHANNEL = `E2E Team ${suffix}`;
const FRENCH_NAME = `Contacteur tripolaire ${suffix}`;
const TRANSLATOR = 'noai@demo.test';
const REVIEWER = 'editor@demo.test';

let browser: Browser;
let admin: string;
let saved: { defaultLanguage: string; languages: { code: string }[] };
const members = new Map<string, { userId: string; role: string }>();
let catalogId: string | undefined;
let channelId: string | undefined;
let templateId: string | undefined;

beforeAll(async () => {
  browser = await launchChromium();
  admin = await login('admin@demo.test');
  saved = await api(admin, 'Catalog/GetLanguages');
  const users = (await api(admin, 'Account/GetUsers')).items as { userId: string; email: string; role: string }[];
  for (const email of [TRANSLATOR, REVIEWER]) {
    const user = users.find((u) => u.email === email);
    if (!user) throw new Error(`demo user ${email} missing`);
    members.set(email, user);
  }
});
afterAll(async () => {
  await browser?.close();
  // Shared server and seed: every role, catalog, channel and language back as it was.
  for (const { userId, role } of members.values()) await api(admin, 'Account/SetMemberRole', { userId, role });
  const users = (await api(admin, 'Account/GetUsers')).items as { userId: string; role: string; languages: string[] }[];
  for (const { userId, role } of members.values())
    expect(users.find((u) => u.userId === userId)).toMatchObject({ role, languages: [] });
  if (templateId) await api(admin, 'Export/DeleteTemplate', { templateId });
  if (channelId) await api(admin, 'Catalog/DeleteChannel', { channelId });
  if (catalogId) await api(admin, 'Catalog/DeleteCatalog', { departmentId: SALES, catalogId });
  await api(admin, 'Catalog/SetLanguages', {
    defaultLanguage: saved.defaultLanguage,
    languages: saved.languages.map((l) => l.code),
  });
});

/** The channel's BMEcat export through the template: its file, and its warnings. */
async function exportChannel(): Promise<{ xml: string; warnings: string[] }> {
  const { jobId } = await api(admin, 'Export/StartExport', { departmentId: SALES, catalogId, templateId });
  let job: { state: string; warnings: string[] };
  for (;;) {
    job = await api(admin, `Job/GetJob?jobId=${jobId}`);
    if (['succeeded', 'failed', 'cancelled'].includes(job.state)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(job.state).toBe('succeeded');
  const download = await fetch(`${base()}/api/Export/Download?jobId=${jobId}`, { headers: { Cookie: admin } });
  expect(download.status).toBe(200);
  return { xml: await download.text(), warnings: job.warnings };
}

/** The options of the grid's "Translation missing in" filter, as the user sees them. */
async function gapOptions(page: Page): Promise<string[]> {
  return page.getByLabel('Translation missing in').locator('option').allTextContents();
}

describe('a translator, a reviewer and a channel with review (issue 33)', () => {
  it('the translator writes French only and cannot publish; the export takes it once the reviewer approved', async () => {
    const languages = [...new Set([...saved.languages.map((l) => l.code), 'eng', 'fra'])];
    await api(admin, 'Catalog/SetLanguages', { defaultLanguage: saved.defaultLanguage, languages });
    catalogId = (
      await api(admin, 'Catalog/AddCatalog', {
        departmentId: SALES,
        name: `E2E Team ${suffix}`,
        language: 'deu',
        languages: ['eng', 'fra'],
      })
    ).catalogId;
    const product = await api(admin, 'Catalog/AddProduct', {
      departmentId: SALES,
      catalogId,
      sku: SKU,
      name: 'Schütz 3-polig',
    });
    channelId = (
      await api(admin, 'Catalog/AddChannel', {
        name: CHANNEL,
        languages: ['deu', 'fra'],
        requirements: [{ kind: 'field', field: 'sku' }],
      })
    ).channelId;
    await api(admin, 'Catalog/SetChannelReview', { channelId, enabled: true, rule: { kind: 'any' } });
    templateId = (
      await api(admin, 'Export/AddTemplate', { name: CHANNEL, exportType: 'BMEcat', options: { channelId } })
    ).templateId;
    const translator = members.get(TRANSLATOR)!;
    await api(admin, 'Account/SetMemberRole', { userId: translator.userId, role: 'translator', languages: ['fra'] });
    await api(admin, 'Account/SetMemberRole', { userId: members.get(REVIEWER)!.userId, role: 'reviewer' });

    // The translator: the grid's gaps filter offers French only (the catalog also publishes English).
    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), TRANSLATOR);
    await page.goto(`${base()}/products?catalog=${catalogId}`);
    await expect.poll(() => gapOptions(page)).toEqual(['No filter', 'Français (fra)']);
    await page.getByLabel('Translation missing in').selectOption('fra');
    await page.waitForURL(/missingTranslation=fra/);
    await page.getByRole('link', { name: `Open product ${SKU}` }).waitFor();
    await expectAccessible(page, "translator's French gaps");
    // The screens show no writes the role does not have (the server refuses them anyway).
    for (const name of ['New product', 'Edit selection …', 'Edit all matches …'])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    // imports: the texts-only import in French, chosen for the role (web-team-scope.e2e.test.ts imports one)
    await page.goto(`${base()}/imports`);
    await page.getByText('Your role writes texts: an import writes only the texts in Français (fra)').waitFor();
    await page.goto(`${base()}/catalogs`);
    await page.getByRole('link', { name: `E2E Team ${suffix}`, exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'New catalog' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Edit catalog/ }).count()).toBe(0);

    // One French name, written side by side and submitted for the channel's review.
    await page.goto(`${base()}/products/${product.productId}?language=fra`);
    await page.getByLabel('Name · Français (fra)').fill(FRENCH_NAME);
    await page.getByRole('button', { name: 'Save Français (fra)' }).click();
    await expectAnnounced(page, 'Saved.');
    // the tabs a translator may not change show their values with the controls disabled
    expect(await page.getByRole('button', { name: 'Delete product' }).count()).toBe(0);
    await page.getByRole('tab', { name: /^Prices/ }).click();
    await page.locator('fieldset.bare[disabled]').waitFor();
    await page.getByRole('tab', { name: 'Review', exact: true }).click();
    await page.getByRole('region', { name: CHANNEL }).getByRole('button', { name: 'Submit for review' }).click();
    await expectAnnounced(page, `Submitted for review in ${CHANNEL}.`);

    // Publishing is not the translator's: no start on the exports screen, and the server refuses it.
    await page.goto(`${base()}/exports`);
    await page.getByText('Your role does not publish').waitFor();
    expect(await page.getByRole('button', { name: 'Start export' }).count()).toBe(0);
    const translatorCookie = await login(TRANSLATOR);
    const refused = await fetch(`${base()}/api/Export/StartExport`, {
      method: 'POST',
      headers: { Cookie: translatorCookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({ departmentId: SALES, catalogId, templateId }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: 'your role does not permit this' });

    // Negative control: in review, the channel's export holds the product back.
    const before = await exportChannel();
    expect(before.xml).not.toContain(SKU);
    expect(before.xml).not.toContain(FRENCH_NAME);
    expect(before.warnings).toContain(`left out as not approved in review for ${CHANNEL}: 1 time (e.g. ${SKU})`);

    // The reviewer approves it in the review inbox.
    const reviewer = await (await newContext(browser)).newPage();
    await signIn(reviewer, base(), REVIEWER);
    await reviewer.goto(`${base()}/review`);
    await reviewer.getByRole('combobox', { name: /^Channel/ }).selectOption({ label: CHANNEL });
    const entry = reviewer.getByRole('listitem').filter({ has: reviewer.getByRole('heading', { name: SKU }) });
    await entry.getByRole('button', { name: 'Approve' }).click();
    await expectAnnounced(reviewer, `${SKU} approved.`);

    // Approved: the channel's export has the product with its French name.
    const after = await exportChannel();
    expect(after.xml).toContain(SKU);
    expect(after.xml).toContain(FRENCH_NAME);
    expect(after.warnings.filter((w) => w.startsWith('left out as not approved in review'))).toEqual([]);
  });
});
