import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refusedUrlReason } from '../../connector/src/targets/url-guard';
import { shopwareId } from '../../connector/src/adapters/shopware';
import { TargetError } from '../../connector/src/adapters/target-adapter';
import { CLIENT, EUR, SYSTEM_LANGUAGE, ShopwareContractServer } from './shopware/contract-server';
import { bodyHash } from '../../src/sync/protocol/signing';
import { categoryLink } from './fixtures/wire-product';
import { deactivate, image, lamp, shopware, upsert, variant } from './shopware/fixtures';

/**
 * The Shopware 6 adapter against a local server that answers per Shopware's published Admin
 * API document (connector/contracts/shopware/): every Sync API item it sends is validated
 * against its entity schema, every other body against its operation's request schema.
 */
let server: ShopwareContractServer;

beforeEach(async () => {
  server = new ShopwareContractServer();
  await server.start();
});
afterEach(async () => {
  await server.stop();
});

const DE = 'b1'.repeat(16);
const FR = 'b2'.repeat(16);

/** Every entity's ids (and the rows), to compare what a run added. */
function snapshot() {
  return Object.fromEntries(
    [...server.state].map(([entity, rows]) => [entity, structuredClone(Object.fromEntries(rows))]),
  );
}

function product(sku: string) {
  return server.rows('product').find((p) => p.productNumber === sku) as Record<string, unknown> & { id: string };
}

const sha256 = (text: string) => bodyHash(new TextEncoder().encode(text));

describe('the Shopware adapter against the Admin API contract', () => {
  it('writes a master with 3 variants, 3 languages, tier prices, features, 2 categories and images, every item valid', async () => {
    const { adapter, mirror } = shopware(server);
    const [outcome] = await mirror.write([upsert('LMP-1', lamp())]);
    expect(outcome).toMatchObject({ ok: true, action: 'created' });
    expect(server.invalid).toEqual([]);
    expect(server.validated).toBeGreaterThan(20);

    const master = product('LMP-1');
    expect(master.id).toBe(await shopwareId('product', 'LMP-1'));
    expect(master).toMatchObject({
      name: 'LED lamp',
      description: 'Outdoor lamp',
      taxId: 'a1'.repeat(16),
      active: true,
      stock: 0,
      ean: '4012345678901',
    });
    expect(master.price).toEqual([{ currencyId: EUR, net: 10, gross: 11.9, linked: true }]);
    expect(master.translations).toEqual({
      [DE]: { name: 'LED-Leuchte', description: 'Außenleuchte', keywords: 'led' },
      [FR]: { name: 'Lampe LED', description: null, keywords: null },
    });
    const children = server.rows('product').filter((p) => p.parentId === master.id);
    expect(children.map((c) => c.productNumber).sort()).toEqual(['LMP-1-B', 'LMP-1-G', 'LMP-1-R']);
    expect(product('LMP-1-R')).toMatchObject({ name: 'Lamp red', translations: { [DE]: { name: 'Leuchte red' } } });

    // The colour differs between the variants: it is the option; the protection class is a property.
    const colour = await shopwareId('property_group', 'classification:EF000007');
    const options = server.rows('property_group_option').filter((o) => o.groupId === colour);
    expect(options.map((o) => o.name).sort()).toEqual(['blue', 'green', 'red']);
    expect(server.rows('product_option')).toHaveLength(3);
    expect(server.rows('product_configurator_setting').filter((s) => s.productId === master.id)).toHaveLength(3);
    const ip44 = await shopwareId('property_group_option', 'classification:EF000001', 'IP44');
    expect(server.rows('product_property').filter((p) => p.optionId === ip44)).toHaveLength(4);

    const prices = server.rows('product_price').filter((p) => p.productId === master.id);
    expect(prices.map((p) => [p.quantityStart, p.quantityEnd ?? null, (p.price as { net: number }[])[0]?.net])).toEqual(
      [
        [1, 9, 10],
        [10, 99, 9],
        [100, null, 8],
      ],
    );
    expect(server.rows('rule')).toHaveLength(1);

    expect(
      server
        .rows('category')
        .map((c) => c.name)
        .sort(),
    ).toEqual(['LED', 'Lighting', 'Outdoor']);
    expect(server.rows('product_category').filter((l) => l.productId === master.id)).toHaveLength(2);

    expect(server.rows('media').filter((m) => m.fileName)).toHaveLength(3);
    expect(server.requests('/_action/media/')).toHaveLength(3);
    expect(master.coverId).toBe(await shopwareId('product_media', 'LMP-1', image(1).sha256));
    expect(outcome?.ok && outcome.ids?.media).toEqual({
      [image(1).sha256]: await shopwareId('media', image(1).sha256),
      [image(2).sha256]: await shopwareId('media', image(2).sha256),
      [image(3).sha256]: await shopwareId('media', image(3).sha256),
    });
    await expect(adapter.probe()).resolves.toMatchObject({
      name: 'Shopware 6.7.10.1',
      languages: ['en-GB', 'de-DE', 'fr-FR'],
      currencies: ['EUR'],
    });
  });

  it('creates nothing and uploads nothing the second time; a changed value changes only that value', async () => {
    const { mirror } = shopware(server);
    await mirror.write([upsert('LMP-1', lamp())]);
    const first = snapshot();
    const uploads = server.requests('/_action/media/').length;

    const [again] = await mirror.write([upsert('LMP-1', lamp(), 'update')]);
    expect(again).toMatchObject({ ok: true, action: 'updated' });
    expect(snapshot()).toEqual(first);
    expect(server.requests('/_action/media/')).toHaveLength(uploads);

    const [changed] = await mirror.write([upsert('LMP-1', lamp({ description: 'Wandleuchte' }), 'update')]);
    expect(changed).toMatchObject({ ok: true, action: 'updated' });
    const after = snapshot();
    const id = product('LMP-1').id;
    const product1 = (first.product as Record<string, Record<string, unknown>>)[id] as Record<string, unknown>;
    const translations = product1.translations as Record<string, Record<string, unknown>>;
    expect(after).toEqual({
      ...first,
      product: {
        ...first.product,
        [id]: {
          ...product1,
          translations: { ...translations, [DE]: { ...translations[DE], description: 'Wandleuchte' } },
        },
      },
    });
    expect(server.invalid).toEqual([]);
  });

  it('removes a variant, an image, a feature, a category, tiers and a translation the record no longer carries', async () => {
    const { mirror } = shopware(server);
    await mirror.write([upsert('LMP-1', lamp())]);
    const masterId = product('LMP-1').id;
    const red = product('LMP-1-R').id;
    const base = lamp();
    const [outcome] = await mirror.write([
      upsert(
        'LMP-1',
        {
          ...base,
          translations: { eng: { name: 'LED lamp', description: 'Outdoor lamp' } },
          media: [image(1, 0)],
          prices: base.prices?.slice(0, 1),
          categories: base.categories.slice(0, 1),
          variants: [variant('LMP-1-G', 'green'), variant('LMP-1-B', 'blue')],
        },
        'update',
      ),
    ]);
    expect(outcome).toMatchObject({ ok: true, action: 'updated' });
    expect(outcome?.ok && outcome.ids?.variants).not.toHaveProperty('LMP-1-R');
    expect(server.table('product').has(red)).toBe(false);
    expect(server.rows('product_option').filter((o) => o.productId === red)).toEqual([]);
    expect(server.rows('product_configurator_setting').filter((s) => s.productId === masterId)).toHaveLength(2);
    expect(server.rows('product_media').filter((m) => m.productId === masterId)).toHaveLength(1);
    // The removed image's media left the library (the red variant's image went with the variant).
    expect(server.rows('media').map((m) => m.id)).toEqual([await shopwareId('media', image(1).sha256)]);
    expect(server.rows('product_price').filter((p) => p.productId === masterId)).toEqual([]);
    expect(server.rows('product_category').filter((c) => c.productId === masterId)).toHaveLength(1);
    expect(product('LMP-1').translations).not.toHaveProperty(FR);
    expect(server.invalid).toEqual([]);
  });

  it("sends a category's picture once as the category's media, not again on a second run, and unsets it when removed", async () => {
    const { mirror } = shopware(server);
    const links = [
      categoryLink('https://cdn.example.com/led.pdf', { contentType: 'application/pdf', purpose: 'data_sheet' }),
      categoryLink('https://cdn.example.com/led-detail.jpg', { purpose: 'detail', position: 1 }),
      categoryLink('https://cdn.example.com/led.jpg', { position: 2, description: 'LED lamps' }),
    ];
    const withPicture = lamp({
      categories: [
        { id: 'c-led', path: ['Lighting', 'LED'], links },
        { id: 'c-out', path: ['Outdoor'] },
      ],
    });
    const [first] = await mirror.write([upsert('LMP-1', withPicture)]);
    expect(first).toMatchObject({ ok: true, action: 'created' });
    expect(server.invalid).toEqual([]);
    // The normal picture, not the data sheet nor the detail view before it: a media entity whose
    // id derives from the hash of its bytes, uploaded with those bytes (not a URL to fetch).
    const sha = await sha256('picture:https://cdn.example.com/led.jpg');
    const pictureId = await shopwareId('media', sha);
    const led = server.table('category').get(await shopwareId('category', 'Lighting', 'LED'));
    expect(led?.mediaId).toBe(pictureId);
    expect(server.table('media').get(pictureId)).toMatchObject({
      alt: 'LED lamps',
      fileName: sha,
      fileExtension: 'jpg',
      sha256: sha,
    });
    expect(server.table('media').get(pictureId)).not.toHaveProperty('url');
    expect(server.requests(`/_action/media/${pictureId}/upload`)).toMatchObject([{ body: { sha256: sha } }]);
    // The parent is left as it is; a category without links has none.
    expect(server.table('category').get(await shopwareId('category', 'Lighting'))).not.toHaveProperty('mediaId');
    expect(server.table('category').get(await shopwareId('category', 'Outdoor'))?.mediaId).toBeNull();

    // Again, and another product in the same category: nothing is uploaded twice, nothing added.
    const state = snapshot();
    await mirror.write([upsert('LMP-1', withPicture, 'update')]);
    expect(snapshot()).toEqual(state);
    const [other] = await mirror.write([upsert('LMP-2', lamp({ categories: withPicture.categories, variants: [] }))]);
    expect(other).toMatchObject({ ok: true, action: 'created' });
    expect(server.requests('/_action/media/')).toHaveLength(4);
    expect(server.requests(`/_action/media/${pictureId}/upload`)).toHaveLength(1);

    // New bytes behind the same URL: another hash, so another media entity with those bytes,
    // and the connector is told the shop took them.
    const sent: string[] = [];
    mirror.pictures = { categoryPictureSent: async (url) => void sent.push(url) };
    mirror.links.set('https://cdn.example.com/led.jpg', 'led-v2');
    const renewedId = await shopwareId('media', await sha256('led-v2'));
    await mirror.write([upsert('LMP-2', lamp({ categories: withPicture.categories, variants: [] }), 'update')]);
    expect(server.requests(`/_action/media/${renewedId}/upload`)).toHaveLength(1);
    expect(sent).toEqual(['https://cdn.example.com/led.jpg']);
    expect(led && server.table('category').get(led.id as string)?.mediaId).toBe(renewedId);
    expect(server.table('media').get(renewedId)).toMatchObject({ alt: 'LED lamps', sha256: await sha256('led-v2') });
    // The old bytes' media, shown by nothing else, left the library.
    expect(server.table('media').has(pictureId)).toBe(false);
    mirror.pictures = {};

    // The category's picture removed in the PIM: the category shows none.
    const [removed] = await mirror.write([upsert('LMP-1', lamp(), 'update')]);
    expect(removed).toMatchObject({ ok: true, action: 'updated' });
    expect(led && server.table('category').get(led.id as string)?.mediaId).toBeNull();
    expect(server.table('media').has(renewedId)).toBe(false);
    // (the four before, and the upload of the new bytes)
    expect(server.requests('/_action/media/')).toHaveLength(5);
    expect(server.invalid).toEqual([]);
  });

  it("deletes a replaced image's media in the same Sync request, only while nothing else shows it, and a second run writes nothing", async () => {
    const { mirror } = shopware(server);
    const mediaOf = (n: number) => shopwareId('media', image(n).sha256);
    const [m1, m2, m3, m4] = [await mediaOf(1), await mediaOf(2), await mediaOf(3), await mediaOf(4)];
    await mirror.write([
      upsert('LMP-1', lamp({ media: [image(1, 0), image(2, 1), image(3, 2)], variants: [] })),
      upsert('LMP-2', lamp({ media: [image(2, 0)], variants: [] })),
    ]);
    // The merchant shows image 3 on a product of the shop's own, and keeps a media entity of their own.
    const merchantMedia = 'ee'.repeat(16);
    server.put('media', { id: merchantMedia, fileName: 'banner', fileExtension: 'jpg' });
    server.put('product', { id: 'dd'.repeat(16), productNumber: 'SHOP-1', name: 'Shop product' });
    server.put('product_media', { id: 'dc'.repeat(16), productId: 'dd'.repeat(16), mediaId: m3 });

    // Image 2 and 3 replaced by 4: both stay (LMP-2 and the merchant's product show them).
    const syncs = server.requests('/_action/sync').length;
    const [replaced] = await mirror.write([
      upsert('LMP-1', lamp({ media: [image(1, 0), image(4, 1)], variants: [] }), 'update'),
    ]);
    expect(replaced).toMatchObject({ ok: true, action: 'updated' });
    expect(server.requests('/_action/sync').length - syncs).toBe(1);
    expect([m1, m2, m3, m4, merchantMedia].map((id) => server.table('media').has(id))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);

    // LMP-2 lets go of image 2: nothing shows it now, so it goes, in the request that detaches it.
    const [less] = await mirror.write([upsert('LMP-2', lamp({ media: [], variants: [] }), 'update')]);
    expect(less).toMatchObject({ ok: true, action: 'updated' });
    expect(server.table('media').has(m2)).toBe(false);
    const sync = server.requests('/_action/sync').at(-1)?.body as { action: string; entity: string }[];
    expect(sync.filter((op) => op.action === 'delete').map((op) => op.entity)).toEqual(['product_media', 'media']);
    expect([m1, m3, m4, merchantMedia].every((id) => server.table('media').has(id))).toBe(true);

    // The same records again: no media searched, nothing deleted or changed.
    const state = snapshot();
    const searches = server.requests('/search/media').length;
    await mirror.write([
      upsert('LMP-1', lamp({ media: [image(1, 0), image(4, 1)], variants: [] }), 'update'),
      upsert('LMP-2', lamp({ media: [], variants: [] }), 'update'),
    ]);
    expect(snapshot()).toEqual(state);
    expect(server.requests('/search/media')).toHaveLength(searches);
    expect(server.invalid).toEqual([]);
  });

  it('keeps a picture the merchant set on a category, and deletes nothing of a record the shop refuses until its next run', async () => {
    const { mirror } = shopware(server);
    const ledId = await shopwareId('category', 'LED');
    const merchantMedia = 'ef'.repeat(16);
    server.put('media', { id: merchantMedia, fileName: 'hand-picked', fileExtension: 'jpg' });
    server.put('category', { id: ledId, name: 'LED', mediaId: merchantMedia });
    const categories = [{ id: 'c-led', path: ['LED'], links: [categoryLink('https://cdn.example.com/led.jpg')] }];
    const [placed] = await mirror.write([upsert('LMP-1', lamp({ categories, variants: [] }))]);
    expect(placed).toMatchObject({ ok: true, action: 'created' });
    expect(server.table('category').get(ledId)?.mediaId).toBe(
      await shopwareId('media', await sha256('picture:https://cdn.example.com/led.jpg')),
    );
    expect(server.table('media').has(merchantMedia)).toBe(true);

    // A record the shop refuses (a name too long) takes its media deletes out with it.
    const m2 = await shopwareId('media', image(2).sha256);
    const refused = lamp({ name: 'x'.repeat(300), categories, media: [image(1, 0)], variants: [] });
    const [failed] = await mirror.write([upsert('LMP-1', refused, 'update')]);
    expect(failed).toMatchObject({ ok: false });
    expect(server.table('media').has(m2)).toBe(true);
    expect(server.rows('product_media').some((m) => m.mediaId === m2)).toBe(true);
    // Its next run (the name fixed) detaches and deletes it together.
    const [fixed] = await mirror.write([upsert('LMP-1', { ...refused, name: 'LED lamp' }, 'update')]);
    expect(fixed).toMatchObject({ ok: true, action: 'updated' });
    expect(server.table('media').has(m2)).toBe(false);
    expect(server.invalid.filter((e) => !e.pointer.endsWith('/name'))).toEqual([]);
  });

  it('shares one media entity between a category picture and a product image with the same bytes, uploaded once', async () => {
    const { mirror } = shopware(server);
    const bytes = 'the LED lamp photo';
    const sha = await sha256(bytes);
    const photo = { ...image(1), sha256: sha, url: `https://images.example/${sha}.jpg` };
    mirror.links.set('https://cdn.example.com/led.jpg', bytes);
    const categories = [{ id: 'c-led', path: ['LED'], links: [categoryLink('https://cdn.example.com/led.jpg')] }];
    const mediaId = await shopwareId('media', sha);

    // Both in one record: one media, uploaded once by the product image's URL.
    const [first] = await mirror.write([upsert('LMP-1', lamp({ categories, media: [photo], variants: [] }))]);
    expect(first).toMatchObject({ ok: true, action: 'created' });
    expect(server.table('category').get(await shopwareId('category', 'LED'))?.mediaId).toBe(mediaId);
    expect(server.rows('product_media').map((m) => m.mediaId)).toEqual([mediaId]);
    expect(server.rows('media')).toHaveLength(1);
    expect(server.requests('/_action/media/')).toMatchObject([
      { path: `/_action/media/${mediaId}/upload?extension=jpg&fileName=${sha}`, body: { url: photo.url } },
    ]);

    // The picture first, the product image of the same bytes later (another record): no second upload.
    const [placed] = await mirror.write([upsert('LMP-2', lamp({ categories, media: [], variants: [] }))]);
    const [shown] = await mirror.write([upsert('LMP-3', lamp({ media: [photo], variants: [] }))]);
    expect([placed?.ok, shown?.ok]).toEqual([true, true]);
    expect(server.rows('media')).toHaveLength(1);
    expect(server.requests('/_action/media/')).toHaveLength(1);
    expect(server.invalid).toEqual([]);
  });

  it('fails a record retryably on a category picture it cannot read, or whose bytes changed before the upload', async () => {
    const { mirror } = shopware(server);
    const categories = [{ id: 'c-led', path: ['LED'], links: [categoryLink('https://cdn.example.com/led.jpg')] }];
    mirror.links.set('https://cdn.example.com/led.jpg', 'unreachable');
    const [unread] = await mirror.write([upsert('LMP-1', lamp({ categories, variants: [] }))]);
    expect(unread).toEqual({
      index: 0,
      ok: false,
      field: 'product.categories.0.links.0',
      error: 'the category picture could not be read: the image URL could not be reached',
      retryable: true,
    });
    expect(server.rows('product')).toEqual([]);

    // The connector knew the hash (a 304) but the bytes fetched for the upload are others.
    mirror.links.set('https://cdn.example.com/led.jpg', 'led-v2');
    mirror.pictures = { categoryPicture: async () => ({ sha256: await sha256('led-v1'), bytes: null }) };
    const [changed] = await mirror.write([upsert('LMP-1', lamp({ categories, variants: [] }))]);
    expect(changed).toMatchObject({
      ok: false,
      field: 'product.categories.0.links.0',
      error: 'the category picture changed while it was written; it goes again with the next run',
      retryable: true,
    });
    expect(server.requests(`/_action/media/${await shopwareId('media', await sha256('led-v1'))}`)).toEqual([]);
    expect(server.invalid).toEqual([]);
  });

  it('fails the record on a category picture whose URL the SSRF rule refuses, writing nothing of it', async () => {
    const { mirror } = shopware(server);
    const categories = [{ id: 'c-led', path: ['LED'], links: [categoryLink('http://127.0.0.1/led.jpg')] }];
    const [outcome] = await mirror.write([upsert('LMP-1', lamp({ categories }))]);
    expect(outcome).toMatchObject({
      ok: false,
      field: 'product.categories.0.links.0',
      error: 'the category image URL is refused: the URL points to a private, loopback or link-local address',
      retryable: false,
    });
    expect(server.rows('product')).toEqual([]);
    expect(server.requests('/_action/media/')).toEqual([]);
  });

  it('writes references as cross-selling per type, writes nothing the second time, and removes what the record lost', async () => {
    const { mirror } = shopware(server, { references: true });
    const accessory = { ...lamp(), variants: [] };
    const written = await mirror.write([upsert('ACC-1', accessory), upsert('ACC-2', accessory)]);
    expect(written.map((o) => o.ok)).toEqual([true, true]);
    const references = [
      { type: 'accessories', sku: 'ACC-1', quantity: 2 },
      { type: 'accessories', sku: 'ACC-2', quantity: null },
      { type: 'spare_part', sku: 'ACC-1', quantity: null },
    ];
    const [outcome] = await mirror.write([upsert('LMP-1', { ...lamp(), references })]);
    expect(outcome).toMatchObject({ ok: true, action: 'created' });
    expect(server.invalid).toEqual([]);
    const masterId = product('LMP-1').id;
    const crossSellings = server.rows('product_cross_selling').sort((a, b) => Number(a.position) - Number(b.position));
    expect(
      crossSellings.map(({ productId, name, type, active, position }) => ({ productId, name, type, active, position })),
    ).toEqual([
      { productId: masterId, name: 'accessories', type: 'productList', active: true, position: 0 },
      { productId: masterId, name: 'spare_part', type: 'productList', active: true, position: 1 },
    ]);
    const assigned = (crossSellingId: unknown) =>
      server
        .rows('product_cross_selling_assigned_products')
        .filter((a) => a.crossSellingId === crossSellingId)
        .sort((a, b) => Number(a.position) - Number(b.position))
        .map((a) => a.productId);
    expect(assigned(crossSellings[0]?.id)).toEqual([product('ACC-1').id, product('ACC-2').id]);
    expect(assigned(crossSellings[1]?.id)).toEqual([product('ACC-1').id]);

    const before = snapshot();
    const syncCalls = server.requests('/_action/sync').length;
    const [again] = await mirror.write([upsert('LMP-1', { ...lamp(), references }, 'update')]);
    expect(again).toMatchObject({ ok: true, action: 'updated' });
    expect(snapshot()).toEqual(before);
    expect(server.requests('/_action/sync').length).toBe(syncCalls + 1);

    const [fewer] = await mirror.write([upsert('LMP-1', { ...lamp(), references: references.slice(0, 1) }, 'update')]);
    expect(fewer).toMatchObject({ ok: true });
    expect(server.rows('product_cross_selling').map((c) => c.name)).toEqual(['accessories']);
    expect(assigned(crossSellings[0]?.id)).toEqual([product('ACC-1').id]);
    await mirror.write([upsert('LMP-1', lamp(), 'update')]);
    expect(server.rows('product_cross_selling')).toEqual([]);
    expect(server.rows('product_cross_selling_assigned_products')).toEqual([]);
    expect(server.invalid).toEqual([]);
  });

  it('assigns a reference by manufacturer number to the product carrying that number, never to one with it as SKU', async () => {
    const { mirror } = shopware(server, { references: true });
    const accessory = (manufacturerPid: string) => ({ ...lamp(), variants: [], manufacturerPid });
    // ACC-1 carries the number MPN-ACC; another product has MPN-ACC as its SKU.
    const written = await mirror.write([upsert('ACC-1', accessory('MPN-ACC')), upsert('MPN-ACC', accessory('OTHER'))]);
    expect(written.map((o) => o.ok)).toEqual([true, true]);
    const byNumber = (number: string) => [
      { type: 'accessories', sku: number, quantity: null, targetKind: 'mpn' as const },
    ];
    const outcomes = await mirror.write([
      // Resolved from the mirror (ACC-1 was written before) and from this write (ACC-3 comes with it).
      upsert('LMP-1', { ...lamp(), variants: [], references: byNumber('MPN-ACC') }),
      upsert('LMP-2', { ...lamp(), variants: [], references: byNumber('MPN-NEW') }),
      upsert('ACC-3', accessory('MPN-NEW')),
      // No product carries this number: the record fails in plain words, nothing is linked.
      upsert('LMP-3', { ...lamp(), variants: [], references: byNumber('MPN-NONE') }),
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, true, false]);
    expect(outcomes[3]).toMatchObject({
      ok: false,
      field: 'product.references.0',
      error: 'reference not in shop: no product sent to this shop carries the manufacturer number "MPN-NONE"',
      retryable: false,
    });
    expect(server.invalid).toEqual([]);
    const assignedTo = (sku: string) => {
      const crossSelling = server.rows('product_cross_selling').find((c) => c.productId === product(sku).id);
      return server
        .rows('product_cross_selling_assigned_products')
        .filter((a) => a.crossSellingId === crossSelling?.id)
        .map((a) => a.productId);
    };
    expect(assignedTo('LMP-1')).toEqual([product('ACC-1').id]);
    expect(assignedTo('LMP-2')).toEqual([product('ACC-3').id]);
    expect(server.rows('product').some((p) => p.productNumber === 'LMP-3')).toBe(false);
  });

  it('writes no cross-selling when the mapping leaves references out', async () => {
    const { mirror } = shopware(server, { references: false });
    const [outcome] = await mirror.write([
      upsert('LMP-1', { ...lamp(), references: [{ type: 'accessories', sku: 'ACC-1', quantity: null }] }),
    ]);
    expect(outcome).toMatchObject({ ok: true });
    expect(server.rows('product_cross_selling')).toEqual([]);
  });

  it('disables a deactivated product and its variants, or deletes them per mapping', async () => {
    const disable = shopware(server);
    await disable.mirror.write([upsert('LMP-1', lamp())]);
    const [off] = await disable.mirror.write([deactivate('LMP-1')]);
    expect(off).toMatchObject({ ok: true, action: 'deactivated' });
    expect(server.rows('product').map((p) => p.active)).toEqual([false, false, false, false]);

    const remove = shopware(server, { onDeactivate: 'delete' });
    await remove.mirror.write([upsert('LMP-2', lamp({ variants: [] }))]);
    const [gone] = await remove.mirror.write([deactivate('LMP-2')]);
    expect(gone).toMatchObject({ ok: true, action: 'deactivated', ids: null });
    expect(product('LMP-2')).toBeUndefined();
    expect(server.rows('product')).toHaveLength(4);
    // Its images are LMP-1's too: they stay. Deleted with the last product showing them, they go.
    expect(server.rows('media')).toHaveLength(3);
    await remove.mirror.write([upsert('LMP-3', lamp({ media: [image(7, 0)], variants: [] }))]);
    await remove.mirror.write([deactivate('LMP-3')]);
    expect(server.table('media').has(await shopwareId('media', image(7).sha256))).toBe(false);
    expect(server.rows('media')).toHaveLength(3);
  });

  it('writes a draft inactive', async () => {
    const { mirror } = shopware(server);
    await mirror.write([upsert('LMP-3', lamp({ status: 'draft', variants: [] }))]);
    expect(product('LMP-3').active).toBe(false);
  });

  it('finds a lost mapping by product number and updates instead of creating', async () => {
    await shopware(server).mirror.write([upsert('LMP-1', lamp())]);
    const before = snapshot();
    const lost = shopware(server);
    const found = await lost.adapter.findBySku(['LMP-1', 'NOPE']);
    expect([...found.keys()]).toEqual(['LMP-1']);
    expect(Object.keys(found.get('LMP-1')?.variants ?? {}).sort()).toEqual(['LMP-1-B', 'LMP-1-G', 'LMP-1-R']);
    const [outcome] = await lost.mirror.write([upsert('LMP-1', lamp(), 'update')]);
    expect(outcome).toMatchObject({ ok: true, action: 'updated' });
    expect(snapshot()).toEqual(before);
  });

  it('refuses a product the shop owns under the same SKU and leaves it as it was', async () => {
    server.put('product', {
      id: 'ab'.repeat(16),
      productNumber: 'SHOP-1',
      name: 'Gift card',
      stock: 5,
      taxId: 'a1'.repeat(16),
    });
    const { adapter, mirror } = shopware(server);
    const [outcome] = await mirror.write([upsert('SHOP-1', lamp({ variants: [] }))]);
    expect(outcome).toEqual({
      index: 0,
      ok: false,
      field: 'record',
      error: 'the SKU belongs to a product the shop owns',
      retryable: false,
    });
    expect(server.rows('product')).toEqual([
      { id: 'ab'.repeat(16), productNumber: 'SHOP-1', name: 'Gift card', stock: 5, taxId: 'a1'.repeat(16) },
    ]);
    const found = await adapter.findBySku(['SHOP-1']);
    const known = found.get('SHOP-1') ?? null;
    const [again] = await adapter.write(
      [{ index: 0, record: upsert('SHOP-1', lamp({ variants: [] }), 'update'), known, previous: null }],
      {
        mapping: { ...(await import('./shopware/fixtures')).MAPPING },
        mediaBytes: async () => new Blob(),
        refusedUrl: (url) => refusedUrlReason(url, false),
        linkBytes: async () => {
          throw new Error('Shopware fetches category pictures by URL');
        },
        idsOf: async () => new Map(),
        referencing: async () => [],
      },
    );
    expect(again).toMatchObject({ ok: false, error: 'the SKU belongs to a product the shop owns' });
  });

  it('reports a value Shopware refuses on that record only, with the field and Shopware’s reason', async () => {
    const { mirror } = shopware(server);
    const outcomes = await mirror.write([
      upsert('LONG-1', lamp({ variants: [], translations: { eng: { name: 'x'.repeat(300) } } })),
      upsert('OK-1', lamp({ variants: [] })),
    ]);
    expect(outcomes[0]).toEqual({
      index: 0,
      ok: false,
      field: 'product.name',
      error: 'This value is too long. It should have 255 characters or less.',
      retryable: false,
    });
    expect(outcomes[1]).toMatchObject({ ok: true, action: 'created' });
    expect(product('LONG-1')).toBeUndefined();
    expect(product('OK-1')).toBeDefined();
  });

  it('writes the order details as minimum, steps and base price, a variant by its master, and clears them', async () => {
    const MTR = 'd2'.repeat(16);
    server.put('unit', { id: MTR, shortCode: 'MTR', name: 'Metre' });
    const { mirror } = shopware(server);
    const roll = lamp({
      contentUnit: 'MTR',
      contentPerUnit: '50.0',
      quantityMin: '10.000',
      quantityInterval: '5',
      variants: [variant('ROLL-R', 'red', { quantityMin: '20' }), variant('ROLL-G', 'green')],
    });
    const [outcome] = await mirror.write([upsert('ROLL', roll)]);
    expect(outcome).toMatchObject({ ok: true, action: 'created' });
    expect(server.invalid).toEqual([]);
    const order = (sku: string) => {
      const { minPurchase, purchaseSteps, purchaseUnit, referenceUnit, unitId } = product(sku);
      return { minPurchase, purchaseSteps, purchaseUnit, referenceUnit, unitId };
    };
    // The content unit is the base price's unit (Shopware's unitId), its count the purchase unit.
    expect(order('ROLL')).toEqual({
      minPurchase: 10,
      purchaseSteps: 5,
      purchaseUnit: 50,
      referenceUnit: 1,
      unitId: MTR,
    });
    expect(order('ROLL-R')).toEqual({
      minPurchase: 20,
      purchaseSteps: 5,
      purchaseUnit: 50,
      referenceUnit: 1,
      unitId: MTR,
    });
    expect(order('ROLL-G')).toEqual({
      minPurchase: 10,
      purchaseSteps: 5,
      purchaseUnit: 50,
      referenceUnit: 1,
      unitId: MTR,
    });

    // Cleared in the PIM: Shopware's defaults again, the order unit as the unit, no base price.
    const plain = lamp({ variants: [variant('ROLL-R', 'red'), variant('ROLL-G', 'green')] });
    const [cleared] = await mirror.write([upsert('ROLL', plain, 'update')]);
    expect(cleared).toMatchObject({ ok: true, action: 'updated' });
    expect(order('ROLL')).toEqual({
      minPurchase: 1,
      purchaseSteps: 1,
      purchaseUnit: null,
      referenceUnit: null,
      unitId: 'd1'.repeat(16),
    });
    expect(order('ROLL-R')).toMatchObject({ minPurchase: null, purchaseSteps: null, purchaseUnit: null });
    expect(server.invalid).toEqual([]);
  });

  it('fails a record whose minimum is a fraction or whose content unit the shop lacks, naming the field, never rounding', async () => {
    const { mirror } = shopware(server);
    const outcomes = await mirror.write([
      upsert('HALF-1', lamp({ variants: [], quantityMin: '2.5' })),
      upsert('STEP-1', lamp({ variants: [variant('STEP-1-R', 'red', { quantityInterval: '0.5' })] })),
      upsert('UNIT-1', lamp({ variants: [], contentUnit: 'LTR', contentPerUnit: '0.75' })),
      upsert('OK-1', lamp({ variants: [], quantityMin: '3' })),
    ]);
    expect(outcomes.slice(0, 3)).toEqual([
      {
        index: 0,
        ok: false,
        field: 'product.quantityMin',
        error:
          'the shop keeps the minimum purchase (minPurchase) as a whole number: 2.5 is not sent rounded (write a whole number, or order in a smaller unit)',
        retryable: false,
      },
      {
        index: 1,
        ok: false,
        field: 'product.variants.0.quantityInterval',
        error:
          'the shop keeps the purchase steps (purchaseSteps) as a whole number: 0.5 is not sent rounded (write a whole number, or order in a smaller unit)',
        retryable: false,
      },
      {
        index: 2,
        ok: false,
        field: 'product.contentUnit',
        error: 'the shop has no unit with the short code "LTR" for the content unit',
        retryable: false,
      },
    ]);
    expect(outcomes[3]).toMatchObject({ ok: true, action: 'created' });
    expect(['HALF-1', 'STEP-1', 'STEP-1-R', 'UNIT-1'].map((sku) => product(sku))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(product('OK-1')).toMatchObject({ minPurchase: 3, purchaseSteps: 1 });
  });

  it('honours 429 Retry-After, retries a 5xx and a timeout, and signs in again after a 401', async () => {
    const { mirror, sleeps } = shopware(server, {}, 1_000);
    await mirror.write([upsert('LMP-1', lamp({ variants: [] }))]);
    const tokens = server.requests('/oauth/token').length;
    server.failNext('/_action/sync', { status: 429, retryAfter: '7' });
    server.failNext('/_action/sync', { status: 503 });
    server.expireTokens();
    const [outcome] = await mirror.write([upsert('LMP-1', lamp({ variants: [], name: 'Neu' }), 'update')]);
    expect(outcome).toMatchObject({ ok: true, action: 'updated' });
    expect(sleeps).toContain(7_000);
    expect(server.requests('/oauth/token').length).toBe(tokens + 1);
    expect((product('LMP-1').translations as Record<string, { name: string }>)[DE]?.name).toBe('Neu');

    server.failNext('/_action/sync', { hang: true });
    const [afterTimeout] = await mirror.write([upsert('LMP-1', lamp({ variants: [], name: 'Neuer' }), 'update')]);
    expect(afterTimeout).toMatchObject({ ok: true });
    expect(server.requests('/_action/sync').filter((r) => r.status === 0)).toHaveLength(1);
  });

  it('reports every record of a batch as retryable when the shop keeps failing, and throws on wrong credentials', async () => {
    const { mirror } = shopware(server);
    await mirror.write([upsert('LMP-1', lamp({ variants: [] }))]);
    server.failNext('/_action/sync', { status: 503 }, 3);
    const outcomes = await mirror.write([
      upsert('LMP-1', lamp({ variants: [], name: 'x' }), 'update'),
      upsert('LMP-4', lamp({ variants: [] })),
    ]);
    expect(outcomes).toEqual([
      { index: 0, ok: false, field: 'record', error: 'the shop answered HTTP 503', retryable: true },
      { index: 1, ok: false, field: 'record', error: 'the shop answered HTTP 503', retryable: true },
    ]);
    expect(product('LMP-4')).toBeUndefined();

    const wrong = shopware(server, {}, 5_000, { ...CLIENT, clientSecret: 'wrong' });
    await expect(wrong.adapter.probe()).rejects.toMatchObject({
      message: 'the shop refused the client id or secret',
      retryable: false,
    });
    await expect(wrong.adapter.probe()).rejects.toBeInstanceOf(TargetError);
  });

  it('reads the lookup tables the PIM maps onto', async () => {
    const { adapter } = shopware(server);
    await expect(adapter.mappings()).resolves.toEqual({
      manufacturers: [{ id: 'e1'.repeat(16), name: 'Lumen AG' }],
      units: [{ id: 'd1'.repeat(16), code: 'pcs' }],
      taxes: [
        { id: 'a1'.repeat(16), code: 'Standard rate', rate: 19 },
        { id: 'a2'.repeat(16), code: 'Reduced rate', rate: 7 },
      ],
    });
    expect(SYSTEM_LANGUAGE).toHaveLength(32);
  });
});
