import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { compareSkus } from '../../src/sync/protocol/sku-order';
import { inventoryStream } from '../src/routes/inventory.routes';
import { D1ShopStore, INVENTORY_COUNT_SQL, INVENTORY_PAGE_SQL } from '../src/store/d1-store';
import { call, create, deactivate, makeShopProduct, ndjson, seedMappings, uniquePrefix, upsert } from './helpers';

/** Every inventory line of SKUs with this prefix (other tests' rows in the same file are skipped). */
async function linesOf(prefix: string, path = '/inventory') {
  const response = await call('GET', path);
  expect(response.status).toBe(200);
  expect(response.headers.get('Content-Type')).toBe('application/x-ndjson');
  const all = await ndjson(response);
  expect(Number(response.headers.get('X-Inventory-Count'))).toBe(all.length);
  return all.filter((line) => line.sku.startsWith(prefix));
}

describe('GET /inventory', () => {
  beforeEach(seedMappings);

  it('lists active managed products in UTF-8 byte order with their fingerprints and the line count', async () => {
    const p = uniquePrefix();
    const skus = [`${p}b`, `${p}A`, `${p}\u{1F600}`, `${p}\uE000`, `${p}\u00E9`, `${p}a-10`, `${p}a-2`];
    expect((await upsert(skus.map((sku) => create(sku, `fp-${sku}`)))).status).toBe(200);
    const lines = await linesOf(p);
    expect(lines.map((l) => l.sku)).toEqual([...skus].sort(compareSkus));
    expect(lines.map((l) => l.sku).at(-1)).toBe(`${p}\u{1F600}`);
    expect(lines.every((l) => l.fingerprint === `fp-${l.sku}`)).toBe(true);
  });

  it('resumes after a SKU and counts only the lines after it', async () => {
    const p = uniquePrefix();
    await upsert([create(`${p}1`), create(`${p}2`), create(`${p}3`)]);
    const response = await call('GET', `/inventory?after=${encodeURIComponent(`${p}1`)}`);
    const lines = await ndjson(response);
    expect(lines[0]!.sku).toBe(`${p}2`);
    expect(lines.filter((l) => l.sku.startsWith(p)).map((l) => l.sku)).toEqual([`${p}2`, `${p}3`]);
    expect(Number(response.headers.get('X-Inventory-Count'))).toBe(lines.length);
    const last = await call('GET', `/inventory?after=${encodeURIComponent('\u{10FFFF}')}`);
    expect(last.headers.get('X-Inventory-Count')).toBe('0');
    expect((await last.arrayBuffer()).byteLength).toBe(0);
  });

  it('never lists shop-owned or deactivated products', async () => {
    const p = uniquePrefix();
    await makeShopProduct(`${p}shop`);
    await upsert([create(`${p}kept`), create(`${p}gone`)]);
    await upsert([deactivate(`${p}gone`)]);
    expect((await linesOf(p)).map((l) => l.sku)).toEqual([`${p}kept`]);
  });

  it('streams page by page with a keyset, each SKU exactly once', async () => {
    const p = uniquePrefix();
    const skus = Array.from({ length: 7 }, (_, i) => `${p}${String(i).padStart(2, '0')}`);
    await upsert(skus.map((sku) => create(sku)));
    const store = new D1ShopStore(env.DB);
    const text = await new Response(inventoryStream(store, `${p}`, 3)).text();
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { sku: string });
    expect(lines.filter((l) => l.sku.startsWith(p)).map((l) => l.sku)).toEqual(skus);
    expect(await store.inventoryCount(p)).toBe(lines.length);
  });

  it('answers 400 for an after that is no SKU', async () => {
    const response = await call('GET', `/inventory?after=${'x'.repeat(65)}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'after must be a SKU (1 to 64 characters)' });
  });

  it('reads pages and the count from the covering index, never sorting the catalog', async () => {
    for (const [sql, params] of [
      [INVENTORY_PAGE_SQL, ['A', 10]],
      [INVENTORY_COUNT_SQL, ['A']],
    ] as const) {
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      const plan = results.map((r) => r.detail).join(' / ');
      expect(plan).toContain('USING COVERING INDEX products_inventory_idx');
      expect(plan).not.toContain('TEMP B-TREE');
    }
  });
});
