import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { DEMO_CATALOGS, OTHER_CATALOG, type DemoCategory } from '../../scripts/lib/demo-catalog';
import { seedDemoShop, SHOP_OWN_PRODUCTS } from '../scripts/demo-shop';
import { call, ndjson } from './helpers';

function products(categories: DemoCategory[]): { manufacturerName: string; unit: string }[] {
  return categories.flatMap((c) => [...(c.products ?? []), ...products(c.children ?? [])]);
}

async function counts() {
  return env.DB.prepare(
    'SELECT (SELECT count(*) FROM manufacturers) AS m, (SELECT count(*) FROM units) AS u, (SELECT count(*) FROM taxes) AS t, (SELECT count(*) FROM products) AS p',
  ).first();
}

describe('demo shop seed', () => {
  it('maps every manufacturer and unit of the PIM demo catalogs, is idempotent and hides its own products', async () => {
    await seedDemoShop(env.DB);
    const once = await counts();
    await seedDemoShop(env.DB);
    expect(await counts()).toEqual(once);

    const mappings = (await (await call('GET', '/mappings')).json()) as {
      manufacturers: { name: string }[];
      units: { code: string }[];
      taxes: { code: string; rate: number }[];
    };
    const all = [...DEMO_CATALOGS, OTHER_CATALOG].flatMap((c) => products(c.tree));
    const names = new Set(mappings.manufacturers.map((m) => m.name.trim().toLowerCase()));
    const codes = new Set(mappings.units.map((u) => u.code));
    expect(all.length).toBeGreaterThan(10);
    for (const product of all) {
      expect(names.has(product.manufacturerName.trim().toLowerCase()), product.manufacturerName).toBe(true);
      expect(codes.has(product.unit), product.unit).toBe(true);
    }
    expect(mappings.taxes).toEqual(
      expect.arrayContaining([
        { id: 'tax-de-19', code: 'DE-19', rate: 19 },
        { id: 'tax-de-7', code: 'DE-7', rate: 7 },
      ]),
    );

    const inventory = await ndjson(await call('GET', '/inventory'));
    expect(inventory.filter((line) => SHOP_OWN_PRODUCTS.some((p) => p.sku === line.sku))).toEqual([]);
  });
});
