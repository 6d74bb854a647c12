import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { featureText } from '../../connector/src/adapters/common/features';
import { slugify } from '../../connector/src/adapters/common/slug';
import { seedVendureDemo, vendureAdmin } from '../../scripts/lib/shop-seed-vendure';
import { SHOP_LANGUAGES } from '../../scripts/lib/shop-languages';
import { startVendure, type VendureShop } from '../../shops/vendure/start';
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
  textOf,
} from './shop-harness';
import { startConnector } from './sync-harness';

/**
 * The PIM's demo catalog into a real Vendure 3 (shops/vendure, from npm) through the real
 * connector Worker (docs/shops.md): the PIM's own sync (Sync/StartSync) runs unchanged, the
 * connector's key points at the shop, and everything is read back through Vendure's own Admin
 * API and compared with the PIM's REST API. The steps build on each other, so they run in order.
 */
const base = () => inject('baseUrl');

// biome-ignore lint/suspicious/noExplicitAny: the tests read GraphQL answers field by field
type Json = any;

let connector: Awaited<ReturnType<typeof startConnector>>;
let shop: VendureShop;
let dataDir: string;
let pim: Pim;
let vendure: <T = Json>(query: string, variables?: Record<string, unknown>) => Promise<T>;
let connectionId: string;
let catalogId: string;
/** What the test changed in the shared e2e PIM, undone after it (other e2e files expect the demo seed). */
const undo: (() => Promise<unknown>)[] = [];

const PRODUCT_READ = `id enabled updatedAt customFields { pimSku }
  translations { languageCode name description }
  facetValues { code name facet { code } }
  collections { name }
  assets { id tags { value } } featuredAsset { id }
  variants { id sku price enabled updatedAt
    translations { languageCode name } options { name group { code } } facetValues { name facet { code } } }`;
const BY_SKU = `query($skus: [String!]) { products(options: { filter: { pimSku: { in: $skus } }, take: 100 }) { items { ${PRODUCT_READ} } } }`;
const COUNTS = `{
  products(options: { take: 1 }) { totalItems }
  productVariants(options: { take: 1 }) { totalItems }
  facetValues(options: { take: 1 }) { totalItems }
  assets(options: { take: 1 }) { totalItems }
  collections(options: { take: 1 }) { totalItems }
}`;
const ALL_PIM_PRODUCTS = `{ products(options: { take: 1000 }) { items { id updatedAt customFields { pimSku } variants { id sku updatedAt } } } }`;

async function shopProducts(skus: string[]): Promise<Map<string, Json>> {
  const found = new Map<string, Json>();
  for (let i = 0; i < skus.length; i += 50) {
    const page = await vendure(BY_SKU, { skus: skus.slice(i, i + 50) });
    for (const p of page.products.items) found.set(p.customFields.pimSku, p);
  }
  return found;
}

/** What the shop holds of the PIM's products: ids and update times, by SKU, plus the counts. */
async function snapshot() {
  const all = await vendure(ALL_PIM_PRODUCTS);
  const products = Object.fromEntries(
    all.products.items.filter((p: Json) => p.customFields.pimSku).map((p: Json) => [p.customFields.pimSku, p]),
  );
  return { products, counts: await vendure(COUNTS) };
}

const LOCALES = SHOP_LANGUAGES.vendure;

/** Every check of one master against its Vendure product. */
function expectShopMatches(master: PimMaster, product: Json, categories: Map<string, string>) {
  const d = master.detail;
  const defaultLanguage = d.language;
  expect(product.enabled, master.sku).toBe(d.status === 'active');
  for (const [language, locale] of Object.entries(LOCALES)) {
    const t = product.translations.find((x: Json) => x.languageCode === locale);
    expect(t, `${master.sku} ${locale}`).toMatchObject({
      name: textOf(d, 'name', language, defaultLanguage),
      description: textOf(d, 'description', language, defaultLanguage),
    });
  }

  const facetNames = (values: Json[], facet: string) =>
    values.filter((v: Json) => v.facet.code === facet).map((v: Json) => v.name);
  // The master's own features, attribute values and manufacturer are facet values of the product.
  for (const f of d.classification?.features ?? []) {
    expect(facetNames(product.facetValues, `pim-${slugify(f.code)}`), `${master.sku} ${f.code}`).toContain(
      featureText(f.value, f.unit),
    );
  }
  for (const v of d.values) {
    if (!v.value || v.value.length > 255) continue;
    expect(facetNames(product.facetValues, `pim-attr-${slugify(v.code)}`), `${master.sku} ${v.code}`).toContain(
      v.value,
    );
  }
  if (d.manufacturerName) expect(facetNames(product.facetValues, 'manufacturer')).toEqual([d.manufacturerName]);
  if (d.unit) expect(facetNames(product.facetValues, 'pim-unit')).toEqual([d.unit]);

  // Categories are collections (filled by Vendure's job queue from the category's facet value).
  expect(product.collections.map((c: Json) => c.name).sort(), `${master.sku} collections`).toEqual(
    d.categoryIds.map((id: string) => categories.get(id)).sort(),
  );

  // Images: one asset per file, tagged with its content hash, the first one featured.
  const tags = product.assets.flatMap((a: Json) => a.tags.map((t: Json) => t.value));
  expect(tags.filter((t: string) => t.startsWith('sha256:')).sort(), `${master.sku} images`).toEqual(
    [...new Set(master.imageHashes)].map((h) => `sha256:${h}`).sort(),
  );
  if (master.imageHashes.length > 0) expect(product.featuredAsset?.id).toBe(product.assets[0].id);

  // Variants by SKU (a master without variants is its own single variant), names, prices, features.
  const nodes = d.variants.length > 0 ? d.variants : [d];
  expect(product.variants.map((v: Json) => v.sku).sort(), `${master.sku} variants`).toEqual(
    nodes.map((v: Json) => (v === d ? master.sku : v.sku)).sort(),
  );
  for (const node of nodes) {
    const sku = node === d ? master.sku : node.sku;
    const variant = product.variants.find((v: Json) => v.sku === sku);
    expect(variant.price, `${sku} price`).toBe(
      node.price === null ? variant.price : Math.round(Number(node.price) * 100),
    );
    expect(variant.enabled, `${sku} enabled`).toBe(node.status === 'active');
    for (const [language, locale] of Object.entries(LOCALES)) {
      const t = variant.translations.find((x: Json) => x.languageCode === locale);
      expect(t?.name, `${sku} ${locale}`).toBe(textOf(node, 'name', language, defaultLanguage) || sku);
    }
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'vendure-e2e-'));
  [connector, shop] = await Promise.all([startConnector({ allowPrivateTargets: true }), startVendure({ dataDir })]);
  await seedVendureDemo(shop);
  vendure = await vendureAdmin(shop);
  pim = await signInToPim(base());
  ({ connectionId, catalogId } = await pointConnectionAtShop(pim, connector.server.baseUrl, 'Vendure (e2e)', {
    kind: 'vendure',
    url: shop.adminApiUrl,
    credentials: { username: shop.username, password: shop.password },
    mapping: { languages: LOCALES, onDeactivate: 'delete', features: { classification: true, values: true } },
  }));
  undo.push(() => pim.api('/api/Sync/DeleteConnection', { departmentId: SALES, connectionId }));
}, 400_000);

afterAll(async () => {
  for (const step of undo.reverse()) await step();
  connector?.stop();
  await shop?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the demo catalog synced into a real Vendure', () => {
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
    let products = await shopProducts(masters.map((m) => m.sku));
    // Vendure fills collections from their filters in its job queue, after the write answered.
    for (let i = 0; i < 120 && [...products.values()].some((p) => p.collections.length === 0); i++) {
      await new Promise((r) => setTimeout(r, 500));
      products = await shopProducts(masters.map((m) => m.sku));
    }
    expect([...products.keys()].sort()).toEqual(masters.map((m) => m.sku));
    for (const master of masters) expectShopMatches(master, products.get(master.sku), categories);
    // The translated master shows its own English and French names, not the German fallback.
    const translated = products.get(first.sku);
    expect(translated.translations.find((t: Json) => t.languageCode === 'en').name).toBe(
      'Miniature circuit breaker (E2E)',
    );
    expect(translated.translations.find((t: Json) => t.languageCode === 'fr').name).toBe('Disjoncteur miniature (E2E)');
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
      (sku) => after.products[sku].updatedAt !== before.products[sku]?.updatedAt,
    );
    expect(changed).toEqual([target.sku]);
    expect(after.counts).toEqual(before.counts);
    const product = (await shopProducts([target.sku])).get(target.sku);
    expect(product.translations.find((t: Json) => t.languageCode === 'de').name).toBe('Umbenannt im PIM (E2E)');
    expect(product.id).toBe(before.products[target.sku].id);
  });

  it('a sync with nothing changed writes nothing', async () => {
    const before = await snapshot();
    const job = await syncOnce(pim, connectionId);
    expect(job.state, job.error).toBe('succeeded');
    expect(job.result.report).toMatchObject({ created: 0, updated: 0, deactivated: 0, skipped: masters.length });
    expect(await snapshot()).toEqual(before);
  });

  it('a product added in the PIM is created; deleted in the PIM, it is removed from Vendure', async () => {
    const model = masters[0]!.detail;
    const added = await pim.api('/api/Catalog/AddProduct', {
      departmentId: SALES,
      catalogId,
      sku: 'E2E-VENDURE-1',
      name: 'Abzweigdose E2E',
      manufacturerName: model.manufacturerName,
      unit: 'C62',
      price: '3.45',
      categoryIds: model.categoryIds,
    });
    const created = await syncOnce(pim, connectionId);
    expect(created.result.report).toMatchObject({ created: 1, updated: 0, deactivated: 0, quarantined: [] });
    const shown = (await shopProducts(['E2E-VENDURE-1'])).get('E2E-VENDURE-1');
    expect(shown.variants).toMatchObject([{ sku: 'E2E-VENDURE-1', price: 345 }]);
    const before = await snapshot();

    await pim.api('/api/Catalog/DeleteProduct', { departmentId: SALES, productId: added.productId });
    const deleted = await syncOnce(pim, connectionId);
    expect(deleted.state, deleted.error).toBe('succeeded');
    expect(deleted.result.report).toMatchObject({ created: 0, updated: 0, deactivated: 1 });
    expect((await shopProducts(['E2E-VENDURE-1'])).size).toBe(0);
    const after = await snapshot();
    expect(Object.keys(after.products).sort()).toEqual(
      Object.keys(before.products)
        .filter((sku) => sku !== 'E2E-VENDURE-1')
        .sort(),
    );
    expect(after.counts.products.totalItems).toBe(before.counts.products.totalItems - 1);
  });
});
