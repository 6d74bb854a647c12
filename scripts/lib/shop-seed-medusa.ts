import { demoManufacturers } from './shop-seed-vendure';

/**
 * What a Medusa shop must hold before the PIM's demo catalog syncs into it (docs/shops.md,
 * "Medusa v2"): Medusa has no manufacturers in core, and the Medusa adapter offers the shop's
 * product tags as manufacturers (by value) in GET /mappings, so this creates one tag per demo
 * manufacturer; units are the adapter's UN/ECE codes and the tax rates DE-19 / DE-7 come from
 * shops/medusa/start.ts. Idempotent.
 */
export interface MedusaAdmin {
  url: string;
  apiKey: string;
}

export async function medusaAdmin(shop: MedusaAdmin) {
  return async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${shop.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Basic ${btoa(`${shop.apiKey}:`)}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`Medusa ${path}: HTTP ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };
}

/** Creates a product tag per demo manufacturer the shop lacks; answers how many it created. */
export async function seedMedusaDemo(shop: MedusaAdmin): Promise<{ manufacturers: number }> {
  const admin = await medusaAdmin(shop);
  const { product_tags } = await admin<{ product_tags: { value: string }[] }>(
    '/admin/product-tags?fields=id,value&limit=1000',
  );
  const have = new Set(product_tags.map((t) => t.value));
  const missing = demoManufacturers().filter((name) => !have.has(name));
  for (const value of missing) await admin('/admin/product-tags', { value });
  return { manufacturers: missing.length };
}
