import { createHash } from 'node:crypto';
import { refusedUrlReason } from '../../connector/src/targets/url-guard';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMedusaAdapter } from '../../connector/src/adapters/medusa/medusa-adapter';
import type {
  RecordOutcome,
  TargetAdapter,
  TargetIds,
  TargetMapping,
  WriteContext,
} from '../../connector/src/adapters/target-adapter';
import { createTargetHttp } from '../../connector/src/adapters/target-http';
import { type MedusaShop, startMedusa } from '../../shops/medusa/start';
import type { MediaLink, MediaRef, Product, UpsertRecord, Variant } from '../../src/sync/protocol/wire';
import { categoryLink, wireNode, wirePrice } from './fixtures/wire-product';

/**
 * The Medusa adapter against a real Medusa v2 (npm, shops/medusa) on PostgreSQL 15, read back
 * through Medusa's own Admin API. Each case writes its own SKUs.
 */
let shop: MedusaShop;
let dataDir: string;
let adapter: TargetAdapter;

const mapping: TargetMapping = {
  languages: { deu: 'de-DE', eng: 'en-GB', fra: 'fr-FR' },
  defaultLanguage: 'deu',
  priceType: 'net_customer',
  currency: 'EUR',
  pricesIncludeTax: false,
  features: { classification: true, values: true, featureBlocks: [] },
  onDeactivate: 'delete',
  imagePurposes: [],
  references: false,
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function admin<T>(path: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${shop.url}${path}`, {
    ...init,
    headers: {
      authorization: `Basic ${btoa(`${shop.apiKey}:`)}`,
      'content-type': 'application/json',
      ...(init.headers ?? {}),
    },
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

// ---- wire records ---------------------------------------------------------------------------

const images = new Map<string, Uint8Array>();
let uploads = 0;
function image(name: string, position: number): MediaRef {
  const bytes = new TextEncoder().encode(`not really a png: ${name}`);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  images.set(sha256, bytes);
  return {
    sha256,
    url: `https://pim.example/media/${name}`,
    contentType: 'image/png',
    fileName: name,
    purpose: 'normal',
    position,
  };
}

const ctx: WriteContext = {
  mapping,
  // The local shop and its images are on 127.0.0.1, as with ALLOW_PRIVATE_TARGETS in development.
  refusedUrl: (url) => refusedUrlReason(url, true),
  linkBytes: async () => {
    throw new Error('the Medusa adapter keeps category pictures as metadata');
  },
  async mediaBytes(ref) {
    uploads++;
    const bytes = images.get(ref.sha256);
    if (!bytes) throw new Error(`no bytes for ${ref.sha256}`);
    return new Blob([bytes], { type: ref.contentType });
  },
  async idsOf() {
    return new Map();
  },
  async referencing() {
    return [];
  },
};

/** The mirror's answer to WriteContext.mediaShownElsewhere (unset: the adapter deletes no upload). */
let shownElsewhere: WriteContext['mediaShownElsewhere'];

const sent: string[] = [];
/** The bodies of the adapter's `POST /admin/products/batch` calls, in order. */
const batches: { create?: unknown[]; update?: unknown[]; delete?: unknown[] }[] = [];
let http: ReturnType<typeof createTargetHttp>;

const node = wireNode();
const price = (amount: string, lowerBound: string) => wirePrice(amount, lowerBound);

/** A GTIN per SKU (Medusa keeps variant EANs unique across the shop). */
function gtinOf(sku: string): string {
  return `4${String(Number.parseInt(createHash('sha256').update(sku).digest('hex').slice(0, 12), 16))
    .padStart(12, '0')
    .slice(0, 12)}`;
}

function variant(sku: string, colour: string, base: number): Variant {
  return {
    ...node,
    sku,
    name: `Kabel ${colour}`,
    gtin: gtinOf(sku),
    classification: {
      classes: [{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000057', name: 'Kabel' }],
      features: [
        { group: 'ETIM', code: 'EF000007', name: 'Farbe', value: colour, unit: null },
        { group: 'ETIM', code: 'EF001456', name: 'Querschnitt', value: '1.5', unit: 'mm²' },
      ],
    },
    prices: [price(`${base}.50`, '1'), price(`${base - 1}.25`, '10'), price(`${base - 2}`, '100')],
    translations: { eng: { name: `Cable ${colour}` }, fra: { name: `Câble ${colour}` } },
  };
}

function master(sku: string, overrides: Partial<Product> = {}): Product {
  return {
    ...node,
    name: `Mantelleitung ${sku}`,
    description: 'Eine Leitung für innen',
    manufacturerId: 'man-1',
    values: { material: 'PVC' },
    classification: null,
    media: [image(`${sku}-front.png`, 0), image(`${sku}-side.png`, 1)],
    categories: [
      { id: 'cat-kabel', path: ['Elektro', 'Kabel'] },
      { id: 'cat-leitungen', path: ['Elektro', 'Leitungen'] },
    ],
    variants: [variant(`${sku}-RT`, 'rot', 10), variant(`${sku}-BL`, 'blau', 20), variant(`${sku}-GN`, 'grün', 30)],
    translations: {
      eng: { name: `Sheathed cable ${sku}`, description: 'A cable for indoors' },
      fra: { name: `Câble gainé ${sku}`, description: 'Un câble pour intérieur' },
    },
    ...overrides,
  };
}

const upsert = (sku: string, product: Product): UpsertRecord => ({ op: 'update', sku, fingerprint: 'f', product });

/** Writes through the adapter with a mirror of ids (as the connector keeps). */
async function write(
  records: UpsertRecord[],
  mirror: Map<string, TargetIds>,
  m: TargetMapping = mapping,
  through: TargetAdapter = adapter,
) {
  const outcomes = await through.write(
    records.map((record, index) => ({ index, record, known: mirror.get(record.sku) ?? null, previous: null })),
    { ...ctx, mapping: m, ...(shownElsewhere ? { mediaShownElsewhere: shownElsewhere } : {}) },
  );
  for (const o of outcomes) {
    const sku = records[o.index]?.sku as string;
    if (o.ok && o.ids) mirror.set(sku, o.ids);
    if (o.ok && !o.ids) mirror.delete(sku);
  }
  return outcomes;
}

function ok(outcome: RecordOutcome | undefined): asserts outcome is Extract<RecordOutcome, { ok: true }> {
  if (!outcome?.ok) throw new Error(`the write failed: ${JSON.stringify(outcome)}`);
}

// ---- reading back ---------------------------------------------------------------------------

interface ShopProduct {
  id: string;
  title: string;
  description: string | null;
  handle: string;
  status: string;
  external_id: string | null;
  thumbnail: string | null;
  metadata: Record<string, unknown> | null;
  options: { id: string; title: string; values: { value: string }[] }[];
  images: { id: string; url: string }[];
  categories: { id: string; name: string; handle: string; parent_category_id: string | null }[];
  variants: {
    id: string;
    sku: string;
    title: string;
    ean: string | null;
    options: { value: string; option?: { title: string } }[];
    prices: { amount: number; currency_code: string; min_quantity: number | null }[];
    metadata?: Record<string, unknown> | null;
  }[];
}

async function productsOf(sku: string): Promise<ShopProduct[]> {
  const { products } = await admin<{ products: ShopProduct[] }>(
    `/admin/products?external_id=${encodeURIComponent(sku)}&fields=%2B*categories`,
  );
  return products;
}

async function onlyProduct(sku: string): Promise<ShopProduct> {
  const products = await productsOf(sku);
  expect(products).toHaveLength(1);
  return products[0] as ShopProduct;
}

async function translationsOf(ids: string[]) {
  const q = ids.map((id) => `reference_id=${id}`).join('&');
  const { translations } = await admin<{
    translations: { id: string; reference_id: string; locale_code: string; translations: Record<string, string> }[];
  }>(`/admin/translations?${q}&limit=100`);
  return translations;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'medusa-shop-'));
  shop = await startMedusa({ port: await freePort(), pgPort: await freePort(), dataDir });
  // Every request the adapter sends, as `METHOD /path`, for the tests that count writes.
  const recording: typeof fetch = (input, init) => {
    const line = `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`;
    sent.push(line);
    if (line === 'POST /admin/products/batch' && typeof init?.body === 'string') batches.push(JSON.parse(init.body));
    return fetch(input, init);
  };
  http = createTargetHttp({
    fetch: recording,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    attempts: 2,
  });
  adapter = createMedusaAdapter(
    { kind: 'medusa', url: shop.url, credentials: { apiKey: shop.apiKey }, mapping },
    { http },
  );
});

afterAll(async () => {
  await shop?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('Medusa v2 adapter against a real Medusa', () => {
  it('probes the store and lists its tax rates', async () => {
    const probe = await adapter.probe();
    expect(probe.currencies).toContain('EUR');
    expect(probe.languages).toEqual(expect.arrayContaining(['de-DE', 'en-GB', 'fr-FR']));
    expect(probe.details.translations).toBe('Translation Module');
    const mappings = await adapter.mappings();
    expect(mappings.taxes.map((t) => [t.code, t.rate])).toEqual(
      expect.arrayContaining([
        ['DE-19', 19],
        ['DE-7', 7],
      ]),
    );
    expect(mappings.manufacturers).toEqual([]);
  });

  it('creates a master with variants, tiers, translations, features, categories and images', async () => {
    const mirror = new Map<string, TargetIds>();
    const [outcome] = await write([upsert('MED-100', master('MED-100'))], mirror);
    ok(outcome);
    expect(outcome.action).toBe('created');

    const p = await onlyProduct('MED-100');
    expect(p).toMatchObject({
      title: 'Mantelleitung MED-100',
      description: 'Eine Leitung für innen',
      handle: 'med-100',
      status: 'published',
    });
    expect(p.options.map((o) => [o.title, o.values.map((v) => v.value).sort()])).toEqual([
      ['Farbe', ['blau', 'grün', 'rot']],
    ]);
    const red = p.variants.find((v) => v.sku === 'MED-100-RT');
    expect(p.variants.map((v) => v.sku).sort()).toEqual(['MED-100-BL', 'MED-100-GN', 'MED-100-RT']);
    expect(red?.options.map((o) => o.value)).toEqual(['rot']);
    expect(red?.ean).toBe(gtinOf('MED-100-RT'));
    expect(
      red?.prices.map((x) => [x.currency_code, x.amount, x.min_quantity]).sort((a, b) => Number(a[1]) - Number(b[1])),
    ).toEqual([
      ['eur', 8, 100],
      ['eur', 9.25, 10],
      ['eur', 10.5, null],
    ]);
    expect(p.metadata).toMatchObject({
      pim_sku: 'MED-100',
      pim_manufacturer_id: 'man-1',
      pim_features: [{ name: 'material', value: 'PVC' }],
    });
    expect(p.categories.map((c) => c.name).sort()).toEqual(['Kabel', 'Leitungen']);
    const { product_category: parent } = await admin<{ product_category: { name: string } }>(
      `/admin/product-categories/${p.categories[0]?.parent_category_id}`,
    );
    expect(parent.name).toBe('Elektro');
    expect(p.images).toHaveLength(2);
    expect(p.thumbnail).toBe(p.images[0]?.url);
    const bytes = await fetch(p.images[0]?.url as string).then((r) => r.text());
    expect(bytes).toBe('not really a png: MED-100-front.png');

    const rows = await translationsOf([p.id, red?.id as string]);
    const byKey = Object.fromEntries(
      rows.map((r) => [`${r.reference_id === p.id ? 'p' : 'v'}:${r.locale_code}`, r.translations]),
    );
    expect(byKey).toEqual({
      'p:en-GB': { title: 'Sheathed cable MED-100', description: 'A cable for indoors' },
      'p:fr-FR': { title: 'Câble gainé MED-100', description: 'Un câble pour intérieur' },
      'v:en-GB': { title: 'Cable rot' },
      'v:fr-FR': { title: 'Câble rot' },
    });
  });

  it('writes the same record a second time without creating anything', async () => {
    const mirror = new Map<string, TargetIds>();
    ok((await write([upsert('MED-200', master('MED-200'))], mirror))[0]);
    const before = await onlyProduct('MED-200');
    const translationsBefore = await translationsOf([before.id, ...before.variants.map((v) => v.id)]);
    const { count: categoriesBefore } = await admin<{ count: number }>('/admin/product-categories?limit=1');
    const uploadsBefore = uploads;

    const [second] = await write([upsert('MED-200', master('MED-200'))], mirror);
    ok(second);
    expect(second.action).toBe('updated');
    const after = await onlyProduct('MED-200');
    expect(after.id).toBe(before.id);
    expect(after.handle).toBe(before.handle);
    expect(after.variants.map((v) => v.id).sort()).toEqual(before.variants.map((v) => v.id).sort());
    expect(after.images.map((i) => i.id)).toEqual(before.images.map((i) => i.id));
    expect(after.options.map((o) => o.id)).toEqual(before.options.map((o) => o.id));
    expect(uploads).toBe(uploadsBefore);
    const { count: categoriesAfter } = await admin<{ count: number }>('/admin/product-categories?limit=1');
    expect(categoriesAfter).toBe(categoriesBefore);
    const translationsAfter = await translationsOf([after.id, ...after.variants.map((v) => v.id)]);
    expect(translationsAfter.map((t) => t.id).sort()).toEqual(translationsBefore.map((t) => t.id).sort());
  });

  it('changes only the value that changed', async () => {
    const mirror = new Map<string, TargetIds>();
    ok((await write([upsert('MED-300', master('MED-300'))], mirror))[0]);
    const before = await onlyProduct('MED-300');
    const changed = master('MED-300');
    changed.translations = {
      ...changed.translations,
      eng: { name: 'Renamed cable', description: 'A cable for indoors' },
    };
    (changed.variants[1] as Variant).prices = [price('19.99', '1')];
    ok((await write([upsert('MED-300', changed)], mirror))[0]);

    const after = await onlyProduct('MED-300');
    expect(after.title).toBe(before.title);
    expect(after.variants.map((v) => v.id).sort()).toEqual(before.variants.map((v) => v.id).sort());
    expect(after.images.map((i) => i.id)).toEqual(before.images.map((i) => i.id));
    const blue = after.variants.find((v) => v.sku === 'MED-300-BL');
    expect(blue?.prices.map((x) => [x.amount, x.min_quantity])).toEqual([[19.99, null]]);
    const red = after.variants.find((v) => v.sku === 'MED-300-RT');
    expect(red?.prices).toHaveLength(3);
    const rows = await translationsOf([after.id]);
    expect(rows.find((r) => r.locale_code === 'en-GB')?.translations.title).toBe('Renamed cable');
    expect(rows.find((r) => r.locale_code === 'fr-FR')?.translations.title).toBe('Câble gainé MED-300');
  });

  it('removes a variant, an image, a category, a feature and a translation the record no longer carries', async () => {
    const mirror = new Map<string, TargetIds>();
    ok((await write([upsert('MED-400', master('MED-400'))], mirror))[0]);
    const smaller = master('MED-400');
    smaller.variants = smaller.variants.slice(0, 2);
    smaller.media = smaller.media.slice(0, 1);
    smaller.categories = smaller.categories.slice(0, 1);
    smaller.values = {};
    smaller.manufacturerId = null;
    smaller.translations = { eng: smaller.translations?.eng ?? {} };
    ok((await write([upsert('MED-400', smaller)], mirror))[0]);

    const p = await onlyProduct('MED-400');
    expect(p.variants.map((v) => v.sku).sort()).toEqual(['MED-400-BL', 'MED-400-RT']);
    expect(p.options[0]?.values.map((v) => v.value).sort()).toEqual(['blau', 'rot']);
    expect(p.images).toHaveLength(1);
    expect(p.categories.map((c) => c.name)).toEqual(['Kabel']);
    expect(p.metadata?.pim_features).toBeUndefined();
    expect(p.metadata?.pim_manufacturer_id).toBeUndefined();
    expect(p.metadata?.pim_sku).toBe('MED-400');
    const rows = await translationsOf([p.id]);
    expect(rows.map((r) => r.locale_code)).toEqual(['en-GB']);
  });

  it("writes the order details into the product's and each variant's metadata, and removes them when cleared", async () => {
    const mirror = new Map<string, TargetIds>();
    const ordered = master('MED-450', { contentUnit: 'MTR', contentPerUnit: '50.0', quantityMin: '2.5' });
    (ordered.variants[0] as Variant).quantityMin = '10';
    ok((await write([upsert('MED-450', ordered)], mirror))[0]);
    const keys = ['pim_content_unit', 'pim_content_per_unit', 'pim_quantity_min', 'pim_quantity_interval'];
    const orderOf = (metadata: Record<string, unknown> | null | undefined) =>
      Object.fromEntries(Object.entries(metadata ?? {}).filter(([key]) => keys.includes(key)));
    const bySku = (p: ShopProduct) => Object.fromEntries(p.variants.map((v) => [v.sku, orderOf(v.metadata)]));
    const own = { pim_content_unit: 'MTR', pim_content_per_unit: '50.0', pim_quantity_min: '2.5' };
    const p = await onlyProduct('MED-450');
    expect(orderOf(p.metadata)).toEqual(own);
    expect(bySku(p)).toEqual({
      'MED-450-RT': { ...own, pim_quantity_min: '10' },
      'MED-450-BL': own,
      'MED-450-GN': own,
    });

    // A key the merchant set on a variant is the shop's own: the PIM's writes keep it.
    const red = p.variants.find((v) => v.sku === 'MED-450-RT')!;
    await admin(`/admin/products/${p.id}/variants/${red.id}`, {
      method: 'POST',
      body: JSON.stringify({ metadata: { shop_note: 'Restposten' } }),
    });

    ok((await write([upsert('MED-450', master('MED-450'))], mirror))[0]);
    const cleared = await onlyProduct('MED-450');
    expect(orderOf(cleared.metadata)).toEqual({});
    // Gone, not kept as "": Medusa assigns a variant's metadata whole within a product update.
    expect(bySku(cleared)).toEqual({ 'MED-450-RT': {}, 'MED-450-BL': {}, 'MED-450-GN': {} });
    expect(cleared.variants.find((v) => v.sku === 'MED-450-RT')?.metadata?.shop_note).toBe('Restposten');
  });

  it("deletes a replaced image's upload once no product shows it, and never twice", async () => {
    const mirror = new Map<string, TargetIds>();
    shownElsewhere = async (hashes, skus) =>
      new Set(
        hashes.filter((sha) => [...mirror].some(([sku, ids]) => !skus.includes(sku) && ids.media && sha in ids.media)),
      );
    const served = async (url: string | undefined) => (await fetch(String(url))).status;
    try {
      const [a, b, c] = ['ret-a.png', 'ret-b.png', 'ret-c.png'].map((name, i) => image(name, i));
      const withImages = (sku: string, ...refs: MediaRef[]) =>
        master(sku, { media: refs.map((ref, i) => ({ ...ref, position: i })), variants: [] });
      ok((await write([upsert('MED-RET-1', withImages('MED-RET-1', a!, b!))], mirror))[0]);
      ok((await write([upsert('MED-RET-2', withImages('MED-RET-2', b!))], mirror))[0]);
      const urlB = mirror.get('MED-RET-1')?.media?.[b!.sha256];
      expect(await served(urlB)).toBe(200);
      // B replaced by C on the first product: the second still shows B, so its upload stays.
      ok((await write([upsert('MED-RET-1', withImages('MED-RET-1', a!, c!))], mirror))[0]);
      expect(await served(urlB)).toBe(200);
      // The second lets go of B: nothing shows it, so its upload goes; A's stays.
      const from = sent.length;
      ok((await write([upsert('MED-RET-2', withImages('MED-RET-2'))], mirror))[0]);
      expect(sent.slice(from).filter((line) => line.startsWith('DELETE /admin/uploads/'))).toHaveLength(1);
      expect(await served(urlB)).toBe(404);
      expect(await served(mirror.get('MED-RET-1')?.media?.[a!.sha256])).toBe(200);
      // The same record again deletes nothing; B shown again is uploaded anew, not the deleted URL reused.
      const again = sent.length;
      ok((await write([upsert('MED-RET-2', withImages('MED-RET-2'))], mirror))[0]);
      expect(sent.slice(again).filter((line) => line.startsWith('DELETE'))).toEqual([]);
      ok((await write([upsert('MED-RET-2', withImages('MED-RET-2', b!))], mirror))[0]);
      expect(await served(mirror.get('MED-RET-2')?.media?.[b!.sha256])).toBe(200);
    } finally {
      shownElsewhere = undefined;
    }
  });

  it("keeps a category's picture in its metadata once, not again on a second write, and removes it when gone", async () => {
    const mirror = new Map<string, TargetIds>();
    const picture = 'https://media.example.com/cat/schalter.jpg';
    const withLinks = (links?: MediaLink[], sku = 'MED-600') =>
      master(sku, {
        categories: [{ id: 'cat-schalter', path: ['Elektro', 'Schalter'], ...(links ? { links } : {}) }],
      });
    const links = [
      categoryLink('https://media.example.com/cat/schalter.pdf', {
        contentType: 'application/pdf',
        purpose: 'data_sheet',
      }),
      categoryLink(picture, { position: 1, description: 'Schalter und Taster' }),
    ];
    const category = async () => {
      const { product_categories } = await admin<{
        product_categories: { id: string; metadata: Record<string, unknown> | null }[];
      }>('/admin/product-categories?handle=pim-elektro--schalter&fields=id,metadata');
      expect(product_categories).toHaveLength(1);
      return product_categories[0]!;
    };
    ok((await write([upsert('MED-600', withLinks(links))], mirror))[0]);
    const first = await category();
    expect(first.metadata).toEqual({
      pim_category_id: 'cat-schalter',
      pim_image_url: picture,
      pim_image_alt: 'Schalter und Taster',
    });

    const from = sent.length;
    ok((await write([upsert('MED-600', withLinks(links))], mirror))[0]);
    expect(sent.slice(from).filter((r) => r.startsWith('POST /admin/product-categories'))).toEqual([]);
    expect((await category()).metadata).toEqual(first.metadata);

    ok((await write([upsert('MED-600', withLinks())], mirror))[0]);
    expect(sent.slice(from).filter((r) => r.startsWith('POST /admin/product-categories'))).toEqual([
      `POST /admin/product-categories/${first.id}`,
    ]);
    const gone = await category();
    expect(gone.id).toBe(first.id);
    expect(gone.metadata).toEqual({ pim_category_id: 'cat-schalter' });

    // A picture on a private address is refused by the SSRF rule before anything is written.
    const [refused] = await adapter.write(
      [
        {
          index: 0,
          record: upsert('MED-601', withLinks([categoryLink('http://169.254.169.254/x.jpg')], 'MED-601')),
          known: null,
          previous: null,
        },
      ],
      { ...ctx, refusedUrl: (url) => refusedUrlReason(url, false) },
    );
    expect(refused).toMatchObject({ ok: false, field: 'product.categories.0.links.0', retryable: false });
    expect(refused?.ok === false && refused.error).toMatch(/^the category image URL is refused: /);
    expect(await productsOf('MED-601')).toEqual([]);
  });

  it('writes back a category changed in the shop while the adapter keeps it: its name, handle and picture', async () => {
    const mirror = new Map<string, TargetIds>();
    const picture = 'https://media.example.com/cat/dimmer.jpg';
    const placed = master('MED-650', {
      categories: [{ id: 'cat-dimmer', path: ['Elektro', 'Dimmer'], links: [categoryLink(picture)] }],
    });
    type Category = { id: string; name: string; handle: string; metadata: Record<string, unknown> | null };
    const byId = async (id: string) =>
      (await admin<{ product_category: Category }>(`/admin/product-categories/${id}?fields=id,name,handle,metadata`))
        .product_category;
    ok((await write([upsert('MED-650', placed)], mirror))[0]);
    const { product_categories } = await admin<{ product_categories: Category[] }>(
      '/admin/product-categories?handle=pim-elektro--dimmer&fields=id,name,handle,metadata',
    );
    const made = product_categories[0] as Category;
    expect(made).toMatchObject({ name: 'Dimmer', metadata: { pim_image_url: picture } });

    // A merchant renames it, changes its handle and takes the picture out; the adapter keeps its facts.
    await admin(`/admin/product-categories/${made.id}`, {
      method: 'POST',
      body: JSON.stringify({ name: 'Dimmer (alt)', handle: 'dimmer-alt', metadata: { pim_category_id: 'cat-dimmer' } }),
    });
    const from = sent.length;
    ok((await write([upsert('MED-650', placed)], mirror))[0]);
    // Noticed by the chunk's one read of its kept categories, and written back once.
    expect(sent.slice(from).filter((r) => r.includes('/admin/product-categories'))).toEqual([
      'GET /admin/product-categories',
      `POST /admin/product-categories/${made.id}`,
    ]);
    expect(await byId(made.id)).toMatchObject({
      name: 'Dimmer',
      handle: 'pim-elektro--dimmer',
      metadata: { pim_category_id: 'cat-dimmer', pim_image_url: picture },
    });
    expect((await onlyProduct('MED-650')).categories.map((c) => c.id)).toEqual([made.id]);

    // Unchanged since: read once for the chunk, nothing written again.
    const again = sent.length;
    ok((await write([upsert('MED-650', placed)], mirror))[0]);
    expect(sent.slice(again).filter((r) => r.includes('/admin/product-categories'))).toEqual([
      'GET /admin/product-categories',
    ]);
  });

  it('writes back a parent category moved, renamed or deleted in the shop when a new product is placed below it', async () => {
    type Category = { id: string; name: string; handle: string; parent_category_id: string | null };
    const byHandle = async (handle: string) =>
      (
        await admin<{ product_categories: Category[] }>(
          `/admin/product-categories?handle=${handle}&fields=id,name,handle,parent_category_id`,
        )
      ).product_categories[0];
    const path = ['Haus', 'Licht', 'Spots'];
    const placedIn = (sku: string) => master(sku, { categories: [{ id: 'cat-spots', path }] });
    ok((await write([upsert('MED-660', placedIn('MED-660'))], new Map()))[0]);
    const haus = (await byHandle('pim-haus')) as Category;
    const licht = (await byHandle('pim-haus--licht')) as Category;
    const spots = (await byHandle('pim-haus--licht--spots')) as Category;
    expect(licht.parent_category_id).toBe(haus.id);

    // A merchant moves Licht to the root, renames it and changes its handle, then deletes the empty Haus.
    await admin(`/admin/product-categories/${licht.id}`, {
      method: 'POST',
      body: JSON.stringify({ parent_category_id: null, name: 'Lights', handle: 'lights' }),
    });
    await admin(`/admin/product-categories/${haus.id}`, { method: 'DELETE' });

    // A new product below them, through a new adapter (the categories are kept for the isolate).
    const next = createMedusaAdapter(
      { kind: 'medusa', url: shop.url, credentials: { apiKey: shop.apiKey }, mapping },
      { http },
    );
    const from = sent.length;
    const made = (await write([upsert('MED-661', placedIn('MED-661'))], new Map(), mapping, next))[0];
    ok(made);
    expect(made.action).toBe('created');
    // One read of the kept path for the chunk, one lookup of the deleted Haus by handle, Haus made again, Licht written back.
    expect(sent.slice(from).filter((r) => r.includes('/admin/product-categories'))).toEqual([
      'GET /admin/product-categories',
      'GET /admin/product-categories',
      'POST /admin/product-categories',
      `POST /admin/product-categories/${licht.id}`,
    ]);
    const hausAgain = (await byHandle('pim-haus')) as Category;
    expect(hausAgain.id).not.toBe(haus.id);
    expect(await byHandle('pim-haus--licht')).toMatchObject({
      id: licht.id,
      name: 'Licht',
      parent_category_id: hausAgain.id,
    });
    expect(await byHandle('pim-haus--licht--spots')).toMatchObject({ id: spots.id, parent_category_id: licht.id });
    expect((await onlyProduct('MED-661')).categories.map((c) => c.id)).toEqual([spots.id]);
  });

  it('deletes a deactivated product, or sets it to draft when the mapping says disable', async () => {
    const mirror = new Map<string, TargetIds>();
    ok((await write([upsert('MED-500', master('MED-500')), upsert('MED-501', master('MED-501'))], mirror))[0]);
    const deactivate = (sku: string): UpsertRecord => ({ op: 'deactivate', sku, fingerprint: 'gone' });
    const [deleted] = await write([deactivate('MED-500')], mirror);
    expect(deleted).toMatchObject({ ok: true, ids: null, action: 'deactivated' });
    expect(await productsOf('MED-500')).toEqual([]);

    const [disabled] = await write([deactivate('MED-501')], mirror, { ...mapping, onDeactivate: 'disable' });
    expect(disabled).toMatchObject({ ok: true, action: 'deactivated' });
    expect((await onlyProduct('MED-501')).status).toBe('draft');
  });

  it('finds a product again by external_id after a lost mapping and does not create a second one', async () => {
    const mirror = new Map<string, TargetIds>();
    ok((await write([upsert('MED-600', master('MED-600'))], mirror))[0]);
    const written = mirror.get('MED-600');
    const found = await adapter.findBySku(['MED-600', 'MED-NONE']);
    expect(found.get('MED-600')).toEqual(written);
    expect(found.has('MED-NONE')).toBe(false);

    const uploadsBefore = uploads;
    const [again] = await write([upsert('MED-600', master('MED-600'))], new Map());
    ok(again);
    expect(again.action).toBe('updated');
    const p = await onlyProduct('MED-600');
    expect(p.id).toBe(written?.product);
    expect(p.images).toHaveLength(2);
    expect(uploads).toBe(uploadsBefore);
  });

  it('refuses a SKU that belongs to a product the shop owns', async () => {
    await admin('/admin/products', {
      method: 'POST',
      body: JSON.stringify({
        title: 'Gutschein',
        options: [{ title: 'Wert', values: ['25'] }],
        variants: [{ title: '25', sku: 'SHOP-GUTSCHEIN', options: { Wert: '25' }, prices: [] }],
      }),
    });
    const [outcome] = await write([upsert('SHOP-GUTSCHEIN', { ...master('SHOP-GUTSCHEIN'), variants: [] })], new Map());
    expect(outcome).toEqual({
      index: 0,
      ok: false,
      field: 'sku',
      error: 'the SKU belongs to a product the shop owns',
      retryable: false,
    });
    const { products } = await admin<{ products: ShopProduct[] }>('/admin/products?q=Gutschein');
    expect(products.map((p) => [p.title, p.external_id])).toEqual([['Gutschein', null]]);
  });

  it('sends the updates of a chunk in one products batch and one translations batch; a refused one fails alone', async () => {
    const mirror = new Map<string, TargetIds>();
    const skus = ['MED-800', 'MED-810', 'MED-820'];
    for (const o of await write(
      skus.map((sku) => upsert(sku, master(sku))),
      mirror,
    ))
      ok(o);
    const renamed = (sku: string, suffix: string) =>
      master(sku, {
        translations: {
          eng: { name: `Cable ${sku} ${suffix}`, description: 'A cable for indoors' },
          fra: { name: `Câble gainé ${sku}`, description: 'Un câble pour intérieur' },
        },
      });
    const from = sent.length;
    const outcomes = await write(
      skus.map((sku) => upsert(sku, renamed(sku, 'v2'))),
      mirror,
    );
    expect(outcomes.map((o) => o.ok && o.action)).toEqual(['updated', 'updated', 'updated']);
    const requests = sent.slice(from);
    expect(requests.filter((r) => r === 'POST /admin/products/batch')).toHaveLength(1);
    expect(requests.filter((r) => r === 'POST /admin/translations/batch')).toHaveLength(1);
    expect(requests.filter((r) => r.startsWith('GET /admin/products'))).toHaveLength(1);
    for (const sku of skus) {
      const rows = await translationsOf([(await onlyProduct(sku)).id]);
      expect(rows.find((r) => r.locale_code === 'en-GB')?.translations.title).toBe(`Cable ${sku} v2`);
    }

    // The second record's variant takes the first one's EAN (unique in Medusa): the shared batch is refused, each goes alone.
    const clash = renamed('MED-810', 'v3');
    (clash.variants[0] as Variant).gtin = gtinOf('MED-800-RT');
    const mixed = await write(
      [
        upsert('MED-800', renamed('MED-800', 'v3')),
        upsert('MED-810', clash),
        upsert('MED-820', renamed('MED-820', 'v3')),
      ],
      mirror,
    );
    const byIndex = mixed.sort((a, b) => a.index - b.index);
    expect(byIndex.map((o) => o.ok)).toEqual([true, false, true]);
    for (const sku of ['MED-800', 'MED-820']) {
      const rows = await translationsOf([(await onlyProduct(sku)).id]);
      expect(rows.find((r) => r.locale_code === 'en-GB')?.translations.title).toBe(`Cable ${sku} v3`);
    }
    const kept = await translationsOf([(await onlyProduct('MED-810')).id]);
    expect(kept.find((r) => r.locale_code === 'en-GB')?.translations.title).toBe('Cable MED-810 v2');
  });

  it('creates the records of a chunk in one products batch and one translations batch; a second run creates nothing', async () => {
    const skus = ['MED-900', 'MED-910', 'MED-920'];
    const mirror = new Map<string, TargetIds>();
    const from = sent.length;
    const fromBatch = batches.length;
    const outcomes = (
      await write(
        skus.map((sku) => upsert(sku, master(sku))),
        mirror,
      )
    ).sort((a, b) => a.index - b.index);
    expect(outcomes.map((o) => o.ok && o.action)).toEqual(['created', 'created', 'created']);
    const requests = sent.slice(from);
    expect(requests.filter((r) => r === 'POST /admin/products/batch')).toHaveLength(1);
    expect(batches.slice(fromBatch).map((b) => b.create?.length)).toEqual([3]);
    expect(requests.filter((r) => r === 'POST /admin/translations/batch')).toHaveLength(1);
    // Whether a SKU is the shop's own: asked once for the chunk, not per record.
    expect(requests.filter((r) => r === 'GET /admin/product-variants')).toHaveLength(1);
    for (const sku of skus) {
      const product = await onlyProduct(sku);
      expect(product.variants.map((v) => v.sku).sort()).toEqual([`${sku}-BL`, `${sku}-GN`, `${sku}-RT`]);
      expect(product.options.map((o) => o.title)).toEqual(['Farbe']);
      expect(product.categories.map((c) => c.handle).sort()).toEqual(['pim-elektro--kabel', 'pim-elektro--leitungen']);
      const red = product.variants.find((v) => v.sku === `${sku}-RT`);
      expect(
        red?.prices.map((x) => [x.currency_code, x.amount, x.min_quantity]).sort((x, y) => Number(x[1]) - Number(y[1])),
      ).toEqual([
        ['eur', 8, 100],
        ['eur', 9.25, 10],
        ['eur', 10.5, null],
      ]);
      expect(mirror.get(sku)?.product).toBe(product.id);
      const rows = await translationsOf([product.id]);
      expect(rows.find((r) => r.locale_code === 'en-GB')?.translations.title).toBe(`Sheathed cable ${sku}`);
    }

    // The same records again with the mirror lost: found by external_id and updated, nothing created or uploaded.
    const before = sent.length;
    const beforeBatch = batches.length;
    const again = (
      await write(
        skus.map((sku) => upsert(sku, master(sku))),
        new Map(),
      )
    ).sort((a, b) => a.index - b.index);
    expect(again.map((o) => o.ok && o.action)).toEqual(['updated', 'updated', 'updated']);
    expect(again.map((o) => (o.ok ? o.ids?.product : null))).toEqual(skus.map((sku) => mirror.get(sku)?.product));
    expect(batches.slice(beforeBatch).every((b) => !b.create?.length)).toBe(true);
    const second = sent.slice(before);
    expect(second).not.toContain('POST /admin/uploads');
    expect(second).not.toContain('POST /admin/product-categories');
    expect(second).not.toContain('POST /admin/translations/batch');
    for (const sku of skus) expect(await productsOf(sku)).toHaveLength(1);
  });

  it('does not send a create batch again whose answer came too late: finds what Medusa made, one product per SKU', async () => {
    // A stand-in proxy in front of Medusa: it runs the first create batch, then holds its answer past the timeout.
    let creates = 0;
    const holding: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? init.body : '';
      if (!new URL(String(input)).pathname.endsWith('/admin/products/batch') || !body.includes('"create"'))
        return fetch(input, init);
      if (creates++ > 0) return fetch(input, init);
      const { signal, ...forwarded } = init ?? {};
      await (await fetch(input, forwarded)).text();
      return await new Promise<Response>((_, reject) => {
        const timedOut = () => reject(signal?.reason ?? new DOMException('timed out', 'TimeoutError'));
        if (signal?.aborted) timedOut();
        else signal?.addEventListener('abort', timedOut);
      });
    };
    const slow = createMedusaAdapter(
      { kind: 'medusa', url: shop.url, credentials: { apiKey: shop.apiKey }, mapping },
      { http: createTargetHttp({ fetch: holding, sleep: async () => undefined, attempts: 2, timeoutMs: 8_000 }) },
    );
    const skus = ['MED-TO-1', 'MED-TO-2'];
    const outcomes = (
      await write(
        skus.map((sku) => upsert(sku, master(sku))),
        new Map(),
        mapping,
        slow,
      )
    ).sort((a, b) => a.index - b.index);
    expect(outcomes.map((o) => o.ok && o.action)).toEqual(['created', 'created']);
    // The batch went once; the records were read again by external_id and updated, not created again.
    expect(creates).toBe(1);
    for (const sku of skus) {
      const product = await onlyProduct(sku);
      expect(product.variants.map((v) => v.sku).sort()).toEqual([`${sku}-BL`, `${sku}-GN`, `${sku}-RT`]);
    }
  });

  it("asks the shop's store, feature flags and categories once, not per request or chunk, and again when an id kept is gone", async () => {
    const mirror = new Map<string, TargetIds>();
    ok((await write([upsert('MED-930', master('MED-930'))], mirror))[0]);
    // A new adapter per POST /upsert, as the connector builds them: the facts stay with the isolate.
    const next = createMedusaAdapter(
      { kind: 'medusa', url: shop.url, credentials: { apiKey: shop.apiKey }, mapping },
      { http },
    );
    const from = sent.length;
    ok((await write([upsert('MED-930', master('MED-930', { name: 'Zweiter Stand' }))], mirror, mapping, next))[0]);
    ok((await write([upsert('MED-940', master('MED-940'))], mirror, mapping, next))[0]);
    const requests = sent.slice(from);
    expect(requests).not.toContain('GET /admin/stores');
    expect(requests).not.toContain('GET /admin/feature-flags');
    // The categories are not looked up by handle again: each write reads its kept ones by id once (verifyCategories).
    expect(requests.filter((r) => r === 'GET /admin/product-categories')).toHaveLength(2);
    expect(requests).not.toContain('POST /admin/product-categories');
    // Only MED-940's own two images are new to the shop.
    expect(requests.filter((r) => r === 'POST /admin/uploads')).toHaveLength(2);

    // A category kept is deleted in the shop: the chunk's read of its kept categories misses it, so it is made again.
    const held = await onlyProduct('MED-940');
    const leitungen = held.categories.find((c) => c.handle === 'pim-elektro--leitungen');
    await admin(`/admin/products/batch`, {
      method: 'POST',
      body: JSON.stringify({ update: [{ id: held.id, categories: [] }] }),
    });
    const otherId = (await onlyProduct('MED-930')).id;
    await admin(`/admin/products/batch`, {
      method: 'POST',
      body: JSON.stringify({ update: [{ id: otherId, categories: [] }] }),
    });
    await admin(`/admin/product-categories/${leitungen?.id}`, { method: 'DELETE' });
    const after = sent.length;
    // Before the chunk's read (issue 35, fifth round) Medusa linked the deleted id without a word and the batch was
    // found stale afterwards; now the create goes once, with the category made again.
    const outcome = (await write([upsert('MED-950', master('MED-950'))], mirror, mapping, next))[0];
    ok(outcome);
    expect(outcome.action).toBe('created');
    expect(sent.slice(after).filter((r) => r === 'POST /admin/products/batch')).toHaveLength(1);
    expect(sent.slice(after)).toContain('POST /admin/product-categories');
    const made = await onlyProduct('MED-950');
    const handles = made.categories.map((c) => c.handle).sort();
    expect(handles).toEqual(['pim-elektro--kabel', 'pim-elektro--leitungen']);
    expect(made.categories.map((c) => c.id)).not.toContain(leitungen?.id);
  });

  it("answers a record Medusa refuses with Medusa's message and writes the others", async () => {
    await admin('/admin/products', {
      method: 'POST',
      body: JSON.stringify({
        title: 'Handle taken',
        handle: 'med-dup',
        options: [{ title: 'X', values: ['x'] }],
        variants: [{ title: 'x', sku: 'SHOP-DUP', options: { X: 'x' }, prices: [] }],
      }),
    });
    const fromBatch = batches.length;
    const outcomes = await write(
      [
        upsert('MED-DUP', master('MED-DUP')),
        upsert('MED-700', master('MED-700')),
        upsert('MED-710', master('MED-710')),
      ],
      new Map(),
    );
    // The three creates went in one batch, which Medusa refused whole; then each alone.
    expect(batches.slice(fromBatch).map((b) => b.create?.length)).toEqual([3, 1, 1, 1]);
    const failed = outcomes.find((o) => o.index === 0);
    expect(failed).toMatchObject({ ok: false, retryable: false });
    expect(failed && !failed.ok && failed.error).toMatch(/handle.*med-dup.*already exists/i);
    expect(outcomes.find((o) => o.index === 1)).toMatchObject({ ok: true, action: 'created' });
    expect(outcomes.find((o) => o.index === 2)).toMatchObject({ ok: true, action: 'created' });
    expect(await productsOf('MED-DUP')).toEqual([]);
    expect(await productsOf('MED-710')).toHaveLength(1);
  });
});
