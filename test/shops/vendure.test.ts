import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { refusedUrlReason } from '../../connector/src/targets/url-guard';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTargetHttp } from '../../connector/src/adapters/target-http';
import type {
  RecordOutcome,
  TargetAdapter,
  TargetIds,
  TargetMapping,
  TargetRecord,
} from '../../connector/src/adapters/target-adapter';
import { createVendureAdapter, VENDURE_DEFAULT_MAPPING } from '../../connector/src/adapters/vendure/vendure-adapter';
import { writeChunk } from '../../connector/src/upsert/write-chunk';
import { startVendure, type VendureShop } from '../../shops/vendure/start';
import type { Product, UpsertRecord } from '../../src/sync/protocol/wire';
import { categoryLink } from './fixtures/wire-product';
import {
  adminReader,
  COUNTS,
  cableMaster,
  image,
  imageStore,
  PRODUCT_READ,
  png,
  sha256,
  upsert,
} from './vendure-fixtures';

/**
 * The Vendure adapter against a real Vendure 3 (shops/vendure, started from its npm packages
 * with a fresh sql.js database, or PostgreSQL with VENDURE_DB=postgres): every write is read
 * back through Vendure's own Admin API.
 */
let shop: VendureShop;
let dataDir: string;
let adapter: TargetAdapter;
let read: Awaited<ReturnType<typeof adminReader>>;
let taxId: string;

const mapping: TargetMapping = {
  ...VENDURE_DEFAULT_MAPPING,
  features: { ...VENDURE_DEFAULT_MAPPING.features, values: true },
};

/** Category picture links by URL, and the links the adapter fetched. */
const linkStore = new Map<string, Uint8Array>();
const linkFetches: string[] = [];

/** What the connector's picture revalidation says (WriteContext.categoryPictureChanged), and the URLs reported sent. */
let pictureChanged: ((url: string) => Promise<boolean>) | undefined;
const picturesSent: string[] = [];
/** The mirror's answer to WriteContext.mediaShownElsewhere (unset: the adapter retires no product image). */
let shownElsewhere: ((hashes: string[], skus: string[]) => Promise<Set<string>>) | undefined;

async function write(records: UpsertRecord[], known: (TargetIds | null)[] = [], map = mapping) {
  const targets: TargetRecord[] = records.map((record, index) => ({
    index,
    record,
    known: known[index] ?? null,
    previous: null,
  }));
  return adapter.write(targets, {
    mapping: map,
    mediaBytes: async (ref) => {
      const stored = imageStore.get(ref.sha256);
      if (!stored) throw new Error(`no bytes for ${ref.sha256}`);
      return new Blob([stored.bytes], { type: stored.type });
    },
    // The local shop and its images are on 127.0.0.1, as with ALLOW_PRIVATE_TARGETS in development.
    refusedUrl: (url) => refusedUrlReason(url, true),
    linkBytes: async (link) => {
      linkFetches.push(link.url);
      const stored = linkStore.get(link.url);
      if (!stored) throw new Error(`no bytes for ${link.url}`);
      return new Blob([stored], { type: link.contentType });
    },
    idsOf: async () => new Map(),
    referencing: async () => [],
    ...(shownElsewhere ? { mediaShownElsewhere: shownElsewhere } : {}),
    ...(pictureChanged
      ? {
          categoryPictureChanged: pictureChanged,
          categoryPictureSent: async (url: string) => void picturesSent.push(url),
        }
      : {}),
  });
}

async function writeOne(record: UpsertRecord, known: TargetIds | null = null, map = mapping) {
  const [outcome] = await write([record], [known], map);
  if (!outcome) throw new Error('no outcome');
  return outcome;
}

function okIds(outcome: Awaited<ReturnType<typeof writeOne>>): TargetIds {
  if (!outcome.ok) throw new Error(`write failed: ${outcome.field}: ${outcome.error}`);
  if (!outcome.ids) throw new Error('no ids');
  return outcome.ids;
}

/** Each cable master written holds its one option group under the plan's code, and its three variants. */
async function expectCableGroups(outcomes: RecordOutcome[]) {
  for (const outcome of outcomes) {
    const { product: p } = await read(PRODUCT_READ, { id: okIds(outcome).product });
    expect(p.optionGroups.map((g: { code: string }) => g.code)).toEqual(['pim-ef000008']);
    expect(p.variants).toHaveLength(3);
  }
}

/** Option groups in the shop (attached or not). */
async function groupCount(): Promise<number> {
  return (await read('{ productOptionGroups(options: { take: 1 }) { totalItems } }')).productOptionGroups.totalItems;
}

/** The write context of a chunk written through a second adapter (`countingAdapter`). */
function chunkContext() {
  return {
    mapping,
    mediaBytes: async (ref: { sha256: string }) => {
      const stored = imageStore.get(ref.sha256);
      if (!stored) throw new Error(`no bytes for ${ref.sha256}`);
      return new Blob([stored.bytes], { type: stored.type });
    },
    refusedUrl: (url: string) => refusedUrlReason(url, true),
    linkBytes: async () => new Blob([]),
    idsOf: async () => new Map(),
    referencing: async () => [],
  };
}

/**
 * A chunk of cable masters written as the connector's run writes it (`writeChunk`: retryable
 * failures tried again, looked up by SKU first), without waits; the final outcomes by index.
 * `rounds` gets each round's `ok`s.
 */
async function runChunk(through: TargetAdapter, skus: string[], rounds: boolean[][] = []) {
  const finals: RecordOutcome[] = [];
  const adapterSeen: TargetAdapter = {
    ...through,
    write: async (records, ctx) => {
      const outcomes = await through.write(records, ctx);
      rounds.push([...outcomes].sort((a, b) => a.index - b.index).map((o) => o.ok));
      return outcomes;
    },
    findBySku: (found) => through.findBySku(found),
  };
  await writeChunk(
    skus.map((sku, i) => ({ index: i, record: upsert(sku, cableMaster(sku, taxId)), known: null, previous: null })),
    {
      adapter: adapterSeen,
      ctx: chunkContext(),
      policy: { rounds: 4, firstWaitMs: 0 },
      sleep: async () => undefined,
      commit: async (done) => void finals.push(...done.map((d) => d.outcome)),
    },
  );
  return finals.sort((a, b) => a.index - b.index);
}

/** The pimSku of every product the shop holds for these SKUs, sorted: one per SKU when nothing was made twice. */
async function pimSkusOf(skus: string[]): Promise<string[]> {
  const { products } = await read(
    'query($skus: [String!]) { products(options: { filter: { pimSku: { in: $skus } } }) { items { customFields { pimSku } } } }',
    { skus },
  );
  return products.items.map((p: { customFields: { pimSku: string } }) => p.customFields.pimSku).sort();
}

type StandIn = (operation: string, input: RequestInfo | URL, init: RequestInit) => Promise<Response | null>;

/**
 * A second adapter for the same shop and login (as the connector builds one per request),
 * naming each request it sends by its GraphQL operation (`upload` for a multipart upload): it
 * rides on the first adapter's session and the facts it kept.
 */
function countingAdapter(
  /** Operations answered with a GraphQL error instead of being sent (a refusal of Vendure's, for the test). */
  refuse: ReadonlySet<string> = new Set(),
  /** A stand-in proxy between the adapter and Vendure: answers a request itself, or null to pass it on. */
  standIn?: StandIn,
  timeoutMs?: number,
  /** The adapter's clock (a marked option group's age is judged by it). */
  now?: () => number,
): { adapter: TargetAdapter; operations: string[] } {
  const operations: string[] = [];
  const counting = createVendureAdapter(
    {
      kind: 'vendure',
      url: shop.adminApiUrl,
      credentials: { username: shop.username, password: shop.password },
      mapping,
    },
    {
      http: createTargetHttp({
        fetch: async (input, init) => {
          const body = typeof init?.body === 'string' ? init.body : '';
          const operation = /\b(?:query|mutation)\s+(\w+)/.exec(body)?.[1] ?? 'upload';
          operations.push(operation);
          if (refuse.has(operation))
            return Response.json({ errors: [{ message: `${operation} refused for the test` }], data: null });
          return (await standIn?.(operation, input, init ?? {})) ?? fetch(input, init);
        },
        sleep: async () => undefined,
        attempts: 2,
        ...(timeoutMs ? { timeoutMs } : {}),
      }),
      ...(now ? { now } : {}),
    },
  );
  return { adapter: counting, operations };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'vendure-shop-'));
  shop = await startVendure({ dataDir });
  adapter = createVendureAdapter(
    {
      kind: 'vendure',
      url: shop.adminApiUrl,
      credentials: { username: shop.username, password: shop.password },
      mapping,
    },
    { http: createTargetHttp({ fetch, sleep: async () => undefined, attempts: 2 }) },
  );
  read = await adminReader(shop.adminApiUrl, shop.username, shop.password);
  const mappings = await adapter.mappings();
  taxId = mappings.taxes.find((t) => t.code === 'Standard')?.id ?? '';
});

afterAll(async () => {
  await shop?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('Vendure adapter against a real Vendure', () => {
  it('probes the channel and offers its tax categories as mappings', async () => {
    const probe = await adapter.probe();
    expect(probe.languages.sort()).toEqual(['de', 'en', 'fr']);
    expect(probe.currencies).toEqual(['EUR']);
    expect(probe.details.pimSkuField).toBe('present');
    const mappings = await adapter.mappings();
    expect(mappings.taxes).toEqual([{ id: taxId, code: 'Standard', rate: 19 }]);
    expect(mappings.units.map((u) => u.code)).toContain('C62');
  });

  it('refuses a wrong password with a TargetError, not a record failure', async () => {
    const wrong = createVendureAdapter(
      { kind: 'vendure', url: shop.adminApiUrl, credentials: { username: shop.username, password: 'nope' }, mapping },
      { http: createTargetHttp({ fetch, sleep: async () => undefined, attempts: 1 }) },
    );
    await expect(wrong.probe()).rejects.toMatchObject({
      message: 'Vendure refused the username or password',
      retryable: false,
    });
  });
});

describe('writing products into Vendure', () => {
  it('writes a master with three variants, its languages, prices, facets, collections and images', async () => {
    const product = cableMaster('NYM-100', taxId);
    const outcome = await writeOne(upsert('NYM-100', product));
    expect(outcome).toMatchObject({ ok: true, action: 'created' });
    const ids = okIds(outcome);
    expect(Object.keys(ids.variants).sort()).toEqual(['NYM-100-1', 'NYM-100-2', 'NYM-100-3']);
    expect(Object.keys(ids.media ?? {}).sort()).toEqual(product.media.map((m) => m.sha256).sort());

    const { product: p } = await read(PRODUCT_READ, { id: ids.product });
    expect(p.enabled).toBe(true);
    expect(p.customFields.pimSku).toBe('NYM-100');
    const byLanguage = Object.fromEntries(p.translations.map((t: { languageCode: string }) => [t.languageCode, t]));
    expect(byLanguage.de).toMatchObject({
      name: 'Mantelleitung NYM-J',
      slug: 'mantelleitung-nym-j-nym-100',
      description: 'Installationsleitung für feste Verlegung',
    });
    expect(byLanguage.en).toMatchObject({
      name: 'Sheathed cable NYM-J',
      slug: 'sheathed-cable-nym-j-nym-100',
      description: 'Installation cable for fixed wiring',
    });
    expect(byLanguage.fr).toMatchObject({ name: 'Câble gainé NYM-J', slug: 'cable-gaine-nym-j-nym-100' });

    const facets = p.facetValues
      .map((v: { facet: { code: string }; name: string }) => `${v.facet.code}=${v.name}`)
      .sort();
    expect(facets).toEqual([
      'pim-attr-brand-line=ProLine',
      'pim-category=Angebote',
      'pim-category=Kabel / Installationskabel',
      'pim-ef005474=IP44',
    ]);

    expect(p.assets.map((a: { id: string }) => a.id)).toEqual(product.media.map((m) => ids.media?.[m.sha256]));
    expect(p.featuredAsset.id).toBe(ids.media?.[product.media[0]?.sha256 ?? '']);
    expect(p.assets[0].tags.map((t: { value: string }) => t.value)).toEqual([`sha256:${product.media[0]?.sha256}`]);

    expect(p.optionGroups.map((g: { code: string }) => g.code)).toEqual(['pim-ef000008']);
    expect(p.optionGroups[0].options.map((o: { name: string }) => o.name).sort()).toEqual(['3', '4', '5']);
    const variants = Object.fromEntries(p.variants.map((v: { sku: string }) => [v.sku, v]));
    expect(variants['NYM-100-1']).toMatchObject({
      price: 1350,
      currencyCode: 'EUR',
      enabled: true,
      taxCategory: { id: taxId },
    });
    expect(variants['NYM-100-3'].price).toBe(1550);
    const v1Names = Object.fromEntries(
      variants['NYM-100-1'].translations.map((t: { languageCode: string; name: string }) => [t.languageCode, t.name]),
    );
    expect(v1Names).toEqual({ de: 'Leitung 3x1,5', en: 'Cable 3x1.5', fr: 'Câble 3x1,5' });
    expect(variants['NYM-100-2'].options).toEqual([
      { code: expect.stringMatching(/^4-/), group: { code: 'pim-ef000008' } },
    ]);
    // The colour is the same on every variant: a facet, not an option.
    expect(variants['NYM-100-2'].facetValues).toEqual([
      { code: expect.stringMatching(/^grey-/), facet: { code: 'pim-ef000001' } },
    ]);

    const collections = await read(`{ collections(options: { take: 50 }) { items { name slug parent { name } } } }`);
    const names = collections.collections.items.map(
      (c: { name: string; parent: { name: string } | null }) => `${c.parent?.name}>${c.name}`,
    );
    expect(names).toEqual(
      expect.arrayContaining(['__root_collection__>Kabel', 'Kabel>Installationskabel', '__root_collection__>Angebote']),
    );
    const leaf = collections.collections.items.find((c: { name: string }) => c.name === 'Installationskabel');
    let skus: string[] = [];
    for (let i = 0; i < 100 && skus.length < 3; i++) {
      const found = await read(
        `query($slug: String!) { collection(slug: $slug) { productVariants { items { sku } } } }`,
        { slug: leaf.slug },
      );
      skus = found.collection.productVariants.items.map((v: { sku: string }) => v.sku);
      if (skus.length < 3) await new Promise((r) => setTimeout(r, 100));
    }
    expect(skus.sort()).toEqual(['NYM-100-1', 'NYM-100-2', 'NYM-100-3']);
  });

  it('a second write of the same record creates nothing and keeps every id', async () => {
    const record = upsert('NYM-200', cableMaster('NYM-200', taxId));
    const first = okIds(await writeOne(record));
    const before = await read(COUNTS);
    const again = await writeOne(record, first);
    expect(again).toMatchObject({ ok: true, action: 'updated' });
    expect(okIds(again)).toEqual(first);
    expect(await read(COUNTS)).toEqual(before);
    const { product: p } = await read(PRODUCT_READ, { id: first.product });
    expect(p.optionGroups).toHaveLength(1);
    expect(p.optionGroups[0].options).toHaveLength(3);
    expect(p.assets).toHaveLength(2);
  });

  it('a changed price and name update only those values', async () => {
    const product = cableMaster('NYM-300', taxId);
    const ids = okIds(await writeOne(upsert('NYM-300', product)));
    const { product: before } = await read(PRODUCT_READ, { id: ids.product });
    const changed = structuredClone(product);
    const v2 = changed.variants[1];
    if (!v2?.prices?.[0]) throw new Error('fixture');
    v2.prices[0].amount = '99.99';
    changed.translations = {
      ...changed.translations,
      eng: { ...changed.translations?.eng, name: 'Sheathed cable NYM-J (new)' },
    };
    expect(okIds(await writeOne(upsert('NYM-300', changed, 'update'), ids))).toEqual(ids);
    const { product: after } = await read(PRODUCT_READ, { id: ids.product });
    const v = (p: { variants: { sku: string; price: number }[] }, sku: string) => p.variants.find((x) => x.sku === sku);
    expect(v(after, 'NYM-300-2')?.price).toBe(9999);
    expect(after.translations.find((t: { languageCode: string }) => t.languageCode === 'en').name).toBe(
      'Sheathed cable NYM-J (new)',
    );
    const strip = (p: typeof before) => ({
      ...p,
      translations: p.translations.filter((t: { languageCode: string }) => t.languageCode !== 'en'),
      variants: p.variants.filter((x: { sku: string }) => x.sku !== 'NYM-300-2'),
    });
    expect(strip(after)).toEqual(strip(before));
  });

  it('removes a variant, an image and a category the record no longer has', async () => {
    const product = cableMaster('NYM-400', taxId);
    const ids = okIds(await writeOne(upsert('NYM-400', product)));
    const smaller = structuredClone(product);
    smaller.variants = smaller.variants.slice(0, 2);
    smaller.media = smaller.media.slice(0, 1);
    smaller.categories = smaller.categories.slice(1);
    const after = okIds(await writeOne(upsert('NYM-400', smaller, 'update'), ids));
    expect(Object.keys(after.variants).sort()).toEqual(['NYM-400-1', 'NYM-400-2']);
    const { product: p } = await read(PRODUCT_READ, { id: ids.product });
    expect(p.variants.map((v: { sku: string }) => v.sku).sort()).toEqual(['NYM-400-1', 'NYM-400-2']);
    expect(p.assets.map((a: { id: string }) => a.id)).toEqual([ids.media?.[product.media[0]?.sha256 ?? '']]);
    expect(
      p.facetValues
        .filter((v: { facet: { code: string } }) => v.facet.code === 'pim-category')
        .map((v: { name: string }) => v.name),
    ).toEqual(['Angebote']);
    const removed = await read(`query($id: ID!) { productVariant(id: $id) { id } }`, { id: ids.variants['NYM-400-3'] });
    expect(removed.productVariant).toBeNull();
  });

  it("deletes a replaced product image's asset once no product shows it, also after a delete that failed, and never twice", async () => {
    // A stand-in for the connector's mirror: the images each SKU's ids name.
    const mirror = new Map<string, TargetIds>();
    shownElsewhere = async (hashes, skus) =>
      new Set(
        hashes.filter((sha) => [...mirror].some(([sku, ids]) => !skus.includes(sku) && ids.media && sha in ids.media)),
      );
    const assetOf = async (id: string | undefined) =>
      (await read(`query($id: ID!) { asset(id: $id) { id } }`, { id })).asset;
    const saved = adapter;
    try {
      const [a, b, c] = [png(31, 41, 59), png(26, 53, 58), png(97, 93, 23)].map((bytes, i) =>
        image(bytes, `img-${i}.png`, i),
      );
      const withImages = (...refs: (typeof a)[]) => ({
        ...cableMaster('VEN-IMG', taxId),
        variants: [],
        media: refs.map((ref, i) => ({ ...ref!, position: i })),
      });
      const put = async (sku: string, product: Product, op: 'create' | 'update') => {
        const ids = okIds(await writeOne(upsert(sku, product, op), mirror.get(sku) ?? null));
        mirror.set(sku, ids);
        return ids;
      };
      const one = await put('VEN-IMG-1', withImages(a, b), 'create');
      await put('VEN-IMG-2', withImages(b), 'create');
      const assetB = one.media?.[b!.sha256];
      // B replaced by C on the first product: the second still shows B, so it stays.
      await put('VEN-IMG-1', withImages(a, c), 'update');
      expect(await assetOf(assetB)).not.toBeNull();
      // The second lets go of B: nothing shows it, so it goes.
      await put('VEN-IMG-2', withImages(), 'update');
      expect(await assetOf(assetB)).toBeNull();
      expect(await assetOf(one.media?.[a!.sha256])).not.toBeNull();

      // Vendure does not answer the delete of C (replaced by nothing): the record fails, retryably,
      // its mirror ids stay, and the asset, off the product, is still in the library.
      const assetC = mirror.get('VEN-IMG-1')?.media?.[c!.sha256];
      const failing = countingAdapter(new Set(['DeleteImageAssets']));
      adapter = failing.adapter;
      const [failed] = await write([upsert('VEN-IMG-1', withImages(a), 'update')], [mirror.get('VEN-IMG-1')!]);
      expect(failed).toMatchObject({ ok: false, field: 'product.media', retryable: true });
      expect(await assetOf(assetC)).not.toBeNull();
      // The next run finds it by the old ids and deletes it; the run after that deletes nothing.
      const counted = countingAdapter();
      adapter = counted.adapter;
      await put('VEN-IMG-1', withImages(a), 'update');
      expect(await assetOf(assetC)).toBeNull();
      const from = counted.operations.length;
      await put('VEN-IMG-1', withImages(a), 'update');
      expect(counted.operations.slice(from).filter((op) => ['ImageAsset', 'DeleteImageAssets'].includes(op))).toEqual(
        [],
      );
    } finally {
      adapter = saved;
      shownElsewhere = undefined;
    }
  });

  it("makes a category's picture its collection's featured asset once, not again, and removes it when gone", async () => {
    const picture = 'https://media.example/cat/installationskabel.png';
    linkStore.set(picture, png(20, 20, 200));
    const withPicture = (sku: string) => {
      const product = cableMaster(sku, taxId);
      product.categories[0]!.links = [
        categoryLink('https://media.example/cat/datenblatt.pdf', {
          contentType: 'application/pdf',
          purpose: 'data_sheet',
        }),
        categoryLink(picture, { contentType: 'image/png', position: 1 }),
      ];
      return product;
    };
    const collection = async () => {
      const { collections } = await read(
        `{ collections(options: { take: 100 }) { items { name featuredAsset { id tags { value } } assets { id } } } }`,
      );
      return collections.items.find((c: { name: string }) => c.name === 'Installationskabel');
    };
    const ids = okIds(await writeOne(upsert('NYM-450', withPicture('NYM-450'))));
    const first = await collection();
    // Sorted: Vendure answers an asset's tags in the database's order (sql.js and PostgreSQL differ).
    expect(first.featuredAsset.tags.map((t: { value: string }) => t.value).sort()).toEqual(
      [
        'pim-picture-only',
        `pim-url:${createHash('sha256').update(picture).digest('hex')}`,
        `sha256:${sha256(png(20, 20, 200))}`,
      ].sort(),
    );
    expect(first.assets).toEqual([{ id: first.featuredAsset.id }]);
    expect(linkFetches.filter((url) => url === picture)).toHaveLength(1);

    // Again, and another product in the same category: no second fetch, upload or asset.
    const { assets: before } = await read(COUNTS);
    okIds(await writeOne(upsert('NYM-450', withPicture('NYM-450'), 'update'), ids));
    okIds(await writeOne(upsert('NYM-451', withPicture('NYM-451'))));
    expect(linkFetches.filter((url) => url === picture)).toHaveLength(1);
    expect((await read(COUNTS)).assets.totalItems).toBe(before.totalItems);
    expect((await collection()).featuredAsset.id).toBe(first.featuredAsset.id);

    // The category has no picture any more: the collection shows none.
    okIds(await writeOne(upsert('NYM-450', cableMaster('NYM-450', taxId), 'update'), ids));
    const gone = await collection();
    expect(gone.featuredAsset).toBeNull();
    expect(gone.assets).toEqual([]);
  });

  it("replaces the collection's featured asset when new bytes are behind the same picture URL", async () => {
    const picture = 'https://media.example/cat/erneuert.png';
    const urlHash = createHash('sha256').update(picture).digest('hex');
    linkStore.set(picture, png(70, 10, 10));
    const placed = (sku: string) => {
      const product = cableMaster(sku, taxId);
      product.categories = [
        { id: 'c-erneuert', path: ['Kabel', 'Erneuert'], links: [categoryLink(picture, { contentType: 'image/png' })] },
      ];
      return product;
    };
    const collection = async () => {
      const { collections } = await read(
        `{ collections(options: { take: 100 }) { items { name featuredAsset { id tags { value } } assets { id } } } }`,
      );
      return collections.items.find((c: { name: string }) => c.name === 'Erneuert');
    };
    const tagsOf = async (id: string) => {
      const { asset } = await read(`query($id: ID!) { asset(id: $id) { id tags { value } } }`, { id });
      return asset?.tags.map((t: { value: string }) => t.value).sort() ?? null;
    };
    const ids = okIds(await writeOne(upsert('RENEW-1', placed('RENEW-1'))));
    const before = (await collection()).featuredAsset;
    const fetchesBefore = linkFetches.filter((url) => url === picture).length;
    try {
      // The revalidation says unchanged: nothing is fetched, the asset stays.
      pictureChanged = async () => false;
      okIds(await writeOne(upsert('RENEW-1', placed('RENEW-1'), 'update'), ids));
      expect(linkFetches.filter((url) => url === picture)).toHaveLength(fetchesBefore);
      expect((await collection()).featuredAsset.id).toBe(before.id);
      expect(picturesSent).toEqual([]);

      // New bytes behind the same URL: a new asset is the collection's picture, and reported sent.
      linkStore.set(picture, png(10, 70, 10));
      pictureChanged = async (url) => url === picture;
      okIds(await writeOne(upsert('RENEW-1', placed('RENEW-1'), 'update'), ids));
      const after = await collection();
      expect(after.featuredAsset.id).not.toBe(before.id);
      expect(after.assets).toEqual([{ id: after.featuredAsset.id }]);
      expect(await tagsOf(after.featuredAsset.id)).toEqual(
        ['pim-picture-only', `pim-url:${urlHash}`, `sha256:${sha256(png(10, 70, 10))}`].sort(),
      );
      // The old asset, shown by nothing else (no product image, no other collection), is deleted.
      expect(await tagsOf(before.id)).toBeNull();
      expect(picturesSent).toEqual([picture]);
    } finally {
      pictureChanged = undefined;
    }
    // Without a revalidation the new asset is found by the URL's tag again.
    okIds(await writeOne(upsert('RENEW-2', placed('RENEW-2'))));
    expect((await collection()).featuredAsset.id).not.toBe(before.id);
  });

  it('keeps a replaced picture that a product image shows, and one another collection features until that one is written', async () => {
    const tagsOf = async (id: string) => {
      const { asset } = await read(`query($id: ID!) { asset(id: $id) { id tags { value } } }`, { id });
      return asset?.tags.map((t: { value: string }) => t.value).sort() ?? null;
    };
    const featuredOf = async (name: string) => {
      const { collections } = await read(
        `{ collections(options: { take: 100 }) { items { name featuredAsset { id } } } }`,
      );
      return collections.items.find((c: { name: string }) => c.name === name)?.featuredAsset?.id ?? null;
    };
    const placed = (sku: string, leaf: string, url: string, media: ReturnType<typeof image>[] = []) => {
      const product = { ...cableMaster(sku, taxId), media };
      product.categories = [
        { id: `c-${leaf}`, path: ['Kabel', leaf], links: [categoryLink(url, { contentType: 'image/png' })] },
      ];
      return product;
    };
    try {
      // A picture whose bytes a product image shows too: replaced in its collection, kept in the library.
      const shown = 'https://media.example/cat/gezeigt.png';
      const shownBytes = png(90, 30, 60);
      linkStore.set(shown, shownBytes);
      okIds(await writeOne(upsert('KEEP-1', placed('KEEP-1', 'Gezeigt', shown))));
      const shownOld = await featuredOf('Gezeigt');
      const withImage = okIds(
        await writeOne(
          upsert(
            'KEEP-2',
            placed('KEEP-2', 'Gezeigt', shown, [image(png(5, 6, 7), 'k2a.png', 0), image(shownBytes, 'k2.png', 1)]),
          ),
        ),
      );
      expect(withImage.media?.[sha256(shownBytes)]).toBe(shownOld);
      expect(await tagsOf(shownOld)).not.toContain('pim-picture-only');
      linkStore.set(shown, png(30, 90, 60));
      pictureChanged = async (url) => url === shown;
      okIds(await writeOne(upsert('KEEP-1', placed('KEEP-1', 'Gezeigt', shown), 'update')));
      expect(await featuredOf('Gezeigt')).not.toBe(shownOld);
      expect(await tagsOf(shownOld)).toContain(`sha256:${sha256(shownBytes)}`);

      // The same picture in two collections: the one written shows the new asset, the other keeps
      // featuring the old one, which stays until that collection is written too.
      const twice = 'https://media.example/cat/zweimal.png';
      linkStore.set(twice, png(15, 15, 90));
      pictureChanged = undefined;
      okIds(await writeOne(upsert('TWICE-1', placed('TWICE-1', 'Zweimal-A', twice))));
      okIds(await writeOne(upsert('TWICE-2', placed('TWICE-2', 'Zweimal-B', twice))));
      const twiceOld = await featuredOf('Zweimal-A');
      expect(await featuredOf('Zweimal-B')).toBe(twiceOld);
      linkStore.set(twice, png(90, 15, 15));
      pictureChanged = async (url) => url === twice;
      okIds(await writeOne(upsert('TWICE-1', placed('TWICE-1', 'Zweimal-A', twice), 'update')));
      expect(await featuredOf('Zweimal-A')).not.toBe(twiceOld);
      expect(await featuredOf('Zweimal-B')).toBe(twiceOld);
      expect(await tagsOf(twiceOld)).not.toBeNull();
      pictureChanged = undefined;
      okIds(await writeOne(upsert('TWICE-2', placed('TWICE-2', 'Zweimal-B', twice), 'update')));
      expect(await featuredOf('Zweimal-B')).toBe(await featuredOf('Zweimal-A'));
      expect(await tagsOf(twiceOld)).toBeNull();
    } finally {
      pictureChanged = undefined;
    }
  });

  it('shares one asset between a product image and a category picture of the same bytes, whichever comes first', async () => {
    const collection = async (name: string) => {
      const { collections } = await read(
        `{ collections(options: { take: 100 }) { items { name featuredAsset { id tags { value } } } } }`,
      );
      return collections.items.find((c: { name: string }) => c.name === name);
    };
    const placed = (sku: string, leaf: string, url: string, media: ReturnType<typeof image>[]) => {
      const product = { ...cableMaster(sku, taxId), media };
      product.categories = [
        { id: `c-${leaf}`, path: ['Kabel', leaf], links: [categoryLink(url, { contentType: 'image/png' })] },
      ];
      return product;
    };
    const assetCount = async () => (await read(COUNTS)).assets.totalItems as number;

    // The same record: the product image and its category's picture are one asset.
    const bytes = png(31, 62, 93);
    const shared = 'https://media.example/cat/geteilt.png';
    linkStore.set(shared, bytes);
    let before = await assetCount();
    const ids = okIds(
      await writeOne(upsert('SHARE-1', placed('SHARE-1', 'Geteilt', shared, [image(bytes, 's1.png', 0)]))),
    );
    const featured = (await collection('Geteilt')).featuredAsset;
    expect(featured.id).toBe(ids.media?.[sha256(bytes)]);
    expect(featured.tags.map((t: { value: string }) => t.value).sort()).toEqual(
      [`pim-url:${createHash('sha256').update(shared).digest('hex')}`, `sha256:${sha256(bytes)}`].sort(),
    );
    expect(await assetCount()).toBe(before + 1);

    // The category's picture first, then a product with the same bytes as its image: no second asset.
    const later = png(44, 88, 132);
    const first = 'https://media.example/cat/erst.png';
    linkStore.set(first, later);
    before = await assetCount();
    okIds(await writeOne(upsert('SHARE-2', placed('SHARE-2', 'Erst', first, []))));
    const picture = (await collection('Erst')).featuredAsset;
    const withImage = okIds(
      await writeOne(upsert('SHARE-3', placed('SHARE-3', 'Erst', first, [image(later, 's3.png', 0)]))),
    );
    expect(withImage.media?.[sha256(later)]).toBe(picture.id);
    expect(await assetCount()).toBe(before + 1);
    // A product image now: no longer a picture only (never deleted as a replaced picture).
    expect((await collection('Erst')).featuredAsset.tags.map((t: { value: string }) => t.value)).not.toContain(
      'pim-picture-only',
    );
  });

  it('deactivate deletes the product, or disables it when the mapping says so', async () => {
    const ids = okIds(await writeOne(upsert('NYM-500', cableMaster('NYM-500', taxId))));
    const deactivate: UpsertRecord = { op: 'deactivate', sku: 'NYM-500', fingerprint: 'gone' };
    expect(await writeOne(deactivate, ids)).toEqual({ index: 0, ok: true, ids: null, action: 'deactivated' });
    expect((await read(`query($id: ID!) { product(id: $id) { id } }`, { id: ids.product })).product).toBeNull();
    // The SKU can come back as a new product.
    const back = okIds(await writeOne(upsert('NYM-500', cableMaster('NYM-500', taxId))));
    expect(back.product).not.toBe(ids.product);

    const kept = okIds(await writeOne(upsert('NYM-510', cableMaster('NYM-510', taxId))));
    const disable = { ...mapping, onDeactivate: 'disable' as const };
    const outcome = await writeOne({ op: 'deactivate', sku: 'NYM-510', fingerprint: 'off' }, kept, disable);
    expect(outcome).toMatchObject({ ok: true, action: 'deactivated', ids: { product: kept.product } });
    expect((await read(`query($id: ID!) { product(id: $id) { enabled } }`, { id: kept.product })).product.enabled).toBe(
      false,
    );
  });

  it("writes the order details as facet values on the product and each variant (its own, else the master's), and drops cleared ones", async () => {
    const base = cableMaster('NYM-530', taxId);
    const product = {
      ...base,
      contentUnit: 'MTR',
      contentPerUnit: '50.0',
      quantityMin: '2.5',
      variants: base.variants.map((v, i) => (i === 0 ? { ...v, quantityMin: '10' } : v)),
    };
    const ids = okIds(await writeOne(upsert('NYM-530', product)));
    type Value = { code: string; name?: string; facet: { code: string } };
    const isOrder = (v: Value) => /^pim-(content|quantity)-/.test(v.facet.code);
    const read530 = async () => (await read(PRODUCT_READ, { id: ids.product })).product;
    const p = await read530();
    expect(
      p.facetValues
        .filter(isOrder)
        .map((v: Value) => `${v.facet.code}=${v.name}`)
        .sort(),
    ).toEqual(['pim-content-per-unit=50.0', 'pim-content-unit=MTR', 'pim-quantity-min=2.5']);
    const variantOrder = (v: { facetValues: Value[] }) =>
      v.facetValues
        .filter(isOrder)
        .map((f) => `${f.facet.code}=${f.code.replace(/-[^-]+$/, '')}`)
        .sort();
    const bySku = Object.fromEntries(p.variants.map((v: { sku: string }) => [v.sku, v]));
    expect(variantOrder(bySku['NYM-530-1'])).toEqual([
      'pim-content-per-unit=50-0',
      'pim-content-unit=mtr',
      'pim-quantity-min=10',
    ]);
    expect(variantOrder(bySku['NYM-530-2'])).toEqual([
      'pim-content-per-unit=50-0',
      'pim-content-unit=mtr',
      'pim-quantity-min=2-5',
    ]);

    // Cleared in the PIM: none left on the product or its variants.
    okIds(await writeOne(upsert('NYM-530', base, 'update'), ids));
    const after = await read530();
    expect(after.facetValues.filter(isOrder)).toEqual([]);
    expect(after.variants.flatMap((v: { facetValues: Value[] }) => v.facetValues.filter(isOrder))).toEqual([]);
  });

  it('a draft is written disabled', async () => {
    const draft = { ...cableMaster('NYM-520', taxId), status: 'draft' as const };
    const ids = okIds(await writeOne(upsert('NYM-520', draft)));
    expect((await read(`query($id: ID!) { product(id: $id) { enabled } }`, { id: ids.product })).product.enabled).toBe(
      false,
    );
  });

  it('finds the product again by SKU after a lost mapping', async () => {
    const record = upsert('NYM-600', cableMaster('NYM-600', taxId));
    const ids = okIds(await writeOne(record));
    const found = await adapter.findBySku(['NYM-600', 'NOT-THERE']);
    expect([...found.keys()]).toEqual(['NYM-600']);
    expect(found.get('NYM-600')).toEqual({ product: ids.product, variants: ids.variants });
    const before = await read(COUNTS);
    const again = await writeOne(record, null);
    expect(again).toMatchObject({ ok: true, action: 'updated' });
    expect(okIds(again)).toEqual(ids);
    expect(await read(COUNTS)).toEqual(before);
  });

  it('refuses a SKU that belongs to a product the shop made itself', async () => {
    const made = await read(
      `mutation { createProduct(input: { translations: [{ languageCode: en, name: "Shop's own", slug: "shops-own", description: "" }] }) { id } }`,
    );
    await read(
      `mutation($id: ID!) { createProductVariants(input: [{ productId: $id, sku: "SHOP-1", price: 500, translations: [{ languageCode: en, name: "Shop's own" }] }]) { id } }`,
      { id: made.createProduct.id },
    );
    const product = { ...cableMaster('SHOP-1', taxId), variants: [] };
    const outcome = await writeOne(upsert('SHOP-1', product));
    expect(outcome).toEqual({
      index: 0,
      ok: false,
      field: 'sku',
      error: 'the SKU SHOP-1 belongs to a product the shop owns',
      retryable: false,
    });
    const { product: p } = await read(PRODUCT_READ, { id: made.createProduct.id });
    expect(p.translations.map((t: { name: string }) => t.name)).toEqual(["Shop's own"]);
    expect(p.variants.map((v: { price: number }) => v.price)).toEqual([500]);
  });

  it('writes the updates of a chunk in one updateProducts and one updateProductVariants; a refused one fails alone', async () => {
    const skus = ['NYM-800', 'NYM-810', 'NYM-820'];
    const products = skus.map((sku) => cableMaster(sku, taxId));
    const created = await write(products.map((p, i) => upsert(skus[i] as string, p)));
    const ids = created.map(okIds);
    // A second adapter for the same shop and login, counting its operations: it rides on the first one's session.
    const { adapter: counting, operations } = countingAdapter();
    const renamed = products.map((p, i) => ({ ...structuredClone(p), name: `Mantelleitung ${i} (neu)` }));
    const records = renamed.map((p, i) => ({
      index: i,
      record: upsert(skus[i] as string, p, 'update'),
      known: ids[i] ?? null,
      previous: null,
    }));
    const ctx = {
      mapping,
      mediaBytes: async () => new Blob([]),
      refusedUrl: (url: string) => refusedUrlReason(url, true),
      linkBytes: async () => new Blob([]),
      idsOf: async () => new Map(),
      referencing: async () => [],
    };
    const outcomes = await counting.write(records, ctx);
    expect(outcomes.map((o) => o.ok && o.action)).toEqual(['updated', 'updated', 'updated']);
    expect(outcomes.map((o) => (o.ok ? o.ids : null))).toEqual(ids);
    expect(operations).not.toContain('Login');
    expect(operations.filter((o) => o === 'UpdateProducts')).toHaveLength(1);
    expect(operations.filter((o) => o === 'UpdateVariants')).toHaveLength(1);
    expect(operations).not.toContain('UpdateProduct');
    // The chunk's products and their known images are each read once, not per record.
    expect(operations.filter((o) => o === 'ProductsById')).toHaveLength(1);
    expect(operations.filter((o) => o === 'AssetsById')).toHaveLength(1);
    for (const [i, id] of ids.entries()) {
      const { product: p } = await read(PRODUCT_READ, { id: id?.product });
      const de = p.translations.find((t: { languageCode: string }) => t.languageCode === 'de');
      expect(de?.name).toBe(`Mantelleitung ${i} (neu)`);
    }

    // One record's tax category is not the shop's: Vendure refuses the shared variant update, each goes alone.
    const again = renamed.map((p, i) => ({ ...p, name: `Mantelleitung ${i} (2)` }));
    const one = again[1] as (typeof again)[0];
    const bad = { ...one, variants: one.variants.map((v) => ({ ...v, taxId: '999999' })) };
    const mixed = [again[0], bad, again[2]].map((p, i) => ({
      index: i,
      record: upsert(skus[i] as string, p as (typeof again)[0], 'update'),
      known: ids[i] ?? null,
      previous: null,
    }));
    const answers = (await counting.write(mixed, ctx)).sort((a, b) => a.index - b.index);
    expect(answers.map((o) => o.ok)).toEqual([true, false, true]);
    expect(answers[1]).toMatchObject({ index: 1, ok: false, field: 'product', retryable: false });
    const names = await Promise.all(
      ids.map(async (id) => {
        const { product: p } = await read(PRODUCT_READ, { id: id?.product });
        return p.translations.find((t: { languageCode: string }) => t.languageCode === 'de')?.name;
      }),
    );
    expect([names[0], names[2]]).toEqual(['Mantelleitung 0 (2)', 'Mantelleitung 2 (2)']);
  });

  it('creates the products of a chunk in three write requests, writes nothing new the second time, and a refused create fails alone', async () => {
    // A second adapter for the same shop and login, naming each request by its operation.
    const { adapter: counting, operations } = countingAdapter();
    const ctx = {
      mapping,
      mediaBytes: async (ref: { sha256: string }) => {
        const stored = imageStore.get(ref.sha256);
        if (!stored) throw new Error(`no bytes for ${ref.sha256}`);
        return new Blob([stored.bytes], { type: stored.type });
      },
      refusedUrl: (url: string) => refusedUrlReason(url, true),
      linkBytes: async () => new Blob([]),
      idsOf: async () => new Map(),
      referencing: async () => [],
    };
    const skus = ['NYM-900', 'NYM-910', 'NYM-920'];
    const products = skus.map((sku) => cableMaster(sku, taxId));
    const records = products.map((p, i) => ({
      index: i,
      record: upsert(skus[i] as string, p),
      known: null,
      previous: null,
    }));
    const outcomes = (await counting.write(records, ctx)).sort((a, b) => a.index - b.index);
    expect(outcomes.map((o) => o.ok && o.action)).toEqual(['created', 'created', 'created']);
    // The products and their option groups in one document, the groups attached in one, all variants in one.
    expect(operations.filter((o) => o === 'CreateProducts')).toHaveLength(1);
    expect(operations.filter((o) => o === 'AttachGroups')).toHaveLength(1);
    expect(operations.filter((o) => o === 'CreateVariants')).toHaveLength(1);
    expect(operations).not.toContain('CreateProduct');
    expect(operations).not.toContain('CreateGroup');
    // Whether a SKU is the shop's own: asked once for the chunk.
    expect(operations.filter((o) => o === 'VariantsBySku')).toHaveLength(1);
    const ids = outcomes.map((o) => okIds(o as Awaited<ReturnType<typeof writeOne>>));
    for (const [i, id] of ids.entries()) {
      const { product: p } = await read(PRODUCT_READ, { id: id.product });
      expect(p.customFields.pimSku).toBe(skus[i]);
      expect(p.optionGroups.map((g: { code: string }) => g.code)).toEqual(['pim-ef000008']);
      const variants = Object.fromEntries(p.variants.map((v: { sku: string }) => [v.sku, v]));
      expect(Object.keys(variants).sort()).toEqual([`${skus[i]}-1`, `${skus[i]}-2`, `${skus[i]}-3`]);
      expect(variants[`${skus[i]}-1`]).toMatchObject({ price: 1350, taxCategory: { id: taxId } });
      expect(variants[`${skus[i]}-2`].options).toEqual([
        { code: expect.stringMatching(/^4-/), group: { code: 'pim-ef000008' } },
      ]);
      expect(id.variants).toEqual(
        Object.fromEntries(p.variants.map((v: { sku: string; id: string }) => [v.sku, v.id])),
      );
    }

    // The same records again without the mirror's ids (a lost mapping): found by pimSku, nothing created.
    operations.length = 0;
    const counts = await read(COUNTS);
    const second = (await counting.write(records, ctx)).sort((a, b) => a.index - b.index);
    expect(second.map((o) => o.ok && o.action)).toEqual(['updated', 'updated', 'updated']);
    expect(second.map((o) => (o.ok ? o.ids?.product : null))).toEqual(ids.map((id) => id.product));
    expect(operations.filter((o) => /^Create/.test(o))).toEqual([]);
    expect(operations).not.toContain('upload');
    expect(await read(COUNTS)).toEqual(counts);

    // Three new ones, the middle one with a tax category the shop lacks: Vendure refuses the shared variant call, each goes alone.
    operations.length = 0;
    const more = ['NYM-930', 'NYM-940', 'NYM-950'];
    const fresh = more.map((sku) => cableMaster(sku, taxId));
    const middle = fresh[1] as Product;
    fresh[1] = { ...middle, variants: middle.variants.map((v) => ({ ...v, taxId: '999999' })) };
    const mixed = (
      await counting.write(
        fresh.map((p, i) => ({ index: i, record: upsert(more[i] as string, p), known: null, previous: null })),
        ctx,
      )
    ).sort((a, b) => a.index - b.index);
    expect(mixed.map((o) => o.ok && o.action)).toEqual(['created', false, 'created']);
    expect(mixed[1]).toMatchObject({ index: 1, ok: false, field: 'product', retryable: false });
    expect(operations.filter((o) => o === 'CreateProducts')).toHaveLength(1);
    for (const i of [0, 2]) {
      const { product: p } = await read(PRODUCT_READ, {
        id: okIds(mixed[i] as Awaited<ReturnType<typeof writeOne>>).product,
      });
      expect(p.variants.map((v: { sku: string }) => v.sku).sort()).toEqual([1, 2, 3].map((n) => `${more[i]}-${n}`));
      expect(p.optionGroups).toHaveLength(1);
    }
  });

  it("asks for a chunk's images, facet values and collections once for the chunk, and for the shop's facts once per isolate", async () => {
    const ctx = {
      mapping,
      mediaBytes: async (ref: { sha256: string }) => {
        const stored = imageStore.get(ref.sha256);
        if (!stored) throw new Error(`no bytes for ${ref.sha256}`);
        return new Blob([stored.bytes], { type: stored.type });
      },
      refusedUrl: (url: string) => refusedUrlReason(url, true),
      linkBytes: async () => new Blob([]),
      idsOf: async () => new Map(),
      referencing: async () => [],
    };
    // Five new masters: one new image shared by all and one of each's own, new feature values
    // and a new category each, none of them in the shop yet.
    const shared = image(png(1, 2, 3), 'chunk-shared.png', 0);
    const skus = [0, 1, 2, 3, 4].map((i) => `NYM-CH-${i}`);
    const records = skus.map((sku, i) => {
      const base = cableMaster(sku, taxId);
      const product: Product = {
        ...base,
        classification: {
          classes: base.classification?.classes ?? [],
          features: [
            { group: 'EC000001', code: 'EF005474', name: 'Protection class', value: `IP6${i}-chunk`, unit: null },
          ],
        },
        media: [shared, image(png(40 + i, 50, 60), `${sku}-own.png`, 1)],
        categories: [{ id: `ch-${i}`, path: ['Kabel', `Chunk-Serie ${i}`] }],
      };
      return { index: i, record: upsert(sku, product), known: null, previous: null };
    });
    const first = countingAdapter();
    const outcomes = (await first.adapter.write(records, ctx)).sort((a, b) => a.index - b.index);
    expect(outcomes.map((o) => o.ok && o.action)).toEqual(['created', 'created', 'created', 'created', 'created']);
    const count = (name: string) => first.operations.filter((o) => o === name).length;
    // Asked once for the chunk, not once per record.
    expect(count('AssetsByTag')).toBe(1);
    expect(count('FacetValues')).toBe(1);
    expect(count('CollectionsBySlug')).toBe(1);
    // What is missing is made in one request per kind (aliased fields); collections one each (a child needs its parent's id).
    expect(count('CreateFacetValues')).toBe(1);
    expect(first.operations).not.toContain('Collections');
    expect(first.operations).not.toContain('CollectionImage');
    expect(count('CreateCollection')).toBe(5);
    // Six new files (one shared, five own), each uploaded once.
    expect(count('upload')).toBe(6);
    expect(count('Probe')).toBeLessThanOrEqual(1);
    expect(count('CreateProducts') + count('AttachGroups') + count('CreateVariants')).toBe(3);

    const ids = outcomes.map((o) => okIds(o as Awaited<ReturnType<typeof writeOne>>));
    for (const [i, id] of ids.entries()) {
      const { product: p } = await read(PRODUCT_READ, { id: id.product });
      expect(p.assets).toHaveLength(2);
      expect(p.assets[0].id).toBe(ids[0]?.media?.[shared.sha256]);
      const names = p.facetValues.map((v: { name: string }) => v.name);
      expect(names).toContain(`IP6${i}-chunk`);
      expect(names).toContain(`Kabel / Chunk-Serie ${i}`);
    }

    // The shop's facts as GET /mappings reads them are kept for the isolate: the next request (a
    // new adapter) validates a batch and writes without asking for them again.
    await first.adapter.mappings();
    const next = countingAdapter();
    const kept = await next.adapter.mappings({ cached: true });
    expect(kept.taxes).toEqual([{ id: taxId, code: 'Standard', rate: 19 }]);
    expect(next.operations).toEqual([]);
    const [updated] = await next.adapter.write(
      [
        {
          index: 0,
          record: upsert(skus[0] as string, records[0]?.record.product as Product, 'update'),
          known: ids[0] ?? null,
          previous: null,
        },
      ],
      ctx,
    );
    expect(updated).toMatchObject({ ok: true, action: 'updated' });
    expect(next.operations).not.toContain('Probe');
    expect(next.operations).not.toContain('Manufacturers');
    // Without `cached`, the shop is asked.
    next.operations.length = 0;
    await next.adapter.mappings();
    expect(next.operations).toEqual(['Probe', 'Manufacturers']);
  });

  it('removes the option groups a refused attach left unattached before writing the chunk one by one', async () => {
    const before = await groupCount();
    // Vendure makes the products and their option groups, then refuses the request that attaches the groups.
    const { adapter: refusing, operations } = countingAdapter(new Set(['AttachGroups']));
    const skus = ['NYM-AG-1', 'NYM-AG-2'];
    const outcomes = (
      await refusing.write(
        skus.map((sku, i) => ({ index: i, record: upsert(sku, cableMaster(sku, taxId)), known: null, previous: null })),
        {
          mapping,
          mediaBytes: async (ref) => {
            const stored = imageStore.get(ref.sha256);
            if (!stored) throw new Error(`no bytes for ${ref.sha256}`);
            return new Blob([stored.bytes], { type: stored.type });
          },
          refusedUrl: (url) => refusedUrlReason(url, true),
          linkBytes: async () => new Blob([]),
          idsOf: async () => new Map(),
          referencing: async () => [],
        },
      )
    ).sort((a, b) => a.index - b.index);
    expect(outcomes.map((o) => o.ok && o.action)).toEqual(['created', 'created']);
    expect(operations.filter((o) => o === 'CreateProducts')).toHaveLength(1);
    expect(operations.filter((o) => o === 'DeleteGroups')).toHaveLength(1);
    // One group per product in the end (each product has one): the two the refused attach left are gone.
    expect(await groupCount()).toBe(before + 2);
    await expectCableGroups(outcomes);
  });

  it("keeps another request's option groups of the same codes when it removes the groups its refused attach left", async () => {
    const before = await groupCount();
    // Request B has made its products and groups and is about to attach them when request A's
    // attach is refused and A cleans up after itself.
    let attaching = () => {};
    const bReady = new Promise<void>((resolve) => {
      attaching = resolve;
    });
    let releaseB = () => {};
    const aDone = new Promise<void>((resolve) => {
      releaseB = resolve;
    });
    const holdAttach: StandIn = async (operation) => {
      if (operation !== 'AttachGroups') return null;
      attaching();
      await aDone;
      return null;
    };
    const b = countingAdapter(new Set(), holdAttach, 120_000);
    const a = countingAdapter(new Set(['AttachGroups']));
    const record = (sku: string, index: number) => ({
      index,
      record: upsert(sku, cableMaster(sku, taxId)),
      known: null,
      previous: null,
    });
    const bWrite = b.adapter.write([record('NYM-LG-B1', 0)], chunkContext());
    await bReady;
    const aOutcomes = await a.adapter.write([record('NYM-LG-A1', 0)], chunkContext());
    releaseB();
    const bOutcomes = await bWrite;

    expect(aOutcomes.map((o) => o.ok && o.action)).toEqual(['created']);
    expect(a.operations.filter((o) => o === 'DeleteGroups')).toHaveLength(1);
    expect(bOutcomes.map((o) => o.ok && o.action)).toEqual(['created']);
    // B's groups were still there to attach: no refusal, no cleanup and no one-by-one groups of its own.
    expect(b.operations.filter((o) => ['DeleteGroups', 'CreateGroup'].includes(o))).toEqual([]);
    await expectCableGroups([...aOutcomes, ...bOutcomes]);
    expect(await groupCount()).toBe(before + 2);
  });

  it('sweeps marked option groups no product holds once they are an hour old, when it cleans up its own', async () => {
    // Left by a CreateProducts whose answer was lost and which Vendure ran after its call's cleanup.
    const { createProductOptionGroup: left } = await read(
      `mutation { createProductOptionGroup(input: { code: "pim-ef000008~making-00000000000000aa",
        translations: [{ languageCode: en, name: "Left" }], options: [] }) { id } }`,
    );
    const groupById = `query($id: ID!) { productOptionGroup(id: $id) { id } }`;
    // Within the hour it may still be a running request's: kept.
    const { adapter: now } = countingAdapter(new Set(['AttachGroups']));
    const fresh = await now.write(
      [{ index: 0, record: upsert('NYM-SW-1', cableMaster('NYM-SW-1', taxId)), known: null, previous: null }],
      chunkContext(),
    );
    expect(fresh.map((o) => o.ok)).toEqual([true]);
    expect((await read(groupById, { id: left.id })).productOptionGroup).not.toBeNull();
    // Two hours on, the next cleanup takes it.
    const later = Date.now() + 2 * 60 * 60 * 1000;
    const { adapter: hoursLater } = countingAdapter(new Set(['AttachGroups']), undefined, undefined, () => later);
    const swept = await hoursLater.write(
      [{ index: 0, record: upsert('NYM-SW-2', cableMaster('NYM-SW-2', taxId)), known: null, previous: null }],
      chunkContext(),
    );
    expect(swept.map((o) => o.ok)).toEqual([true]);
    expect((await read(groupById, { id: left.id })).productOptionGroup).toBeNull();
    await expectCableGroups([...fresh, ...swept]);
  });

  it('does not send a timed-out create again: finds what it made by pimSku, one product per SKU and no loose option group', async () => {
    const before = await groupCount();
    // Vendure runs the chunk's CreateProducts, but its answer is held past the adapter's timeout (a slow shop).
    let held = 0;
    const holdFirstCreate: StandIn = async (operation, input, init) => {
      if (operation !== 'CreateProducts' || held++ > 0) return null;
      const { signal, ...sent } = init;
      await (await fetch(input, sent)).text();
      return await new Promise<Response>((_, reject) => {
        const timedOut = () => reject(signal?.reason ?? new DOMException('timed out', 'TimeoutError'));
        if (signal?.aborted) timedOut();
        else signal?.addEventListener('abort', timedOut);
      });
    };
    const { adapter: slow, operations } = countingAdapter(new Set(), holdFirstCreate, 8_000);
    const skus = ['NYM-TO-1', 'NYM-TO-2'];
    const outcomes = await runChunk(slow, skus);
    expect(outcomes.map((o) => o.ok && o.action)).toEqual(['created', 'created']);
    // Sent once: the resend would make the products again (refused by the unique pimSku) while the first stays.
    expect(operations.filter((o) => o === 'CreateProducts')).toHaveLength(1);
    expect(await pimSkusOf(skus)).toEqual(skus);
    await expectCableGroups(outcomes);
    // The groups the lost request made were found and removed: one group per product.
    expect(await groupCount()).toBe(before + 2);
  });

  it('after a lost create answer, a product not found is tried again by the run, not created twice at once', async () => {
    // The first CreateProducts never reaches Vendure and its answer never comes (a dead connection).
    let dropped = 0;
    const dropFirstCreate: StandIn = async (operation, _input, init) => {
      if (operation !== 'CreateProducts' || dropped++ > 0) return null;
      const { signal } = init;
      return await new Promise<Response>((_, reject) => {
        const timedOut = () => reject(signal?.reason ?? new DOMException('timed out', 'TimeoutError'));
        if (signal?.aborted) timedOut();
        else signal?.addEventListener('abort', timedOut);
      });
    };
    const { adapter: cut, operations } = countingAdapter(new Set(), dropFirstCreate, 5_000);
    const skus = ['NYM-TO-3', 'NYM-TO-4'];
    const rounds: boolean[][] = [];
    const outcomes = await runChunk(cut, skus, rounds);
    // Round 1: not found after the lost answer, so retryable failures; round 2: looked up again, then created.
    expect(rounds[0]).toEqual([false, false]);
    expect(outcomes.map((o) => o.ok && o.action)).toEqual(['created', 'created']);
    expect(operations.filter((o) => o === 'CreateProducts')).toHaveLength(2);
    expect(await pimSkusOf(skus)).toEqual(skus);
  });

  it('removes the option groups a refused CreateProducts made before the field Vendure refused', async () => {
    expect(okIds(await writeOne(upsert('NYM-RC-0', cableMaster('NYM-RC-0', taxId))))).toBeTruthy();
    const before = await groupCount();
    // The chunk's second product is refused inside the document (its pimSku taken, as by a product made meanwhile):
    // Vendure has made the first product and its option group by then, and answers no data.
    let rewritten = 0;
    const takenSku: StandIn = async (operation, input, init) => {
      if (operation !== 'CreateProducts' || rewritten++ > 0) return null;
      const body = JSON.parse(init.body as string);
      body.variables.p1.customFields.pimSku = 'NYM-RC-0';
      return fetch(input, { ...init, body: JSON.stringify(body) });
    };
    const { adapter: refused, operations } = countingAdapter(new Set(), takenSku);
    const skus = ['NYM-RC-1', 'NYM-RC-2'];
    const outcomes = (
      await refused.write(
        skus.map((sku, i) => ({ index: i, record: upsert(sku, cableMaster(sku, taxId)), known: null, previous: null })),
        chunkContext(),
      )
    ).sort((a, b) => a.index - b.index);
    expect(operations.filter((o) => o === 'CreateProducts')).toHaveLength(1);
    expect(outcomes.map((o) => o.ok && o.action)).toEqual(['created', 'created']);
    expect(await groupCount()).toBe(before + 2);
  });

  // Only media typed as images are sent (adapters/common/images.ts): the refused file claims to be one and is served as text.
  it("answers a file type Vendure refuses as that record's failure with Vendure's message, the others written", async () => {
    const served = image(new TextEncoder().encode('not an image'), 'readme.txt', 0, 'text/plain');
    const bad = { ...cableMaster('NYM-700', taxId), media: [{ ...served, contentType: 'image/png' }] };
    const good = cableMaster('NYM-710', taxId);
    const [a, b] = await write([upsert('NYM-700', bad), upsert('NYM-710', good)]);
    expect(a).toMatchObject({ index: 0, ok: false, field: 'product.media', retryable: false });
    expect(a?.ok === false && a.error).toMatch(/MIME type.*text\/plain.*not permitted/i);
    expect(b).toMatchObject({ index: 1, ok: true, action: 'created' });
    expect(await adapter.findBySku(['NYM-700'])).toEqual(new Map());
  });
});
