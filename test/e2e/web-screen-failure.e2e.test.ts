import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectAccessible, launchChromium, newContext, signIn } from './web-browser';

/**
 * A screen whose code cannot be loaded (its chunk gone after a new version was deployed, a lost
 * connection) says so in words with a way on, instead of a blank page, and the navigation keeps
 * working (web/src/components/ScreenBoundary.tsx).
 */
const base = () => inject('baseUrl');

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('a screen that cannot be loaded', () => {
  it('is reported where it would have been, and the next screen loads', async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, base(), 'editor@demo.test');
    // the catalogs screen's code is gone from the server, as after a deploy of a new version
    await page.route(/\/assets\/Catalogs-[\w-]+\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Catalogs' }).click();
    await expect
      .poll(() => page.getByRole('alert').filter({ hasText: 'could not be loaded' }).count(), { timeout: 15_000 })
      .toBe(1);
    await page.getByRole('button', { name: 'Reload page' }).waitFor();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    await expectAccessible(page, 'screen that failed to load');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Products' }).click();
    await page.getByRole('heading', { name: 'Products', level: 1 }).waitFor();
    // the code is back (the connection returned): the failed screen loads when it is opened again
    await page.unroute(/\/assets\/Catalogs-[\w-]+\.js$/);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Catalogs' }).click();
    await page.getByRole('heading', { name: 'Catalogs', level: 1 }).waitFor();
  });
});
