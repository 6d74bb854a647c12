import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { products } from '../src/db/schema';
import { attachMedia } from '../src/media/media';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';

/**
 * Feature blocks of other systems through UpsertProducts, and RestoreVersion bringing back the
 * blocks and the media links a version had (links have no stored bytes: a deleted one is
 * re-created, a later one removed, a changed one points back; an uploaded file that is gone
 * stays in `skipped`). Through the Worker; the fingerprint is checked against the stored row.
 */
const UNSPSC = { system: 'UNSPSC', groupId: '39121601', features: [{ name: 'Farbe', values: ['grau'] }] };
const UDF = {
  system: 'udf_NMTECHNICALDATA-1.0',
  features: [{ name: 'Länge', values: ['200'], unit: 'mm', order: 2 }],
};
const stored = (b: Record<string, unknown>) => ({ groupId: null, groupId2: null, groupName: null, ...b });

async function setup() {
  const s = await makeSession();
  const catalog = await makeCatalog(s.tenant);
  const post = (path: string, body: Record<string, unknown>) =>
    call('POST', `/api/${path}`, {
      cookie: s.cookie,
      headers: { Origin: 'http://pim.test' },
      body: { departmentId: s.departmentId, ...body },
    });
  const get = (path: string) => call('GET', `/api/${path}`, { cookie: s.cookie });
  const row = async (id: string) => (await db().query.products.findFirst({ where: eq(products.id, id) }))!;
  return { s, catalog, post, get, row };
}

describe('UpsertProducts with featureBlocks', () => {
  it('creates, updates, leaves unchanged and clears the blocks of masters and variants', async () => {
    const { catalog, post, get, row } = await setup();
    const upsert = (items: unknown[]) => post('Catalog/UpsertProducts', { catalogId: catalog.catalogId, items });
    const first = await upsert([
      { sku: 'FB-M', name: 'Master', featureBlocks: [UNSPSC], variants: [{ sku: 'FB-V', featureBlocks: [UDF] }] },
    ]);
    expect(first.status, first.text).toBe(200);
    expect(first.json.counts).toEqual({ created: 2, updated: 0, unchanged: 0, error: 0 });
    const masterId = first.json.items[0].productId;
    const variantId = first.json.items[0].variants[0].productId;
    expect((await get(`Catalog/GetFeatureBlocks?productId=${masterId}`)).json.featureBlocks).toEqual([stored(UNSPSC)]);
    expect((await get(`Catalog/GetFeatureBlocks?productId=${variantId}`)).json.featureBlocks).toEqual([stored(UDF)]);
    const created = await row(masterId);

    const same = await upsert([{ sku: 'FB-M', featureBlocks: [UNSPSC] }]);
    expect(same.json.counts).toMatchObject({ unchanged: 1 });
    expect((await row(masterId)).fingerprint).toBe(created.fingerprint);

    const changed = await upsert([{ sku: 'FB-M', featureBlocks: [UDF, UNSPSC] }]);
    expect(changed.json.counts).toMatchObject({ updated: 1 });
    expect(
      (await get(`Catalog/GetFeatureBlocks?productId=${masterId}`)).json.featureBlocks.map(
        (b: { system: string }) => b.system,
      ),
    ).toEqual(['udf_NMTECHNICALDATA-1.0', 'UNSPSC']);
    const updated = await row(masterId);
    expect(updated.fingerprint).not.toBe(created.fingerprint);
    expect(updated.fingerprintRevision).toBe(updated.revision);

    // Leaving the field out keeps the blocks; an empty list removes them.
    await upsert([{ sku: 'FB-M', name: 'Renamed' }]);
    expect((await get(`Catalog/GetFeatureBlocks?productId=${masterId}`)).json.featureBlocks).toHaveLength(2);
    const cleared = await upsert([{ sku: 'FB-M', featureBlocks: [] }]);
    expect(cleared.json.counts).toMatchObject({ updated: 1 });
    expect((await get(`Catalog/GetFeatureBlocks?productId=${masterId}`)).json.featureBlocks).toEqual([]);
    const history = (await get(`Catalog/GetHistory?elementId=${masterId}`)).json.items;
    expect(history[0].changes).toContainEqual(expect.objectContaining({ path: 'featureBlocks', after: null }));
  });

  it('refuses a block without features or with a feature that has neither name nor ftId: 400, nothing written', async () => {
    const { catalog, post, get } = await setup();
    for (const featureBlocks of [[{ system: 'UNSPSC' }], [{ system: 'X', features: [{ values: ['1'] }] }]]) {
      const res = await post('Catalog/UpsertProducts', {
        catalogId: catalog.catalogId,
        items: [{ sku: 'FB-BAD', featureBlocks }],
      });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/featureBlocks/);
    }
    const list = await get(`Catalog/GetProducts?catalogId=${catalog.catalogId}`);
    expect(list.json.items).toEqual([]);
  });
});

describe('RestoreVersion with feature blocks and media links', () => {
  it('brings back the blocks a version had, with a fresh fingerprint', async () => {
    const { s, catalog, post, get, row } = await setup();
    const product = await makeProduct(s.tenant, catalog.catalogId);
    await post('Catalog/SetFeatureBlocks', { productId: product.productId, featureBlocks: [UNSPSC] });
    const withOne = await row(product.productId);
    const version = (await get(`Catalog/GetHistory?elementId=${product.productId}`)).json.items[0].versionId;
    await post('Catalog/SetFeatureBlocks', { productId: product.productId, featureBlocks: [UDF] });
    expect((await row(product.productId)).fingerprint).not.toBe(withOne.fingerprint);

    const res = await post('Catalog/RestoreVersion', { elementId: product.productId, versionId: version });
    expect(res.status, res.text).toBe(200);
    expect(res.json.skipped).toEqual([]);
    expect((await get(`Catalog/GetFeatureBlocks?productId=${product.productId}`)).json.featureBlocks).toEqual([
      stored(UNSPSC),
    ]);
    const after = await row(product.productId);
    expect(after.fingerprint).toBe(withOne.fingerprint);
    expect(after.fingerprintRevision).toBe(after.revision);

    // Back to the creation: no blocks at all.
    const creation = (await get(`Catalog/GetHistory?elementId=${product.productId}`)).json.items.at(-1).versionId;
    await post('Catalog/RestoreVersion', { elementId: product.productId, versionId: creation });
    expect((await get(`Catalog/GetFeatureBlocks?productId=${product.productId}`)).json.featureBlocks).toEqual([]);
  });

  it('re-creates a deleted link, points a changed one back, removes a later one; a deleted upload stays skipped', async () => {
    const { s, catalog, post, get } = await setup();
    const product = await makeProduct(s.tenant, catalog.catalogId);
    const file = await attachMedia({ db: db(), files: env.FILES }, s.tenant, {
      departmentId: s.departmentId,
      elementId: product.productId,
      fileName: 'photo.jpg',
      purpose: 'normal',
      contentType: 'image/jpeg',
      bytes: new Uint8Array([255, 216, 255, 1]),
    });
    const sheet = (
      await post('Media/AddLink', {
        elementId: product.productId,
        url: 'https://cdn.example.com/kb.pdf',
        purpose: 'data_sheet',
        mimeCode: 'MD02',
        description: 'Datenblatt',
        alt: 'KB',
      })
    ).json;
    const image = (await post('Media/AddLink', { elementId: product.productId, url: 'https://cdn.example.com/kb.jpg' }))
      .json;
    const version = (await get(`Catalog/GetHistory?elementId=${product.productId}`)).json.items[0].versionId;
    const mediaOf = async () => (await get(`Catalog/GetProduct?productId=${product.productId}`)).json.media;
    const wanted = await mediaOf();

    await post('Media/Delete', { mediaId: sheet.mediaId });
    await post('Media/UpdateLink', { mediaId: image.mediaId, url: 'https://other.example.com/new.png', alt: 'neu' });
    await post('Media/AddLink', { elementId: product.productId, url: 'https://cdn.example.com/later.pdf' });
    await post('Media/Delete', { mediaId: file.mediaId });

    const res = await post('Catalog/RestoreVersion', { elementId: product.productId, versionId: version });
    expect(res.status, res.text).toBe(200);
    expect(res.json.skipped).toEqual([
      expect.objectContaining({ path: `media.${file.mediaId}`, reason: expect.stringMatching(/deleted/) }),
    ]);
    expect(await mediaOf()).toEqual(wanted.filter((m: { mediaId: string }) => m.mediaId !== file.mediaId));
    expect((await mediaOf()).find((m: { mediaId: string }) => m.mediaId === sheet.mediaId)).toMatchObject({
      kind: 'link',
      url: 'https://cdn.example.com/kb.pdf',
      purpose: 'data_sheet',
      mimeCode: 'MD02',
      description: 'Datenblatt',
      alt: 'KB',
      contentType: 'application/pdf',
    });
    const top = (await get(`Catalog/GetHistory?elementId=${product.productId}`)).json.items[0];
    expect(top.action).toBe('restore');
    expect(top.changes.map((c: { path: string }) => c.path)).toContain(`media.${sheet.mediaId}`);
  });
});
