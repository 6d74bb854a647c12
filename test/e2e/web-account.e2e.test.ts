import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, login } from './export-harness';
import { expectAccessible, expectAnnounced, launchChromium, newContext, SALES, signIn } from './web-browser';

/**
 * The account around the work, through the UI only: password change, department switch, the
 * session ending mid-work (and signing in again where the user was), the German UI, and a
 * keyboard-only walkthrough. One browser for the file; each user gets a context of their own.
 */
const base = () => inject('baseUrl');
const suffix = Date.now().toString(36).slice(-5);
const PURCHASING = '0190a000-0000-7000-8000-000000000012';
const NEW_PASSWORD = `Neues-Passwort-${suffix}`;

let browser: Browser;
let cookie: string;
let catalogId: string;
let productId: string;

const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });
const mainNav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: /^(Main navigation|Hauptnavigation)$/ }).getByRole('link', { name });

/** The session cookie of a page's browser, to ask the API what the UI's session is. */
async function browserCookie(page: Page): Promise<string> {
  const c = (await page.context().cookies()).find((x) => x.name === 'Service.Cookie');
  return `${c!.name}=${c!.value}`;
}

/** What has keyboard focus: its accessible text and whether a focus outline is drawn. */
function focused(page: Page) {
  return page.evaluate(() => {
    // Runs in the page; the Node-side tsconfig has no DOM types, so the few page globals are typed here.
    type El = {
      tagName: string;
      textContent: string | null;
      labels?: { textContent: string | null }[] | null;
      getAttribute(name: string): string | null;
      closest(selector: string): unknown;
    };
    const win = globalThis as unknown as {
      document: { activeElement: El };
      getComputedStyle(el: El): { outlineStyle: string; outlineWidth: string };
    };
    const el = win.document.activeElement;
    const style = win.getComputedStyle(el);
    return {
      tag: el.tagName.toLowerCase(),
      name: (el.getAttribute('aria-label') ?? el.labels?.[0]?.textContent ?? el.textContent ?? '').trim(),
      outlined: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
      inDialog: Boolean(el.closest('dialog[open]')),
    };
  });
}

beforeAll(async () => {
  cookie = await login('editor@demo.test');
  catalogId = (await api(cookie, 'Catalog/AddCatalog', { departmentId: SALES, name: `E2E Konto ${suffix}` })).catalogId;
  productId = (
    await api(cookie, 'Catalog/AddProduct', {
      departmentId: SALES,
      catalogId,
      sku: `ACC-${suffix}`,
      name: 'Abzweigdose 100x100',
    })
  ).productId;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  // Other e2e files export every catalog of the demo company: leave the company as seeded.
  const catalogs = (await api(cookie, 'Catalog/GetCatalogs?limit=500')).items;
  for (const c of catalogs.filter((c: { name: string }) => c.name.endsWith(suffix)))
    await api(cookie, 'Catalog/DeleteCatalog', { departmentId: SALES, catalogId: c.catalogId });
});

describe('web application: account and session', () => {
  it('changes the password: the old one is refused afterwards, the new one signs in', async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'multi@demo.test');
    await page.getByRole('link', { name: 'Max Mehrfach' }).click();
    await page.getByRole('heading', { name: 'My account', level: 1 }).waitFor();
    // The form names its own problems before asking the server.
    await page.getByLabel('Current password').fill('demo-password-1');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat new password').fill(`${NEW_PASSWORD}x`);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.locator('.field-problem').first().waitFor();
    await expectAccessible(page, 'account with a form problem');
    await page.getByLabel('Repeat new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    // Every session ends with the change: back to sign-in.
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();

    await page.getByLabel('Email address').fill('multi@demo.test');
    await page.getByLabel('Password').fill('demo-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Email address or password is not correct.').waitFor();
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    const me = await api(await browserCookie(page), 'Account/Me');
    expect(me.user.email).toBe('multi@demo.test');
    const old = await fetch(`${base()}/api/Account/Login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'multi@demo.test', password: 'demo-password-1' }),
    });
    expect(old.status).toBe(401);
    // Back as seeded, for anything else that signs in as multi@demo.test.
    await api(await login('multi@demo.test', NEW_PASSWORD), 'Account/ChangePassword', {
      currentPassword: NEW_PASSWORD,
      newPassword: 'demo-password-1',
    });
    await page.context().close();
  });

  it('switches the department: the session works in the other department from then on', async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'editor@demo.test');
    const department = page.getByRole('combobox', { name: /^Department/ });
    expect(await department.inputValue()).toBe(SALES);
    await department.selectOption({ label: 'Einkauf' });
    await poll(async () => (await api(await browserCookie(page), 'Account/Me')).departmentId).toBe(PURCHASING);
    await page.reload();
    await poll(() => page.getByRole('combobox', { name: /^Department/ }).inputValue()).toBe(PURCHASING);
    await expectAccessible(page, 'dashboard in another department');
    await page.getByRole('combobox', { name: /^Department/ }).selectOption({ label: 'Vertrieb' });
    await poll(async () => (await api(await browserCookie(page), 'Account/Me')).departmentId).toBe(SALES);
    await page.context().close();
  });

  it('keeps the page and its unsaved input when the session ends mid-work, and saves after signing in again', async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'editor@demo.test');
    await page.goto(`${base()}/products/${productId}`);
    const name = page.getByLabel('Name', { exact: true });
    await poll(() => name.inputValue()).toBe('Abzweigdose 100x100');
    await name.fill('Abzweigdose 100x100, IP54');
    // The editor's own reads (the product, its review state per channel) have answered: the
    // first request to meet the ended session is the Save below, not a late read of the page.
    await page.waitForLoadState('networkidle');
    // The server ends the session (as an expiry or a sign-out elsewhere does).
    await fetch(`${base()}/api/Account/Logout`, {
      method: 'POST',
      headers: { Cookie: await browserCookie(page), 'Content-Type': 'application/json', Origin: base() },
      body: '{}',
    });
    await page.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'Session expired' });
    await dialog.waitFor();
    await expectAccessible(page, 'session expired dialog');
    expect(await dialog.getByLabel('Email address').inputValue()).toBe('editor@demo.test');
    await dialog.getByLabel('Password').fill('demo-password-1');
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe(`/products/${productId}`);
    expect(await name.inputValue()).toBe('Abzweigdose 100x100, IP54');
    await page.getByRole('button', { name: 'Save' }).click();
    await expectAnnounced(page, 'Saved.');
    expect((await api(cookie, `Catalog/GetProduct?productId=${productId}`)).name).toBe('Abzweigdose 100x100, IP54');

    // Without any session, the sign-in page shows at the requested address and leads back to it.
    await page.context().clearCookies();
    await page.goto(`${base()}/products?catalog=${catalogId}&status=active`);
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    await page.getByLabel('Email address').fill('editor@demo.test');
    await page.getByLabel('Password').fill('demo-password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    expect(new URL(page.url()).search).toBe(`?catalog=${catalogId}&status=active`);
    await page.getByRole('link', { name: `Open product ACC-${suffix}` }).waitFor();
    await page.context().close();
  });

  it('speaks German when switched, and keeps the choice', async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'editor@demo.test');
    await page.getByRole('combobox', { name: /^Language/ }).selectOption('de');
    await mainNav(page, 'Produkte').waitFor();
    await page.getByRole('heading', { name: 'Übersicht', level: 1 }).waitFor();
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as { document: { documentElement: { lang: string } } }).document.documentElement.lang,
      ),
    ).toBe('de');
    await expectAccessible(page, 'dashboard in German');
    await page.reload();
    await mainNav(page, 'Kataloge').click();
    await page.getByRole('button', { name: 'Neuer Katalog' }).waitFor();
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    await page.getByLabel('E-Mail-Adresse').waitFor();
    await expectAccessible(page, 'sign-in in German');
    await page.context().close();
    // A German browser gets German at once.
    const german = await (
      await browser.newContext({ locale: 'de-DE', viewport: { width: 1280, height: 820 } })
    ).newPage();
    await german.goto(`${base()}/`);
    await german.getByRole('heading', { name: 'Anmelden' }).waitFor();
    await german.context().close();
  });

  it('does a main flow with the keyboard only: sign in, a dialog (Escape, Enter), a new catalog, a product name fixed in the grid', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${base()}/`);
    await page.getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    // The language switch comes first, then the form.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'select', outlined: true });
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'input', name: 'Email address', outlined: true });
    await page.keyboard.type('editor@demo.test');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'input', name: 'Password', outlined: true });
    await page.keyboard.type('demo-password-1');
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();

    // The first Tab reaches the skip link, which jumps over the header and navigation.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'a', name: 'Skip to content', outlined: true });
    // Tab through the header into the navigation, to "Catalogs".
    let steps = 0;
    while ((await focused(page)).name !== 'Catalogs' && steps++ < 15) await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'a', name: 'Catalogs', outlined: true });
    expect(steps).toBeLessThan(10);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Catalogs', level: 1 }).waitFor();

    steps = 0;
    while ((await focused(page)).name !== 'New catalog' && steps++ < 25) await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'button', name: 'New catalog', outlined: true });
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create a catalog' });
    await dialog.waitFor();
    expect((await focused(page)).inDialog).toBe(true);
    // Escape closes the dialog and focus returns to the button that opened it.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await focused(page)).toMatchObject({ name: 'New catalog', inDialog: false });

    await page.keyboard.press('Enter');
    await dialog.waitFor();
    steps = 0;
    while ((await focused(page)).name !== 'Name' && steps++ < 10) await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'input', name: 'Name', outlined: true, inDialog: true });
    await page.keyboard.type(`E2E Tastatur ${suffix}`);
    // The page behind the modal dialog is inert: Tab cycles through the dialog (and the browser's
    // own controls, which a headless page reports as its body), never to the page behind it.
    let backInDialog = 0;
    for (let i = 0; i < 14; i++) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      expect(now.inDialog || now.tag === 'body', JSON.stringify(now)).toBe(true);
      if (now.inDialog) backInDialog++;
    }
    expect(backInDialog).toBeGreaterThan(10);
    steps = 0;
    while ((await focused(page)).name !== 'Name' && steps++ < 15) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('link', { name: `E2E Tastatur ${suffix}`, exact: true }).waitFor();
    const catalogs = (await api(cookie, 'Catalog/GetCatalogs?limit=500')).items;
    expect(catalogs.some((c: { name: string }) => c.name === `E2E Tastatur ${suffix}`)).toBe(true);
    await expectAccessible(page, 'catalogs after the keyboard walkthrough');

    // Find a product and fix its name in the grid: Enter opens the cell, Escape leaves it unchanged, Enter saves.
    await page.goto(`${base()}/products?catalog=${catalogId}`);
    await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    const cell = `Name of ACC-${suffix}`;
    // The heading shows before the grid's rows: tab only once the row is there (under load the
    // 40 tabs ran out in the header, and Enter sorted the column instead of opening the cell).
    await page.getByRole('button', { name: cell }).first().waitFor();
    steps = 0;
    while (!(await focused(page)).name.startsWith(cell) && steps++ < 40) await page.keyboard.press('Tab');
    expect(await focused(page)).toMatchObject({ tag: 'button', outlined: true });
    await page.keyboard.press('Enter');
    expect(await focused(page)).toMatchObject({ tag: 'input', name: cell });
    await page.keyboard.type(' (verworfen)');
    await page.keyboard.press('Escape');
    await poll(async () => (await focused(page)).name.startsWith(`${cell}: `)).toBe(true);
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await page.keyboard.type(' grau');
    await page.keyboard.press('Enter');
    await poll(async () => (await focused(page)).name).toMatch(new RegExp(`^${cell}: .* grau$`));
    const saved = await api(cookie, `Catalog/GetProduct?productId=${productId}`);
    expect(saved.name).toMatch(/ grau$/);
    expect(saved.name).not.toContain('verworfen');
    await page.context().close();
  });
});
