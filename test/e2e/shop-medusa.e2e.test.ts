import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../scripts/lib/dev-server';
import { medusaAdmin, seedMedusaDemo } from '../../scripts/lib/shop-seed-medusa';
import { SHOP_LANGUAGES } from '../../scripts/lib/shop-languages';
import { type MedusaShop, startMedusa } from '../../shops/medusa/start';
import {
  categoryNames,
  type Pim,
  type PimMaster,
  pimMasters,
  pointConnectionAtShop,
  publishTranslations,
  SALES,
  signInToPim,
  syncOnce,
} from './shop-harness';
import { startConnector } from './sync-harness';

/**
 * The PIM's demo catalog into a real Medusa v2 (shops/medusa, from npm, on PostgreSQL 15)
 * through the real connector Worker (docs/shops.md): the PIM's own sync runs unchanged, the
 * connector's key points at the shop, and everything is read back through Medusa's own Admin
 * API and compared with the PIM's REST API. The steps build on each other, so they run in order.
 */
const base = () => inject('baseUrl');

// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON answers field by field
type Json = any;

let connector: Awaited<ReturnType<typeof startConnector>>;
let shop: MedusaShop;
let dataDir: string;
let pim: Pim;
let medusa: Awaited<ReturnType<typeof medusaAdmin>>;
let connectionId: string;
let catalogId: string;
/** What the test changed in the shared e2e PIM, undone after it (other e2e files expect the demo seed). */
const undo: (() => Promise<unknown>)[] = [];

const LOCALES = SHOP_LANGUAGES.medusa;
const FIELDS = 'fields=%2B*categories,%2Bupdated_at,%2Bvariants.updated_at,%2Bimages.url';

async function shopProduct(sku: string): Promise<Json | undefined> {
  const { products } = await medusa<{ products: Json[] }>(
    `/admin/products?external_id=${encodeURIComponent(sku)}&${FIELDS}`,
  );
  return products[0];
}

async function shopProducts(skus: string[]): Promise<Map<string, Json>> {
  const found = new Map<string, Json>();
  for (const sku of skus) {
    const p = await shopProduct(sku);
    if (p) found.set(sku, p);
  }
  return found;
}

/** What the shop holds: every product's id, status and update times by external_id, plus counts. */
async function snapshot() {
  const { products, count } = await medusa<{ products: Json[]; count: number }>(
    '/admin/products?limit=1000&fields=id,external_id,status,updated_at,variants.id,variants.sku,variants.updated_at',
  );
  const { count: categories } = await medusa<{ count: number }>('/admin/product-categories?limit=1');
  const byExternalId = Object.fromEntries(products.map((p) => [p.external_id, p]));
  return { products: byExternalId, counts: { products: count, categories } };
}

async function translationsOf(id: string): Promise<Record<string, Record<string, string>>> {
  const { translations } = await medusa<{
    translations: { locale_code: string; translations: Record<string, string> }[];
  }>(`/admin/translations?reference_id=${id}&limit=100`);
  return Object.fromEntries(translations.map((t) => [t.locale_code, t.translations]));
}

function expectShopMatches(
  master: PimMaster,
  p: Json,
  categories: Map<string, string>,
  tags: Map<string, string>,
  translations: Record<string, Record<string, string>>,
) {
  const d = master.detail;
  expect(p).toMatchObject({
    title: d.name ?? master.sku,
    status: d.status === 'active' ? 'published' : 'draft',
  });
  expect(p.description ?? null).toBe(d.description);
  for (const [language, locale] of Object.entries(LOCALES)) {
    if (language === d.language) continue;
    const own = d.translations?.[language];
    if (own?.name) expect(translations[locale]?.title, `${master.sku} ${locale}`).toBe(own.name);
    else expect(translations[locale]?.title, `${master.sku} ${locale}`).toBeUndefined();
  }

  // Features, attribute values and the PIM's lookups are metadata (Medusa has no attributes in core).
  const features = p.metadata?.pim_features ?? [];
  for (const f of d.classification?.features ?? []) {
    expect(features, `${master.sku} ${f.code}`).toContainEqual(
      f.unit ? { name: f.code, value: f.value, unit: f.unit } : { name: f.code, value: f.value },
    );
  }
  for (const v of d.values) {
    if (v.value === null) continue;
    expect(features, `${master.sku} ${v.code}`).toContainEqual({ name: v.code, value: v.value });
  }
  if (d.manufacturerName) expect(tags.get(p.metadata.pim_manufacturer_id)).toBe(d.manufacturerName);
  if (d.unit) expect(p.metadata.pim_unit_id).toBe(d.unit);

  expect(p.categories.map((c: Json) => c.name).sort(), `${master.sku} categories`).toEqual(
    d.categoryIds.map((id: string) => categories.get(id)).sort(),
  );

  // Images are uploaded as <sha256>.<ext>: each PIM file once, the first as thumbnail.
  const urls: string[] = p.images.map((i: Json) => i.url);
  expect(urls, `${master.sku} images`).toHaveLength(new Set(master.imageHashes).size);
  for (const hash of master.imageHashes)
    expect(
      urls.some((u) => u.includes(hash)),
      `${master.sku} ${hash}`,
    ).toBe(true);

  const nodes = d.variants.length > 0 ? d.variants : [d];
  expect(p.variants.map((v: Json) => v.sku).sort(), `${master.sku} variants`).toEqual(
    nodes.map((v: Json) => (v === d ? master.sku : v.sku)).sort(),
  );
  for (const node of nodes) {
    const sku = node === d ? master.sku : node.sku;
    const variant = p.variants.find((v: Json) => v.sku === sku);
    expect(variant.title, `${sku} title`).toBe(node.name ?? sku);
    const price = node.price ?? d.price;
    if (price !== null)
      expect(
        variant.prices.map((x: Json) => [x.currency_code, x.amount]),
        `${sku} price`,
      ).toContainEqual(['eur', Number(price)]);
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'medusa-e2e-'));
  [connector, shop] = await Promise.all([
    startConnector({ allowPrivateTargets: true }),
    startMedusa({ port: await freePort(), pgPort: await freePort(), dataDir }),
  ]);
  await seedMedusaDemo(shop);
  medusa = await medusaAdmin(shop);
  pim = await signInToPim(base());
  ({ connectionId, catalogId } = await pointConnectionAtShop(pim, connector.server.baseUrl, 'Medusa (e2e)', {
    kind: 'medusa',
    url: shop.url,
    credentials: { apiKey: shop.apiKey },
    mapping: { languages: LOCALES, onDeactivate: 'disable', features: { classification: true, values: true } },
  }));
  undo.push(() => pim.api('/api/Sync/DeleteConnection', { departmentId: SALES, connectionId }));
}, 600_000);

afterAll(async () => {
  for (const step of undo.reverse()) await step();
  connector?.stop();
  await shop?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the demo catalog synced into a real Medusa', () => {
  let masters: PimMaster[];

  it('the first sync writes every master, variant, translation, price, feature, category and image', async () => {
    const first = (await pim.api(`/api/Catalog/GetProducts?catalogId=${catalogId}&limit=1&sort=sku`)).items[0];
    undo.push(await publishTranslations(pim, catalogId, first.productId));
    masters = await pimMasters(pim, catalogId);
    expect(masters.length).toBeGreaterThan(5);

    const job = await syncOnce(pim, connectionId);
    expect(job.state, job.error).toBe('succeeded');
    expect(job.result.report).toMatchObject({ created: masters.length, updated: 0, quarantined: [] });

    const categories = await categoryNames(pim, catalogId);
    const { product_tags } = await medusa<{ product_tags: { id: string; value: string }[] }>(
      '/admin/product-tags?fields=id,value&limit=1000',
    );
    const tags = new Map(product_tags.map((t) => [t.id, t.value]));
    const products = await shopProducts(masters.map((m) => m.sku));
    expect([...products.keys()].sort()).toEqual(masters.map((m) => m.sku));
    for (const master of masters) {
      const p = products.get(master.sku);
      expectShopMatches(master, p, categories, tags, await translationsOf(p.id));
    }
    const translated = await translationsOf(products.get(first.sku).id);
    expect(translated[LOCALES.eng]?.title).toBe('Miniature circuit breaker (E2E)');
    expect(translated[LOCALES.fra]?.title).toBe('Disjoncteur miniature (E2E)');
  });

  it('one changed value updates exactly that product', async () => {
    const target = masters[1]!;
    const before = await snapshot();
    undo.push(() =>
      pim.api('/api/Catalog/SetValue', {
        departmentId: SALES,
        elementId: target.productId,
        field: 'name',
        value: target.detail.name,
      }),
    );
    await pim.api('/api/Catalog/SetValue', {
      departmentId: SALES,
      elementId: target.productId,
      field: 'name',
      value: 'Umbenannt im PIM (E2E)',
    });
    const job = await syncOnce(pim, connectionId);
    expect(job.state, job.error).toBe('succeeded');
    expect(job.result.report).toMatchObject({
      created: 0,
      updated: 1,
      skipped: masters.length - 1,
      deactivated: 0,
      quarantined: [],
    });
    const after = await snapshot();
    const changed = Object.keys(after.products).filter(
      (sku) => after.products[sku].updated_at !== before.products[sku]?.updated_at,
    );
    expect(changed).toEqual([target.sku]);
    expect(after.counts).toEqual(before.counts);
    const product = await shopProduct(target.sku);
    expect(product).toMatchObject({ id: before.products[target.sku].id, title: 'Umbenannt im PIM (E2E)' });
  });

  it('a sync with nothing changed writes nothing', async () => {
    const before = await snapshot();
    const job = await syncOnce(pim, connectionId);
    expect(job.state, job.error).toBe('succeeded');
    expect(job.result.report).toMatchObject({ created: 0, updated: 0, deactivated: 0, skipped: masters.length });
    expect(await snapshot()).toEqual(before);
  });

  it('a product added in the PIM is created; deleted in the PIM, it is disabled (draft) in Medusa', async () => {
    const model = masters[0]!.detail;
    const added = await pim.api('/api/Catalog/AddProduct', {
      departmentId: SALES,
      catalogId,
      sku: 'E2E-MEDUSA-1',
      name: 'Abzweigdose E2E',
      manufacturerName: model.manufacturerName,
      unit: 'C62',
      price: '3.45',
      categoryIds: model.categoryIds,
    });
    const created = await syncOnce(pim, connectionId);
    expect(created.result.report).toMatchObject({ created: 1, updated: 0, deactivated: 0, quarantined: [] });
    const shown = await shopProduct('E2E-MEDUSA-1');
    expect(shown).toMatchObject({ status: 'published', title: 'Abzweigdose E2E' });
    expect(shown.variants.map((v: Json) => [v.sku, v.prices.map((x: Json) => x.amount)])).toEqual([
      ['E2E-MEDUSA-1', [3.45]],
    ]);
    const before = await snapshot();

    await pim.api('/api/Catalog/DeleteProduct', { departmentId: SALES, productId: added.productId });
    const deleted = await syncOnce(pim, connectionId);
    expect(deleted.state, deleted.error).toBe('succeeded');
    expect(deleted.result.report).toMatchObject({ created: 0, updated: 0, deactivated: 1 });
    const after = await snapshot();
    expect(after.products['E2E-MEDUSA-1']).toMatchObject({ id: shown.id, status: 'draft' });
    const others = (s: typeof before) =>
      Object.fromEntries(Object.entries(s.products).filter(([sku]) => sku !== 'E2E-MEDUSA-1'));
    expect(others(after)).toEqual(others(before));
  });
});
