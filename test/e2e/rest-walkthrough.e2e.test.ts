import { describe, expect, inject, it } from 'vitest';

const base = () => inject('baseUrl');
const SALES = '0190a000-0000-7000-8000-000000000011';

async function json(path: string, init: RequestInit & { cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set('Cookie', init.cookie);
  if (init.body) headers.set('Content-Type', 'application/json');
  const res = await fetch(`${base()}${path}`, { ...init, headers });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

describe('the REST walk-through (docs/rest-api.md) against wrangler dev with the demo seed', () => {
  it('logs in as editor@demo.test, calls the seven operations and downloads the CSV', async () => {
    const login = await json('/api/Account/Login', {
      method: 'POST',
      body: JSON.stringify({ email: 'editor@demo.test', password: 'demo-password-1' }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    expect(login.headers.get('set-cookie')).toMatch(/HttpOnly/i);

    const stats = await json('/api/Catalog/GetStats', { cookie });
    expect(stats.body.catalogs).toBeGreaterThanOrEqual(3);
    expect(stats.body.products).toBeGreaterThanOrEqual(60);

    const catalog = await json('/api/Catalog/AddCatalog', {
      method: 'POST',
      cookie,
      body: JSON.stringify({ departmentId: SALES, name: 'E2E' }),
    });
    expect(catalog.body.name).toBe('E2E');
    const renamed = await json('/api/Catalog/UpdateCatalog', {
      method: 'POST',
      cookie,
      body: JSON.stringify({
        departmentId: SALES,
        catalogId: catalog.body.catalogId,
        name: 'E2E renamed',
        catalogVersion: '2',
      }),
    });
    expect(renamed.body).toMatchObject({ name: 'E2E renamed', catalogVersion: '2' });
    const product = await json('/api/Catalog/AddProduct', {
      method: 'POST',
      cookie,
      body: JSON.stringify({
        departmentId: SALES,
        catalogId: catalog.body.catalogId,
        sku: 'E2E-1',
        name: 'Kabel "rot", 3x1,5',
      }),
    });
    expect(product.body.sku).toBe('E2E-1');
    const updated = await json('/api/Catalog/UpdateProduct', {
      method: 'POST',
      cookie,
      body: JSON.stringify({
        departmentId: SALES,
        catalogId: catalog.body.catalogId,
        productId: product.body.productId,
        price: '12.50',
      }),
    });
    expect(updated.body.price).toBe('12.50');
    const set = await json('/api/Catalog/SetValue', {
      method: 'POST',
      cookie,
      body: JSON.stringify({
        departmentId: SALES,
        elementId: product.body.productId,
        field: 'weight_kg',
        value: '1,25',
      }),
    });
    expect(set.body).toEqual({ elementId: product.body.productId, field: 'weight_kg', value: '1.25' });

    const started = await json('/api/Export/StartExport', {
      method: 'POST',
      cookie,
      body: JSON.stringify({ departmentId: SALES, catalogId: catalog.body.catalogId, exportType: 'CSV' }),
    });
    expect(started.body.jobId).toMatch(/^[0-9a-f-]{36}$/);
    let job: any;
    for (let i = 0; i < 60; i++) {
      job = (await json(`/api/Job/GetJob?jobId=${started.body.jobId}`, { cookie })).body;
      if (job.state === 'succeeded' || job.state === 'failed') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(job).toMatchObject({ state: 'succeeded', progress: { done: 1, total: 1 } });
    const download = await fetch(`${base()}/api/Export/Download?jobId=${started.body.jobId}`, {
      headers: { Cookie: cookie },
    });
    expect(download.headers.get('content-type')).toMatch(/text\/csv/);
    const csv = await download.text();
    expect(csv).toContain('"Kabel ""rot"", 3x1,5"');
    expect(csv).toContain(',1.25');
  });
});
