import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** The demo company's sales department (scripts/seed-demo.ts): the department every write of the demo users names. */
export const SALES = '0190a000-0000-7000-8000-000000000011';

/** Debian's chromium, never a downloaded browser; flags for a headless, offline, sandbox-less run. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}

/** An English-speaking user's browser (the UI follows the browser language). */
export async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale: 'en-US',
    viewport: { width: 1280, height: 820 },
    acceptDownloads: true,
  });
  // What the browser saw go wrong lands in the test's output, so a screen that never showed says why.
  context.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    // a request the page itself dropped (it navigated, a query was cancelled) is no failure
    if (!reason.includes('ERR_ABORTED'))
      console.error(`[browser] ${request.method()} ${request.url()} failed: ${reason}`);
  });
  context.on('response', (response) => {
    if (response.status() >= 500) console.error(`[browser] ${response.url()} answered ${response.status()}`);
  });
  context.on('weberror', (error) => console.error(`[browser] page error: ${error.error().message}`));
  return context;
}

/** Screenshots of every run land here (gitignored); a few are copied to docs/screenshots/ by hand. */
export const SCREENSHOT_DIR = join(process.cwd(), 'test-results', 'screenshots');

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: false });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core (WCAG 2.x A/AA rules) in the page and fails on serious or critical violations,
 * naming each rule and the first offending elements so the message says what to fix.
 */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    // Runs in the page; the Node-side tsconfig has no DOM types, so the page globals are typed here.
    const page = globalThis as unknown as {
      document: unknown;
      axe: {
        run: (
          ctx: unknown,
          opts: object,
        ) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
      };
    };
    const result = await page.axe.run(page.document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  });
  const severe = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(severe, `${screen}: ${JSON.stringify(severe, null, 1)}`).toEqual([]);
}

/** Signs in through the sign-in form and waits for the application shell. */
export async function signIn(page: Page, baseUrl: string, email: string, password = 'demo-password-1'): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
}

/** The polite status toast the UI shows after a save. */
export async function expectAnnounced(page: Page, text: string | RegExp): Promise<void> {
  await expect.poll(async () => page.locator('.toast').textContent(), { timeout: 15_000 }).toMatch(text);
}

/**
 * Opens the Sync screen's "New connection" dialog and fills the connection itself (name, catalog,
 * connector address and key; SKUs only the shop has are left alone): the dialog, for the rest.
 */
export async function fillNewConnection(
  page: Page,
  fields: { name: string; catalog: string; connectorUrl: string; keyId: string; secret: string },
): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Sync' }).click();
  await page.getByRole('heading', { name: 'Sync', level: 1 }).waitFor();
  await page.getByRole('button', { name: 'New connection' }).click();
  const dialog = page.getByRole('dialog', { name: 'New connection' });
  await dialog.getByLabel('Name', { exact: true }).fill(fields.name);
  await dialog.getByLabel('Catalog').selectOption({ label: fields.catalog });
  await dialog.getByLabel('Connector address').fill(fields.connectorUrl);
  await dialog.getByLabel('Key ID').fill(fields.keyId);
  await dialog.getByLabel('Secret').fill(fields.secret);
  await dialog.getByLabel('SKUs that exist only in the shop').selectOption('ignore');
  return dialog;
}

/** Drops a file on the page's drop zone as a browser does: a DataTransfer holding the file. */
export async function dropFile(page: Page, name: string, content: string, type: string): Promise<void> {
  const transfer = await page.evaluateHandle(
    ([n, c, t]) => {
      // Runs in the page; the Node-side tsconfig has no DOM types, so the page globals are typed here.
      const g = globalThis as unknown as {
        DataTransfer: new () => { items: { add(file: unknown): void } };
        File: new (parts: string[], name: string, options: { type: string }) => unknown;
      };
      const dt = new g.DataTransfer();
      dt.items.add(new g.File([c], n, { type: t }));
      return dt;
    },
    [name, content, type] as const,
  );
  const zone = page.locator('fieldset.dropzone');
  await zone.dispatchEvent('dragover', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
}
