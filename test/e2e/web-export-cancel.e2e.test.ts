import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startDevServer, type DevServer } from '../../scripts/lib/dev-server';
import { expectAccessible, launchChromium, newContext, SALES, signIn } from './web-browser';

/**
 * Cancelling a running export in the web application. An export of a few thousand products ends
 * within a second or two on the shared e2e server, too fast to catch while it runs; this file
 * runs its own wrangler dev (a copy of the seeded demo state) whose exports end each slice after
 * 150 ms and continue in a new queue message, as a long export does in production, so the job
 * stays running long enough for a person to press Cancel.
 */
const MASTERS = 15_000;

let server: DevServer;
let dir: string;
let browser: Browser;

async function call(cookie: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.baseUrl}/api/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Cookie: cookie, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pim-e2e-cancel-'));
  cpSync(inject('seededState'), dir, { recursive: true });
  [server, browser] = await Promise.all([
    startDevServer(dir, { args: ['--var', 'EXPORT_SLICE_MS:150'] }),
    launchChromium(),
  ]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('cancels a running BMEcat export: the job ends cancelled part-way, with no file to download', async () => {
  const login = await fetch(`${server.baseUrl}/api/Account/Login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'editor@demo.test', password: 'demo-password-1' }),
  });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const { catalogId } = await call(cookie, 'Catalog/AddCatalog', { departmentId: SALES, name: 'Großer Katalog' });
  for (let chunk = 0; chunk < MASTERS / 1000; chunk++) {
    const items = Array.from({ length: 1000 }, (_, n) => ({
      sku: `L-${chunk}-${String(n).padStart(4, '0')}`,
      name: `Langläufer ${chunk}-${n}`,
      price: '1.00',
      status: 'active' as const,
    }));
    await call(cookie, 'Catalog/UpsertProducts', { departmentId: SALES, catalogId, items });
  }

  const page = await (await newContext(browser)).newPage();
  await signIn(page, server.baseUrl, 'editor@demo.test');
  await page.goto(`${server.baseUrl}/exports?catalog=${catalogId}`);
  await page.getByRole('combobox', { name: /^Format/ }).selectOption('BMEcat');
  await page.getByRole('button', { name: 'Start export' }).click();
  // The newest job comes first; it shows its progress while it runs.
  const card = page.locator('.job-card').first();
  await card.getByText('Running').waitFor({ timeout: 30_000 });
  await card.getByRole('progressbar').waitFor();
  await expectAccessible(page, 'exports with a running job');
  await card.getByRole('button', { name: 'Cancel' }).click();
  await card.getByText('Cancelled').waitFor({ timeout: 30_000 });
  expect(await card.getByRole('link', { name: /^Download/ }).count()).toBe(0);
  await expectAccessible(page, 'exports with a cancelled job');

  const [job] = (await call(cookie, 'Job/GetJobs?limit=1')).items;
  expect(job).toMatchObject({ kind: 'export', state: 'cancelled' });
  expect(job.progress.done).toBeLessThan(MASTERS);
  // The consumer notices the cancel between pages and stops: the job stays cancelled, no file appears.
  await new Promise((r) => setTimeout(r, 3000));
  expect(await call(cookie, `Job/GetJob?jobId=${job.jobId}`)).toMatchObject({ state: 'cancelled', result: null });
  const download = await fetch(`${server.baseUrl}/api/Export/Download?jobId=${job.jobId}`, {
    headers: { Cookie: cookie },
  });
  expect(download.status).not.toBe(200);
  await page.context().close();
});
