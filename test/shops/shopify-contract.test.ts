import { parse, validate } from 'graphql';
import { categoryLink } from './fixtures/wire-product';
import { refusedUrlReason } from '../../connector/src/targets/url-guard';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Product, UpsertRecord } from '../../src/sync/protocol/wire';
import { createShopifyAdapter } from '../../connector/src/adapters/shopify/shopify-adapter';
import { SHOPIFY_DOCUMENTS } from '../../connector/src/adapters/shopify/shopify-documents';
import {
  type RecordOutcome,
  TargetError,
  type TargetMapping,
  type WriteContext,
} from '../../connector/src/adapters/target-adapter';
import { createTargetHttp } from '../../connector/src/adapters/target-http';
import { pinnedSchema, type ShopifyContract, startShopifyContract } from './shopify/contract-server';
import { image, MAPPING, Mirror, master, simple, upsert } from './shopify/fixtures';

/**
 * The Shopify adapter against Shopify's published Admin GraphQL schema (2026-07, pinned in
 * connector/contracts/shopify/): every document the adapter can send validates against it, and
 * a local contract server executes the adapter's requests against the same schema over an
 * in-memory shop, with Shopify's cost budget, THROTTLED answers and injected 429 / 5xx /
 * timeouts. Time is virtual: the adapter's sleeps are recorded and advance the clock the
 * server's bucket refills by, so nothing here waits or depends on timing.
 */
const TOKEN = 'shpat_contract_test_token';
const SKU = 'LS-B-SET';

let server: ShopifyContract;
let clock: { now: number };
let sleeps: number[];
let mirror: Mirror;
/** One adapter per test, as the connector keeps one per request: it remembers the cost budget and the collections it found. */
let shared: ReturnType<typeof adapter> | null;

function adapter(options: { token?: string; attempts?: number } = {}) {
  const http = createTargetHttp({
    fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.now += ms;
    },
    timeoutMs: 250,
    attempts: options.attempts ?? 3,
  });
  return createShopifyAdapter(
    { kind: 'shopify', url: server.url, credentials: { accessToken: options.token ?? TOKEN }, mapping: MAPPING },
    { http, now: () => clock.now },
  );
}

async function write(
  records: UpsertRecord[],
  mapping: TargetMapping = MAPPING,
  more: Partial<WriteContext> = {},
): Promise<RecordOutcome[]> {
  shared ??= adapter();
  const outcomes = await shared.write(mirror.targets(records), {
    ...more,
    mapping,
    mediaBytes: async () => {
      throw new Error('Shopify fetches images by URL');
    },
    refusedUrl: (url) => refusedUrlReason(url, false),
    linkBytes: async () => {
      throw new Error('Shopify fetches category pictures by URL');
    },
    idsOf: async (skus) => mirror.idsOf(skus),
    referencing: async (skus) => mirror.referencing(skus),
    mastersByMpn: async (numbers) => mirror.mastersByMpn(numbers),
  });
  mirror.keep(records, outcomes);
  return outcomes.sort((a, b) => a.index - b.index);
}

/** The operations the server received from `from` on. */
const operationsSince = (from: number) => server.received.slice(from).map((r) => r.operationName);
const onlyProduct = () => [...server.state.products.values()].find((p) => p.metafields.get('pim.sku')?.value === SKU)!;

beforeEach(async () => {
  clock = { now: 0 };
  sleeps = [];
  mirror = new Mirror();
  shared = null;
  server = await startShopifyContract({ token: TOKEN, now: () => clock.now });
});

afterEach(async () => {
  // Every document the server received was valid against the pinned schema and is one the adapter declares.
  expect(server.invalid).toEqual([]);
  const declared = new Set(Object.values(SHOPIFY_DOCUMENTS));
  expect(server.received.filter((r) => !declared.has(r.query)).map((r) => r.operationName)).toEqual([]);
  await server.close();
});

describe("the adapter's GraphQL documents", () => {
  it('validate against the pinned Admin API schema', () => {
    const schema = pinnedSchema();
    const failures = Object.entries(SHOPIFY_DOCUMENTS).flatMap(([name, document]) =>
      validate(schema, parse(document)).map((error) => `${name}: ${error.message}`),
    );
    expect(Object.keys(SHOPIFY_DOCUMENTS).length).toBeGreaterThanOrEqual(17);
    expect(failures).toEqual([]);
  });

  it('are refused by the contract server when they name a field the schema lacks', async () => {
    const response = await fetch(`${server.url}/admin/api/2026-07/graphql.json`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': TOKEN },
      body: JSON.stringify({ query: '{ shop { name pimNoSuchField } }' }),
    });
    const body = (await response.json()) as { errors: { message: string }[] };
    expect(body.errors[0]!.message).toContain('pimNoSuchField');
    expect(server.invalid).toHaveLength(1);
    server.invalid.length = 0;
  });
});

describe('probe and mappings', () => {
  it('reads the shop, its locales and currencies, and says tiers are not sent without price lists', async () => {
    const probe = await adapter().probe();
    expect(probe.name).toBe('PIM Contract Shop');
    expect(probe.languages).toEqual(['de', 'en', 'fr']);
    expect(probe.currencies).toEqual(['EUR', 'CHF']);
    expect(probe.details.priceTiers).toContain('not sent');
    expect(probe.details.apiVersion).toBe('2026-07');
  });

  it('throws a TargetError naming the access token when the shop refuses it', async () => {
    const error = await adapter({ token: 'wrong' })
      .probe()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetError);
    expect((error as TargetError).message).toContain('access token');
    expect((error as TargetError).message).not.toContain('wrong');
  });

  it("offers the shop's vendors as manufacturers and no units", async () => {
    await write([upsert(SKU, master())]);
    const mappings = await adapter().mappings();
    expect(mappings.manufacturers).toEqual([{ id: 'Hager', name: 'Hager' }]);
    expect(mappings.units).toEqual([]);
    expect(mappings.taxes.map((t) => t.id)).toEqual(['taxable', 'exempt']);
  });
});

describe('writing a master', () => {
  it('writes variants, options, prices, features, translations, collections and images', async () => {
    const [outcome] = await write([upsert(SKU, master())]);
    expect(outcome).toMatchObject({ ok: true, action: 'created' });
    const product = onlyProduct();
    expect(product.title).toBe('Leitungsschutzschalter B');
    expect(product.vendor).toBe('Hager');
    expect(product.status).toBe('ACTIVE');
    expect(product.tags).toEqual(['MCB', 'Sicherung']);
    expect(product.options).toEqual([{ name: 'Bemessungsstrom', values: ['16 A', '20 A', '25 A'] }]);
    expect(product.variants.map((v) => [v.sku, v.price, v.options[0]!.name])).toEqual([
      ['LS-B16', '4.20', '16 A'],
      ['LS-B20', '4.40', '20 A'],
      ['LS-B25', '4.60', '25 A'],
    ]);
    expect(product.metafields.get('pim.f_EF000030')).toEqual({ type: 'number_decimal', value: '1' });
    expect(product.metafields.get('pim.v_material')).toEqual({ type: 'multi_line_text_field', value: 'Kunststoff' });
    expect(product.variants[1]!.metafields.get('pim.f_EF000010')).toEqual({
      type: 'single_line_text_field',
      value: '20 A',
    });
    expect(Object.fromEntries(product.translations)).toEqual({
      en: new Map([
        ['title', 'Circuit breaker B'],
        ['body_html', '<p>For home installations</p>'],
      ]),
      fr: new Map([['title', 'Disjoncteur B']]),
    });
    const collections = [...server.state.collections.values()];
    expect(collections.map((c) => [c.title, c.productIds.has(product.id)])).toEqual([
      ['Schutzschalter', true],
      ['Angebote', true],
    ]);
    expect(product.media.map((m) => m.originalSource)).toEqual([
      'https://media.example.com/a.jpg',
      'https://media.example.com/b.jpg',
    ]);
    const ids = outcome!.ok ? outcome!.ids! : null;
    expect(ids?.product).toBe(product.id);
    expect(Object.keys(ids?.variants ?? {})).toEqual(['LS-B16', 'LS-B20', 'LS-B25']);
    expect(ids?.media).toEqual({ ['a'.repeat(64)]: product.media[0]!.id, ['b'.repeat(64)]: product.media[1]!.id });
    expect(JSON.parse(product.metafields.get('pim.media')!.value)).toEqual(ids?.media);
  });

  it('makes nothing on a second run and adds no media, with or without the product as last written', async () => {
    await write([upsert(SKU, master())]);
    const made = { ...server.state.made };
    const from = server.received.length;
    const [again] = await write([upsert(SKU, master(), 'update')]);
    expect(again).toMatchObject({ ok: true, action: 'updated' });
    expect(operationsSince(from)).toEqual(['PimProductSet']);
    mirror.rows.get(SKU)!.product = null;
    await write([upsert(SKU, master(), 'update')]);
    expect(server.state.made).toEqual(made);
    expect(server.state.products.size).toBe(1);
    expect(onlyProduct().media).toHaveLength(2);
    expect(onlyProduct().variants).toHaveLength(3);
  });

  it('sends only the changed value', async () => {
    await write([upsert(SKU, master())]);
    const made = { ...server.state.made };
    const changed = master();
    changed.variants[1]!.prices![0]!.amount = '4.45';
    const from = server.received.length;
    await write([upsert(SKU, changed, 'update')]);
    expect(operationsSince(from)).toEqual(['PimProductSet']);
    expect(onlyProduct().variants.map((v) => v.price)).toEqual(['4.20', '4.45', '4.60']);
    expect(server.state.made).toEqual(made);
  });

  it('removes a removed variant, image, feature, category and translation', async () => {
    await write([upsert(SKU, master())]);
    const made = { ...server.state.made };
    const less = master();
    less.variants.pop();
    less.media.pop();
    less.values = {};
    less.categories.pop();
    delete less.translations!.fra;
    await write([upsert(SKU, less, 'update')]);
    const product = onlyProduct();
    expect(product.variants.map((v) => v.sku)).toEqual(['LS-B16', 'LS-B20']);
    expect(product.options).toEqual([{ name: 'Bemessungsstrom', values: ['16 A', '20 A'] }]);
    expect(product.media.map((m) => m.originalSource)).toEqual(['https://media.example.com/a.jpg']);
    expect(product.metafields.has('pim.v_material')).toBe(false);
    expect([...server.state.collections.values()].map((c) => c.productIds.has(product.id))).toEqual([true, false]);
    expect(product.translations.get('fr')?.size ?? 0).toBe(0);
    expect(product.translations.get('en')?.get('title')).toBe('Circuit breaker B');
    expect(server.state.made).toEqual(made);
    expect(Object.keys(mirror.rows.get(SKU)!.ids.media!)).toEqual(['a'.repeat(64)]);
    // The removed image's file left the Files library too.
    expect(server.state.unshownMedia()).toEqual([]);
    expect([...server.state.media.keys()]).toEqual([product.media[0]!.id]);
    // The next run (the same record again) makes, uploads and deletes nothing, and the image stays off.
    const from = server.received.length;
    await write([upsert(SKU, less, 'update')]);
    expect(operationsSince(from)).toEqual(['PimProductSet']);
    expect(server.state.made).toEqual(made);
    expect([...server.state.media.keys()]).toEqual([product.media[0]!.id]);
    expect(onlyProduct().media.map((m) => m.originalSource)).toEqual(['https://media.example.com/a.jpg']);
  });

  it('writes the order details as pim metafields, a variant by its master, and deletes the ones cleared', async () => {
    const ordered = master();
    Object.assign(ordered, { contentUnit: 'C62', contentPerUnit: '6', quantityMin: '2.5', quantityInterval: '0.5' });
    ordered.variants[1]!.quantityMin = '10';
    const [outcome] = await write([upsert(SKU, ordered)]);
    expect(outcome).toMatchObject({ ok: true, action: 'created' });
    const orderOf = (metafields: Map<string, { type: string; value: string }>) =>
      Object.fromEntries(
        ['content_unit', 'content_per_unit', 'quantity_min', 'quantity_interval'].flatMap((key) => {
          const field = metafields.get(`pim.${key}`);
          return field ? [[key, field]] : [];
        }),
      );
    const decimal = (value: string) => ({ type: 'number_decimal', value });
    const all = {
      content_unit: { type: 'single_line_text_field', value: 'C62' },
      content_per_unit: decimal('6'),
      quantity_min: decimal('2.5'),
      quantity_interval: decimal('0.5'),
    };
    expect(orderOf(onlyProduct().metafields)).toEqual(all);
    expect(onlyProduct().variants.map((v) => orderOf(v.metafields))).toEqual([
      all,
      { ...all, quantity_min: decimal('10') },
      all,
    ]);

    // Cleared in the PIM: the keys are gone from the product and its variants.
    const [cleared] = await write([upsert(SKU, master(), 'update')]);
    expect(cleared).toMatchObject({ ok: true, action: 'updated' });
    expect(orderOf(onlyProduct().metafields)).toEqual({});
    expect(onlyProduct().variants.map((v) => orderOf(v.metafields))).toEqual([{}, {}, {}]);
  });

  it('fails a record whose order detail has more places than Shopify keeps, naming the field, never rounding', async () => {
    const fine = master();
    fine.variants[2]!.quantityInterval = '0.0000000001';
    const outcomes = await write([upsert(SKU, fine), upsert('NYM-3X15', simple('NYM-3X15'))]);
    expect(outcomes[0]).toEqual({
      index: 0,
      ok: false,
      field: 'product.variants.2.quantityInterval',
      error: 'Shopify keeps a decimal metafield to 9 places: 0.0000000001 is not sent rounded',
      retryable: false,
    });
    expect(outcomes[1]).toMatchObject({ ok: true, action: 'created' });
    expect(server.state.products.size).toBe(1);
  });

  it("deletes a replaced image's file from the Files library, never the merchant's, and a second run writes nothing", async () => {
    await write([upsert(SKU, master())]);
    const [fileA, fileB] = onlyProduct().media.map((m) => m.id);
    // The merchant's own files: one only in the library, one added to the PIM's product by hand.
    const merchant = { id: 'gid://shopify/MediaImage/1', originalSource: 'https://shop.example.com/logo.png' };
    const byHand = { id: 'gid://shopify/MediaImage/2', originalSource: 'https://shop.example.com/detail.png' };
    server.state.media.set(merchant.id, merchant);
    server.state.media.set(byHand.id, byHand);
    onlyProduct().media.push(byHand);
    const replaced = master();
    replaced.media = [image('a', 0), image('c', 1)];
    server.drain(1000); // a full bucket: each document once, none answered THROTTLED
    const from = server.received.length;
    const [outcome] = await write([upsert(SKU, replaced, 'update')]);
    expect(outcome).toMatchObject({ ok: true, action: 'updated' });
    // A new image on a product the shop held: its name is looked up once (a file an earlier write left astray).
    expect(operationsSince(from)).toEqual([
      'PimProductSet',
      'PimFilesByName',
      'PimMetafieldsSet',
      'PimFileDelete',
      'PimMetafieldsSet',
    ]);
    const product = onlyProduct();
    const fileC = product.media[1]!.id;
    expect(product.media.map((m) => m.id)).toEqual([fileA, fileC]);
    expect(server.state.deletedFiles).toEqual([fileB]);
    expect([...server.state.media.keys()].sort()).toEqual([fileA, fileC, merchant.id, byHand.id].sort());
    const media = { ['a'.repeat(64)]: fileA, ['c'.repeat(64)]: fileC };
    expect(JSON.parse(product.metafields.get('pim.media')!.value)).toEqual(media);
    expect(mirror.rows.get(SKU)!.ids.media).toEqual(media);
    // The same record again: nothing made, uploaded, deleted or marked.
    const made = { ...server.state.made };
    const again = server.received.length;
    await write([upsert(SKU, replaced, 'update')]);
    expect(operationsSince(again)).toEqual(['PimProductSet']);
    expect(server.state.made).toEqual(made);
    expect(server.state.deletedFiles).toEqual([fileB]);
  });

  it('deletes the file the next run when a crash or a refusal came between detaching and deleting it', async () => {
    await write([upsert(SKU, master())]);
    const fileB = onlyProduct().media[1]!.id;
    const replaced = master();
    replaced.media = [image('a', 0), image('c', 1)];
    // fileDelete never answers: the image is off the product, its file still in the library.
    server.faults.push({ operation: 'PimFileDelete', kind: 'timeout', times: 3 });
    const [failed] = await write([upsert(SKU, replaced, 'update')]);
    expect(failed).toMatchObject({ ok: false, retryable: true });
    expect(onlyProduct().media.map((m) => m.id)).not.toContain(fileB);
    expect(server.state.unshownMedia()).toEqual([fileB]);
    // The mirror kept the old ids (the record failed), and the marker names the retired file.
    expect(Object.keys(mirror.rows.get(SKU)!.ids.media!)).toEqual(['a'.repeat(64), 'b'.repeat(64)]);
    expect(Object.values(JSON.parse(onlyProduct().metafields.get('pim.media')!.value))).toContain(fileB);
    // The next run finds and deletes it, and what the failed write uploaded is not left behind either.
    const [next] = await write([upsert(SKU, replaced, 'update')]);
    expect(next).toMatchObject({ ok: true, action: 'updated' });
    expect(server.state.unshownMedia()).toEqual([]);
    expect(server.state.media.has(fileB)).toBe(false);
    expect(onlyProduct().media).toHaveLength(2);
    expect(JSON.parse(onlyProduct().metafields.get('pim.media')!.value)).toEqual(mirror.rows.get(SKU)!.ids.media);
    const made = { ...server.state.made };
    const from = server.received.length;
    await write([upsert(SKU, replaced, 'update')]);
    expect(operationsSince(from)).toEqual(['PimProductSet']);
    expect(server.state.made).toEqual(made);
  });

  it("retires a new image's first file when productSet's answer was lost and it was sent again", async () => {
    // Shopify ran the create and made both images' files; the answer was lost, the resend made them again.
    server.faults.push({ operation: 'PimProductSet', kind: 'lostAnswer', times: 1 });
    const [outcome] = await write([upsert(SKU, master())]);
    expect(outcome).toMatchObject({ ok: true, action: 'created' });
    expect(server.state.made.media).toBe(4);
    // The first two files were found by their names and deleted: nothing of the PIM's is left unshown.
    expect(server.state.unshownMedia()).toEqual([]);
    expect(server.state.deletedFiles).toHaveLength(2);
    expect(JSON.parse(onlyProduct().metafields.get('pim.media')!.value)).toEqual(mirror.rows.get(SKU)!.ids.media);
    // A write without new images searches nothing.
    const from = server.received.length;
    await write([upsert(SKU, master(), 'update')]);
    expect(operationsSince(from)).toEqual(['PimProductSet']);
  });

  it("retires a new image's first file that a write stopping before its marker left, never a merchant's file of a like name", async () => {
    await write([upsert(SKU, master())]);
    const replaced = master();
    replaced.media = [image('a', 0), image('c', 1)];
    // productSet makes c's file, then the marker is never set (as a crash right after productSet).
    server.faults.push({ operation: 'PimMetafieldsSet', kind: 'timeout', times: 3 });
    const [failed] = await write([upsert(SKU, replaced, 'update')]);
    expect(failed).toMatchObject({ ok: false, retryable: true });
    const firstC = onlyProduct().media[1]!.id;
    expect(Object.values(JSON.parse(onlyProduct().metafields.get('pim.media')!.value))).not.toContain(firstC);
    expect(Object.values(mirror.rows.get(SKU)!.ids.media!)).not.toContain(firstC);
    const stem = `pim-ls-b-set-${'c'.repeat(64)}`;
    expect(server.state.media.get(firstC)!.filename).toBe(`${stem}.jpg`);
    const merchant = { id: 'gid://shopify/MediaImage/3', originalSource: 'x', filename: `${stem}-copy.jpg` };
    server.state.media.set(merchant.id, merchant);

    // The next run uploads c again (its id was never kept) and finds the first file by its name.
    const from = server.received.length;
    const [next] = await write([upsert(SKU, replaced, 'update')]);
    expect(next).toMatchObject({ ok: true, action: 'updated' });
    expect(operationsSince(from)).toContain('PimFilesByName');
    expect(server.state.media.has(firstC)).toBe(false);
    expect(server.state.unshownMedia()).toEqual([merchant.id]);
    expect(onlyProduct().media).toHaveLength(2);
    expect(JSON.parse(onlyProduct().metafields.get('pim.media')!.value)).toEqual(mirror.rows.get(SKU)!.ids.media);
  });

  it('deletes a file an interrupted write took off the product when the product is deleted next', async () => {
    await write([upsert(SKU, master())]);
    const less = master();
    less.media = [image('a', 0)];
    server.faults.push({ operation: 'PimFileDelete', kind: 'http500', times: 3 });
    expect((await write([upsert(SKU, less, 'update')]))[0]).toMatchObject({ ok: false, retryable: true });
    expect(server.state.unshownMedia()).toHaveLength(1);
    const [gone] = await write([{ op: 'deactivate', sku: SKU, fingerprint: 'gone' }], {
      ...MAPPING,
      onDeactivate: 'delete',
    });
    expect(gone).toMatchObject({ ok: true, action: 'deactivated', ids: null });
    expect(server.state.products.size).toBe(0);
    expect(server.state.media.size).toBe(0);
  });

  it("finds a retired file by the product's marker when the mirror was lost as well, and counts one already gone as deleted", async () => {
    await write([upsert(SKU, master())]);
    const fileB = onlyProduct().media[1]!.id;
    const less = master();
    less.media = [image('a', 0)];
    server.faults.push({ operation: 'PimFileDelete', kind: 'http500', times: 3 });
    expect((await write([upsert(SKU, less, 'update')]))[0]).toMatchObject({ ok: false, retryable: true });
    mirror.rows.clear();
    const [found] = await write([upsert(SKU, less, 'update')]);
    expect(found).toMatchObject({ ok: true, action: 'updated' });
    expect(server.state.media.has(fileB)).toBe(false);
    expect(server.state.unshownMedia()).toEqual([]);
    // A mirror naming a file that is gone (deleted, then the crash lost the commit): deleted, no failure.
    const stale = {
      ...mirror.rows.get(SKU)!.ids,
      media: { ...mirror.rows.get(SKU)!.ids.media, ['b'.repeat(64)]: fileB },
    };
    mirror.rows.set(SKU, { ...mirror.rows.get(SKU)!, ids: stale });
    const [gone] = await write([upsert(SKU, less, 'update')]);
    expect(gone).toMatchObject({ ok: true, action: 'updated' });
    expect(server.state.unshownMedia()).toEqual([]);
  });

  it('writes references as product-reference lists per type, completes them when the referenced product is made, and removes them', async () => {
    const withRefs = { ...MAPPING, references: true };
    const referencing: Product = {
      ...simple('REF-A'),
      references: [
        { type: 'accessories', sku: 'REF-B', quantity: null },
        { type: 'spare part', sku: 'REF-C', quantity: 2 },
        { type: 'accessories', sku: 'REF-A', quantity: null },
      ],
    };
    const shopIdOf = (sku: string) =>
      [...server.state.products.values()].find((p) => p.metafields.get('pim.sku')?.value === sku)!;
    const lists = (sku: string) =>
      Object.fromEntries(
        [...shopIdOf(sku).metafields]
          .filter(([key]) => key.startsWith('pim.references_'))
          .map(([key, field]) => [key, { type: field.type, value: JSON.parse(field.value) }]),
      );
    // REF-A comes before REF-B in the chunk: its list is completed once REF-B is made; REF-C is not in the shop.
    const first = await write([upsert('REF-A', referencing), upsert('REF-B', simple('REF-B'))], withRefs);
    expect(first.map((o) => o.ok)).toEqual([true, true]);
    expect(lists('REF-A')).toEqual({
      'pim.references_accessories': { type: 'list.product_reference', value: [shopIdOf('REF-B').id] },
    });
    expect(mirror.rows.get('REF-A')!.ids.extra).toMatchObject({ pendingReferences: '["REF-C"]' });

    // An update that makes no product completes nothing.
    let from = server.received.length;
    await write([upsert('REF-B', simple('REF-B', 'Renamed'), 'update')], withRefs);
    expect(operationsSince(from)).toEqual(['PimProductSet']);

    // REF-C is made in a later batch: REF-A (written before, from the mirror) gets it, without a productSet.
    from = server.received.length;
    await write([upsert('REF-C', simple('REF-C'))], withRefs);
    expect(operationsSince(from)).toEqual([
      'PimVariantsBySku',
      'PimProductsByHandle',
      'PimProductSet',
      'PimMetafieldsSet',
    ]);
    expect(lists('REF-A')).toEqual({
      'pim.references_accessories': { type: 'list.product_reference', value: [shopIdOf('REF-B').id] },
      'pim.references_spare_part': { type: 'list.product_reference', value: [shopIdOf('REF-C').id] },
    });

    // Written again with the product as it is now, nothing is pending; a removed type goes.
    const fewer: Product = { ...referencing, references: [{ type: 'spare part', sku: 'REF-C', quantity: 2 }] };
    await write([upsert('REF-A', fewer, 'update')], withRefs);
    expect(lists('REF-A')).toEqual({
      'pim.references_spare_part': { type: 'list.product_reference', value: [shopIdOf('REF-C').id] },
    });
    expect(mirror.rows.get('REF-A')!.ids.extra?.pendingReferences).toBeUndefined();
    // The mapping without references leaves no list behind.
    await write([upsert('REF-A', fewer, 'update')], MAPPING);
    expect(lists('REF-A')).toEqual({});

    // A referenced product the merchant deleted (still in the mirror): Shopify's refusal names the references.
    server.state.products.delete(shopIdOf('REF-C').id);
    const [refused] = await write([upsert('REF-A', referencing, 'update')], withRefs);
    expect(refused).toMatchObject({ ok: false, field: 'product.references', retryable: false });
  });

  it('lists a reference by manufacturer number as the product carrying that number, never one with it as SKU', async () => {
    const withRefs = { ...MAPPING, references: true };
    const shopIdOf = (sku: string) =>
      [...server.state.products.values()].find((p) => p.metafields.get('pim.sku')?.value === sku)!;
    const accessories = (sku: string) =>
      JSON.parse(shopIdOf(sku).metafields.get('pim.references_accessories')?.value ?? '[]') as string[];
    // MPN-M carries the number NUM-1; another product has NUM-1 as its SKU.
    const carriers = await write([
      upsert('MPN-M', { ...simple('MPN-M'), manufacturerPid: 'NUM-1' }),
      upsert('NUM-1', { ...simple('NUM-1'), manufacturerPid: 'NUM-9' }),
    ]);
    expect(carriers.map((o) => o.ok)).toEqual([true, true]);
    const byNumber = { type: 'accessories', sku: 'NUM-1', quantity: null, targetKind: 'mpn' as const };
    const [linked, missing] = await write(
      [
        // By number (from the mirror) and by a SKU the shop does not hold yet (pending).
        upsert('MPN-A', {
          ...simple('MPN-A'),
          references: [byNumber, { type: 'accessories', sku: 'MPN-LATE', quantity: null }],
        }),
        upsert('MPN-B', { ...simple('MPN-B'), references: [{ ...byNumber, sku: 'NUM-NONE' }] }),
      ],
      withRefs,
    );
    expect(linked).toMatchObject({ ok: true });
    expect(accessories('MPN-A')).toEqual([shopIdOf('MPN-M').id]);
    expect(missing).toMatchObject({
      ok: false,
      field: 'product.references.0',
      error: 'reference not in shop: no product sent to this shop carries the manufacturer number "NUM-NONE"',
      retryable: false,
    });
    expect(shopIdOf('MPN-B')).toBeUndefined();
    // The pending product is made later: MPN-A's list (from the mirror) keeps the product found by number.
    await write([upsert('MPN-LATE', simple('MPN-LATE'))], withRefs);
    expect(accessories('MPN-A')).toEqual([shopIdOf('MPN-M').id, shopIdOf('MPN-LATE').id]);
  });

  it("sends a category's picture as its collection's image once, not again on a second run, and removes it when gone", async () => {
    const picture = 'https://media.example.com/cat/schutz.jpg';
    const withPicture = () => {
      const product = master();
      product.categories[0]!.links = [
        categoryLink('https://media.example.com/cat/schutz.pdf', {
          contentType: 'application/pdf',
          purpose: 'data_sheet',
        }),
        categoryLink(picture, { position: 1 }),
      ];
      return product;
    };
    const [first] = await write([upsert(SKU, withPicture())]);
    expect(first).toMatchObject({ ok: true, action: 'created' });
    const collection = (handle: string) => [...server.state.collections.values()].find((c) => c.handle === handle)!;
    const schutz = collection('pim-cat-cat-schutz');
    expect(schutz.image).toEqual({ src: picture, altText: 'Schutzschalter' });
    expect(schutz.metafields.get('pim.image_source')).toEqual({ type: 'url', value: picture });
    expect(collection('pim-cat-cat-angebote').image).toBeNull();
    expect(server.state.made.collectionImages).toBe(1);

    // Again, and again after a lost mirror row with a new adapter (no cache): the image is not sent.
    const made = { ...server.state.made };
    let from = server.received.length;
    await write([upsert(SKU, withPicture(), 'update')]);
    expect(operationsSince(from)).toEqual(['PimProductSet']);
    mirror.rows.get(SKU)!.product = null;
    shared = null;
    from = server.received.length;
    await write([upsert(SKU, withPicture(), 'update')]);
    expect(operationsSince(from)).not.toContain('PimCollectionUpdate');
    expect(server.state.made).toEqual(made);

    // A changed picture replaces it; none removes the image and the PIM's mark.
    const changed = withPicture();
    changed.categories[0]!.links![1]!.url = 'https://media.example.com/cat/schutz-2.jpg';
    await write([upsert(SKU, changed, 'update')]);
    expect(schutz.image?.src).toBe('https://media.example.com/cat/schutz-2.jpg');
    from = server.received.length;
    const [removed] = await write([upsert(SKU, master(), 'update')]);
    expect(removed).toMatchObject({ ok: true, action: 'updated' });
    // (A document answered THROTTLED is sent again after the refill: each operation once, in this order.)
    expect([...new Set(operationsSince(from))]).toEqual([
      'PimProductSet',
      'PimCollectionUpdate',
      'PimMetafieldsDelete',
    ]);
    expect(schutz.image).toBeNull();
    expect(schutz.metafields.has('pim.image_source')).toBe(false);
    expect(server.state.made.collections).toBe(made.collections);
  });

  it('sets a collection image again for new bytes behind the same URL (categoryPictureChanged), and only then', async () => {
    const picture = 'https://media.example.com/cat/schutz-bytes.jpg';
    const withPicture = () => {
      const product = master();
      product.categories[0]!.links = [categoryLink(picture)];
      return product;
    };
    await write([upsert(SKU, withPicture())]);
    const asked: string[] = [];
    const sent: string[] = [];
    const check = (changed: boolean): Partial<WriteContext> => ({
      categoryPictureChanged: async (url) => {
        asked.push(url);
        return changed;
      },
      categoryPictureSent: async (url) => void sent.push(url),
    });
    let from = server.received.length;
    await write([upsert(SKU, withPicture(), 'update')], MAPPING, check(false));
    expect(operationsSince(from)).not.toContain('PimCollectionUpdate');
    expect(asked).toEqual([picture]);
    expect(sent).toEqual([]);
    const images = server.state.made.collectionImages;
    from = server.received.length;
    await write([upsert(SKU, withPicture(), 'update')], MAPPING, check(true));
    expect(operationsSince(from)).toContain('PimCollectionUpdate');
    expect(server.state.made.collectionImages).toBe(images + 1);
    expect(sent).toEqual([picture]);
  });

  it('fails a record whose category picture the SSRF rule refuses before writing anything of it', async () => {
    const product = master();
    product.categories[1]!.links = [categoryLink('http://10.0.0.7/angebote.png', { contentType: 'image/png' })];
    const [outcome] = await write([upsert(SKU, product)]);
    expect(outcome).toMatchObject({
      ok: false,
      field: 'product.categories.1.links.0',
      error: 'the category image URL is refused: the URL points to a private, loopback or link-local address',
      retryable: false,
    });
    expect(server.state.products.size).toBe(0);
    expect(server.state.collections.size).toBe(0);
  });

  it('names one option SKU when the variants differ in no feature, and gives a master without variants the default option', async () => {
    const same = master();
    for (const v of same.variants) v.classification = null;
    await write([upsert(SKU, same), upsert('NYM-3X15', simple('NYM-3X15'))]);
    expect(onlyProduct().options).toEqual([{ name: 'SKU', values: ['LS-B16', 'LS-B20', 'LS-B25'] }]);
    const cable = [...server.state.products.values()].find((p) => p.metafields.get('pim.sku')?.value === 'NYM-3X15')!;
    expect(cable.options).toEqual([{ name: 'Title', values: ['Default Title'] }]);
    expect(cable.variants.map((v) => [v.sku, v.price])).toEqual([['NYM-3X15', '0.89']]);
  });
});

describe('quantity price breaks', () => {
  const plusShop = () => {
    server.state.priceList = {
      id: 'gid://shopify/PriceList/1',
      name: 'B2B EUR',
      currency: 'EUR',
      fixed: new Map(),
      breaks: new Map(),
    };
    return server.state.priceList;
  };

  it('are not sent where the shop has no price list', async () => {
    const from = server.received.length;
    await write([upsert(SKU, master())]);
    expect(operationsSince(from)).not.toContain('PimQuantityPricing');
  });

  it('go to the B2B price list of a Plus shop, once, and follow changes and removals', async () => {
    const list = plusShop();
    expect((await adapter().probe()).details.priceTiers).toContain('B2B EUR');
    await write([upsert(SKU, master())]);
    const [b16, b20, b25] = onlyProduct().variants.map((v) => v.id);
    expect(list.fixed.get(b16!)).toBe('4.20');
    expect(list.breaks.get(b16!)).toEqual([{ minimumQuantity: 10, price: '3.90' }]);
    expect(list.breaks.get(b25!)).toEqual([{ minimumQuantity: 10, price: '4.30' }]);

    let from = server.received.length;
    await write([upsert(SKU, master(), 'update')]);
    expect(operationsSince(from)).not.toContain('PimQuantityPricing');

    const changed = master();
    changed.variants[1]!.prices![1]!.amount = '4.00';
    changed.variants[2]!.prices = [changed.variants[2]!.prices![0]!];
    from = server.received.length;
    await write([upsert(SKU, changed, 'update')]);
    expect(operationsSince(from).filter((op) => op === 'PimQuantityPricing')).toHaveLength(1);
    expect(list.breaks.get(b16!)).toEqual([{ minimumQuantity: 10, price: '3.90' }]);
    expect(list.breaks.get(b20!)).toEqual([{ minimumQuantity: 10, price: '4.00' }]);
    expect(list.breaks.has(b25!)).toBe(false);
    expect(list.fixed.has(b25!)).toBe(false);
  });
});

describe('deactivating', () => {
  it('archives the product when the mapping disables', async () => {
    await write([upsert(SKU, master())]);
    const [outcome] = await write([{ op: 'deactivate', sku: SKU, fingerprint: 'gone' }]);
    expect(outcome).toMatchObject({ ok: true, action: 'deactivated' });
    expect(onlyProduct().status).toBe('ARCHIVED');
  });

  it('counts a product the merchant already deleted as deactivated', async () => {
    await write([upsert(SKU, master())]);
    server.state.products.clear();
    const [outcome] = await write([{ op: 'deactivate', sku: SKU, fingerprint: 'gone' }]);
    expect(outcome).toMatchObject({ ok: true, action: 'deactivated', ids: null });
  });

  it('deletes the product when the mapping deletes', async () => {
    await write([upsert(SKU, master())]);
    const [outcome] = await write([{ op: 'deactivate', sku: SKU, fingerprint: 'gone' }], {
      ...MAPPING,
      onDeactivate: 'delete',
    });
    expect(outcome).toMatchObject({ ok: true, action: 'deactivated', ids: null });
    expect(server.state.products.size).toBe(0);
  });
});

describe('finding products again', () => {
  it('finds a lost mapping by SKU, with its variants and images, and updates instead of creating', async () => {
    const [first] = await write([upsert(SKU, master()), upsert('NYM-3X15', simple('NYM-3X15'))]);
    const before = first!.ok ? first!.ids : null;
    const made = { ...server.state.made };
    const found = await adapter().findBySku([SKU, 'NYM-3X15', 'UNKNOWN-1']);
    expect(found.get(SKU)).toMatchObject({
      product: before!.product,
      variants: before!.variants,
      media: before!.media,
    });
    expect(found.has('NYM-3X15')).toBe(true);
    expect(found.has('UNKNOWN-1')).toBe(false);
    mirror.rows.clear();
    const [again] = await write([upsert(SKU, master())]);
    expect(again).toMatchObject({ ok: true, action: 'updated' });
    expect(server.state.made).toEqual(made);
  });

  it('refuses a SKU that belongs to a product the shop owns, and never changes that product', async () => {
    server.state.addShopOwnedProduct('SHOP-GUTSCHEIN-25', 'Gutschein 25');
    const outcomes = await write([
      upsert('SHOP-GUTSCHEIN-25', simple('SHOP-GUTSCHEIN-25', 'Overwritten')),
      upsert(SKU, master()),
    ]);
    expect(outcomes[0]).toEqual({
      index: 0,
      ok: false,
      field: 'sku',
      error: 'the SKU belongs to a product the shop owns',
      retryable: false,
    });
    expect(outcomes[1]).toMatchObject({ ok: true, action: 'created' });
    const owned = [...server.state.products.values()].find((p) => p.title === 'Gutschein 25');
    expect(owned!.variants[0]!.price).toBe('25.00');
    expect((await adapter().findBySku(['SHOP-GUTSCHEIN-25'])).size).toBe(0);
  });
});

describe('failures', () => {
  it("reports the shop's user error for one record and writes the others", async () => {
    const long = master();
    long.name = 'L'.repeat(300);
    const outcomes = await write([upsert(SKU, long), upsert('NYM-3X15', simple('NYM-3X15'))]);
    expect(outcomes[0]).toMatchObject({ ok: false, field: 'product.name', retryable: false });
    expect(outcomes[0]!.ok ? '' : outcomes[0]!.error).toContain('Title is too long');
    expect(outcomes[1]).toMatchObject({ ok: true, action: 'created' });
    expect(server.state.products.size).toBe(1);
  });

  it('retries 429 (honouring Retry-After), 5xx and a timeout, and makes the product once', async () => {
    server.faults.push(
      { operation: 'PimProductSet', kind: 'http429', times: 1 },
      { operation: 'PimVariantsBySku', kind: 'http500', times: 1 },
      { operation: 'PimCollectionByHandle', kind: 'timeout', times: 1 },
    );
    const [outcome] = await write([upsert(SKU, master())]);
    expect(outcome).toMatchObject({ ok: true, action: 'created' });
    expect(server.counts).toMatchObject({ http429: 1, http500: 1, timeouts: 1 });
    expect(sleeps).toContain(2000);
    expect(server.state.made.products).toBe(1);
  });

  it("never sends a collection's create again after its answer is lost: one collection per category", async () => {
    // Shopify ran it and the answer was lost: the collection is found by its handle.
    server.faults.push({ operation: 'PimCollectionCreate', kind: 'lostAnswer', times: 1 });
    const [outcome] = await write([upsert(SKU, master())]);
    expect(outcome).toMatchObject({ ok: true, action: 'created' });
    const handles = () => [...server.state.collections.values()].map((c) => c.handle).sort();
    expect(handles()).toEqual(['pim-cat-cat-angebote', 'pim-cat-cat-schutz']);
    expect(server.state.made.collections).toBe(2);
  });

  it('retries a record later when a collection create timed out before Shopify ran it', async () => {
    server.faults.push({ operation: 'PimCollectionCreate', kind: 'timeout', times: 1 });
    const [first] = await write([upsert(SKU, master())]);
    expect(first).toMatchObject({ ok: false, retryable: true });
    const [again] = await write([upsert(SKU, master())]);
    expect(again).toMatchObject({ ok: true });
    expect([...server.state.collections.values()].map((c) => c.handle).sort()).toEqual([
      'pim-cat-cat-angebote',
      'pim-cat-cat-schutz',
    ]);
    expect(server.state.made.products).toBe(1);
  });

  it('makes no second product when the answer to a create is lost and the create is retried', async () => {
    server.faults.push({ operation: 'PimProductSet', kind: 'lostAnswer', times: 1 });
    const [outcome] = await write([upsert(SKU, master())]);
    expect(outcome).toMatchObject({ ok: true });
    expect(server.state.products.size).toBe(1);
    expect(server.state.made.products).toBe(1);
  });

  it('reports a record retryable when 5xx or timeouts outlast the retries, and writes the others', async () => {
    server.faults.push(
      { operation: 'PimProductSet', kind: 'http500', times: 3, skip: 1 },
      { operation: 'PimProductSet', kind: 'timeout', times: 3 },
    );
    const outcomes = await write([
      upsert('NYM-1', simple('NYM-1')),
      upsert('NYM-2', simple('NYM-2')),
      upsert('NYM-3', simple('NYM-3')),
      upsert('NYM-4', simple('NYM-4')),
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, false, true]);
    expect(outcomes[1]).toMatchObject({ field: 'record', error: 'the shop answered HTTP 500', retryable: true });
    expect(outcomes[2]).toMatchObject({ field: 'record', retryable: true });
    expect(outcomes[2]!.ok ? '' : outcomes[2]!.error).toContain('did not answer');
    expect(mirror.rows.has('NYM-2')).toBe(false);
  });
});

describe('the cost budget', () => {
  it('waits for the bucket to refill instead of being throttled', async () => {
    server = await restart({ maximum: 1000, restoreRate: 50 });
    const records = ['A', 'B', 'C', 'D'].map((s) => upsert(`NYM-${s}`, simple(`NYM-${s}`)));
    const outcomes = await write(records);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(server.counts.throttled).toBe(0);
    expect(sleeps.length).toBeGreaterThan(0);
    expect(sleeps.every((ms) => ms > 0 && ms <= 20_000)).toBe(true);
  });

  it('backs off on THROTTLED when another client emptied the bucket, and succeeds', async () => {
    const a = adapter();
    await a.probe();
    server.drain(0);
    const outcomes = await a.write(mirror.targets([upsert('NYM-1', simple('NYM-1'))]), {
      mapping: MAPPING,
      mediaBytes: async () => new Blob(),
      refusedUrl: (url) => refusedUrlReason(url, false),
      linkBytes: async () => {
        throw new Error('Shopify fetches category pictures by URL');
      },
      idsOf: async () => new Map(),
      referencing: async () => [],
    });
    expect(outcomes[0]).toMatchObject({ ok: true, action: 'created' });
    expect(server.counts.throttled).toBeGreaterThanOrEqual(1);
    expect(sleeps.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(1000);
  });
});

describe('bulk operations (a round of updates)', () => {
  /** A master without variants, with English and French names: revision `r` changes its names and price. */
  const translated = (sku: string, r: number): Product => ({
    ...simple(sku, `Mantelleitung ${sku} r${r}`),
    price: `${r}.89`,
    translations: { eng: { name: `Sheathed cable ${sku} r${r}` }, fra: { name: `Câble ${sku} r${r}` } },
  });
  const skus = (n: number) => Array.from({ length: n }, (_, i) => `NYM-${String(i).padStart(3, '0')}`);
  const made = async (list: string[]) =>
    expect((await write(list.map((sku) => upsert(sku, translated(sku, 1))))).every((o) => o.ok)).toBe(true);
  const bySku = (sku: string) =>
    [...server.state.products.values()].find((p) => p.metafields.get('pim.sku')?.value === sku)!;
  const update = (list: string[], r: number) => write(list.map((sku) => upsert(sku, translated(sku, r), 'update')));

  it('sends every productSet and translation of the round as two bulk operations, and the shop holds the new texts', async () => {
    const list = skus(6);
    await made(list);
    const from = server.received.length;
    const runsBefore = server.bulk.runs.length;
    const outcomes = await update(list, 2);
    expect(outcomes.map((o) => o.ok && o.action)).toEqual(list.map(() => 'updated'));
    const operations = operationsSince(from);
    expect(operations).not.toContain('PimProductSet');
    expect(operations).not.toContain('PimTranslationsRegister');
    expect(operations.filter((o) => o === 'PimBulkRunMutation')).toHaveLength(2);
    expect(operations.filter((o) => o === 'PimTranslatableResources')).toHaveLength(1);
    expect(server.bulk.runs.slice(runsBefore).map((run) => [run.mutation, run.lines])).toEqual([
      [SHOPIFY_DOCUMENTS.PRODUCT_SET, 6],
      [SHOPIFY_DOCUMENTS.TRANSLATIONS_REGISTER, 6],
    ]);
    for (const sku of list) {
      const product = bySku(sku);
      expect(product.title).toBe(`Mantelleitung ${sku} r2`);
      expect(product.variants[0]!.price).toBe('2.89');
      expect(product.translations.get('en')?.get('title')).toBe(`Sheathed cable ${sku} r2`);
      expect(product.translations.get('fr')?.get('title')).toBe(`Câble ${sku} r2`);
    }
    // The operations were followed until done: the clock moved by the polls' waits only.
    expect(sleeps.filter((ms) => ms >= 1000).length).toBeGreaterThan(0);
    // The same round again (the connector sends it only when its mirror lost the rows): the
    // products once more, the translations as last written not again.
    const again = server.received.length;
    expect((await update(list, 2)).every((o) => o.ok)).toBe(true);
    expect(server.bulk.runs.slice(runsBefore + 2).map((run) => [run.mutation, run.lines])).toEqual([
      [SHOPIFY_DOCUMENTS.PRODUCT_SET, 6],
    ]);
    expect(operationsSince(again)).not.toContain('PimTranslatableResources');
  });

  it('costs the same requests for 6 and for 40 updates (the lines are not charged per product)', async () => {
    const list = skus(40);
    await made(list);
    let from = server.received.length;
    await update(list.slice(0, 6), 2);
    const six = server.received.length - from;
    from = server.received.length;
    await update(list, 3);
    const forty = server.received.length - from;
    // Only the polls may differ: forty lines take longer to run than six.
    expect(forty - six).toBeLessThanOrEqual(2);
    expect(forty).toBeLessThan(20);
    expect(list.every((sku) => bySku(sku).title.endsWith('r3'))).toBe(true);
  });

  it("joins a round's products to each collection in one call, and fails only the records of a join the shop refuses", async () => {
    const list = skus(6);
    const placed = (sku: string, i: number): Product => ({
      ...translated(sku, 1),
      categories: [
        { id: 'cat-all', path: ['Kabel'] },
        { id: `cat-${i % 2}`, path: ['Kabel', `Reihe ${i % 2}`] },
      ],
    });
    const from = server.received.length;
    const outcomes = await write(list.map((sku, i) => upsert(sku, placed(sku, i))));
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(operationsSince(from).filter((o) => o === 'PimCollectionAddProducts')).toHaveLength(3);
    const members = (title: string) =>
      [...server.state.collections.values()].find((c) => c.title === title)!.productIds.size;
    expect([members('Kabel'), members('Reihe 0'), members('Reihe 1')]).toEqual([6, 3, 3]);
    // A refused join fails the records it named, retryable by the connector; the others are written.
    const more = skus(12).slice(6);
    server.faults.push({ operation: 'PimCollectionAddProducts', kind: 'http500', times: 3, skip: 1 });
    const second = await write(more.map((sku, i) => upsert(sku, placed(sku, i))));
    expect(second.filter((o) => !o.ok).length).toBe(3);
    expect(second.filter((o) => !o.ok).every((o) => !o.ok && o.retryable)).toBe(true);
  });

  it('sends no line again one by one when the answer to the start was lost: the records are retried', async () => {
    const list = skus(6);
    server.faults.push({ operation: 'PimBulkRunMutation', kind: 'lostAnswer', times: 1 });
    const from = server.received.length;
    const first = await write(list.map((sku) => upsert(sku, translated(sku, 1))));
    expect(first.every((o) => !o.ok && o.retryable)).toBe(true);
    expect(operationsSince(from)).not.toContain('PimProductSet');
    // The lost operation runs meanwhile; the retry finds its products by SKU and makes none twice.
    clock.now += 60_000;
    await server.bulk.results([...server.bulk.operations.keys()][0]!);
    const retried = await write(list.map((sku) => upsert(sku, translated(sku, 1))));
    expect(retried.every((o) => o.ok)).toBe(true);
    expect(server.state.products.size).toBe(6);
  });

  it('leaves the shop as one request per product does: variants, options, metafields, files, collections, translations', async () => {
    /** master() with its own SKUs; revision 2 drops a variant, a category and the French name, and changes prices. */
    const rich = (n: number, revision: number): Product => {
      const product = master();
      product.name = `${product.name} ${n} r${revision}`;
      product.variants = product.variants.map((v) => ({ ...v, sku: `${v.sku}-${n}` }));
      if (revision > 1) {
        product.variants = product.variants.slice(0, 2);
        product.variants[0]!.prices![0]!.amount = '5.10';
        product.categories = product.categories.slice(0, 1);
        product.translations = { eng: product.translations!.eng! };
      }
      return product;
    };
    const round = (revision: number) =>
      [1, 2, 3, 4, 5].map((n) => upsert(`LS-${n}`, rich(n, revision), revision > 1 ? 'update' : 'create'));
    /** The shop without its ids: per product (by handle) what a customer and the merchant see. */
    const view = () =>
      [...server.state.products.values()]
        .map((p) => ({
          handle: p.handle,
          fields: [p.title, p.descriptionHtml, p.vendor, p.status, p.tags, p.options],
          variants: p.variants.map((v) => [v.sku, v.price, v.barcode, v.taxable, v.options, [...v.metafields]]),
          metafields: [...p.metafields].filter(([key]) => key !== 'pim.media'),
          files: p.media.map((m) => m.originalSource),
          marked: Object.keys(JSON.parse(p.metafields.get('pim.media')?.value ?? '{}')).length,
          translations: [...p.translations].map(([locale, texts]) => [locale, [...texts]]),
          collections: [...server.state.collections.values()]
            .filter((c) => c.productIds.has(p.id))
            .map((c) => c.title)
            .sort(),
        }))
        .sort((a, b) => a.handle.localeCompare(b.handle));

    const from = server.received.length;
    for (const revision of [1, 2]) expect((await write(round(revision))).every((o) => o.ok)).toBe(true);
    expect(operationsSince(from)).not.toContain('PimProductSet');
    const inBulk = view();

    await server.close();
    server = await startShopifyContract({ token: TOKEN, now: () => clock.now });
    shared = null;
    mirror = new Mirror();
    const direct = server.received.length;
    for (const revision of [1, 2])
      for (const record of round(revision)) expect((await write([record]))[0]!.ok).toBe(true);
    expect(operationsSince(direct).filter((o) => o === 'PimProductSet')).toHaveLength(10);
    expect(view()).toEqual(inBulk);
    expect(inBulk).toHaveLength(5);
    expect(inBulk[0]!.variants).toHaveLength(2);
    expect(inBulk[0]!.collections).toEqual(['Schutzschalter']);
    const texts = new Map(inBulk[0]!.translations as [string, [string, string][]][]);
    expect(Object.fromEntries(texts.get('en') ?? [])).toMatchObject({ title: 'Circuit breaker B' });
    expect(Object.fromEntries(texts.get('fr') ?? [])).toEqual({});
  });

  it('sends fewer than five writes one request each', async () => {
    const list = skus(4);
    await made(list);
    const from = server.received.length;
    await update(list, 2);
    expect(operationsSince(from).filter((o) => o === 'PimProductSet')).toHaveLength(4);
    expect(server.bulk.runs).toEqual([]);
  });

  it('makes a round of new products in one operation, and a retry after lost results makes none twice', async () => {
    const list = skus(6);
    server.bulk.faults.loseResultsNextAfter = 3;
    const from = server.received.length;
    const first = await write(list.map((sku) => upsert(sku, { ...translated(sku, 1), media: [image('a', 0)] })));
    // The three products answered get their files markers in one metafieldsSet.
    expect(operationsSince(from).filter((o) => o === 'PimMetafieldsSet')).toHaveLength(1);
    expect(first.slice(0, 3).map((o) => o.ok && o.action)).toEqual(['created', 'created', 'created']);
    expect(first.slice(3).every((o) => !o.ok && o.retryable)).toBe(true);
    // Shopify made all six; the connector knows three. The retry finds the others by SKU.
    expect(server.state.products.size).toBe(6);
    const retried = await write(
      list.slice(3).map((sku) => upsert(sku, { ...translated(sku, 1), media: [image('a', 0)] })),
    );
    expect(retried.every((o) => o.ok)).toBe(true);
    expect(server.state.products.size).toBe(6);
    for (const sku of list) {
      expect(bySku(sku).media).toHaveLength(1);
      expect(JSON.parse(bySku(sku).metafields.get('pim.media')!.value)).toEqual({
        ['a'.repeat(64)]: bySku(sku).media[0]!.id,
      });
      expect(bySku(sku).translations.get('fr')?.get('title')).toBe(`Câble ${sku} r1`);
    }
    expect(server.bulk.runs[0]).toEqual({ mutation: SHOPIFY_DOCUMENTS.PRODUCT_SET, lines: 6 });
  });

  it("reports a line the shop refuses on that record only, with the shop's words", async () => {
    const list = skus(6);
    await made(list);
    const records = list.map((sku) => upsert(sku, translated(sku, 2), 'update'));
    records[2] = upsert(list[2]!, { ...translated(list[2]!, 2), name: 'L'.repeat(300) }, 'update');
    const outcomes = await write(records);
    expect(outcomes[2]).toMatchObject({ ok: false, field: 'product.name', retryable: false });
    expect(outcomes[2]!.ok ? '' : outcomes[2]!.error).toContain('Title is too long');
    expect(outcomes.filter((o) => o.ok)).toHaveLength(5);
    expect(bySku(list[2]!).title).toBe(`Mantelleitung ${list[2]} r1`);
    expect(bySku(list[3]!).translations.get('en')?.get('title')).toBe(`Sheathed cable ${list[3]} r2`);
  });

  it('fails the lines an operation that failed part way has no result for, retryable, and keeps the others', async () => {
    const list = skus(6);
    await made(list);
    server.bulk.faults.failNextAfter = 4;
    const outcomes = await update(list, 2);
    expect(outcomes.slice(0, 4).every((o) => o.ok)).toBe(true);
    expect(outcomes.slice(4)).toEqual([
      expect.objectContaining({ ok: false, field: 'record', retryable: true }),
      expect.objectContaining({ ok: false, field: 'record', retryable: true }),
    ]);
    expect(outcomes[4]!.ok ? '' : outcomes[4]!.error).toContain('failed');
    // The retry of the two writes them (four updates and fewer go one request each).
    const retried = await write(list.slice(4).map((sku) => upsert(sku, translated(sku, 2), 'update')));
    expect(retried.every((o) => o.ok)).toBe(true);
    expect(list.every((sku) => bySku(sku).title.endsWith('r2'))).toBe(true);
  });

  it('sends the updates one request each when the shop does not start the operation', async () => {
    const list = skus(6);
    await made(list);
    server.bulk.faults.refuseNextRun = 'LIMIT_REACHED';
    const from = server.received.length;
    const outcomes = await update(list, 2);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(operationsSince(from).filter((o) => o === 'PimProductSet')).toHaveLength(6);
    expect(list.every((sku) => bySku(sku).translations.get('fr')?.get('title')?.endsWith('r2'))).toBe(true);
  });

  it('cancels an operation that does not end within ten minutes and reports its lines retryable', async () => {
    const list = skus(5);
    await made(list);
    server.bulk.faults.stallNext = true;
    const outcomes = await update(list, 2);
    expect(outcomes.every((o) => !o.ok && o.retryable)).toBe(true);
    expect(outcomes[0]!.ok ? '' : outcomes[0]!.error).toContain('did not end within 10 minutes');
    expect([...server.bulk.operations.values()].map((o) => o.status).slice(-1)).toEqual(['CANCELED']);
    clock.now += 60 * 60_000;
    expect(list.every((sku) => bySku(sku).title.endsWith('r1'))).toBe(true);
  });
});

async function restart(bucket: { maximum: number; restoreRate: number }) {
  await server.close();
  shared = null;
  return startShopifyContract({ token: TOKEN, now: () => clock.now, bucket });
}
