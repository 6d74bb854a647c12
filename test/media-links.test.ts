import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getProduct } from '../src/catalog/product-queries';
import { products } from '../src/db/schema';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;

async function setup() {
  const session = await makeSession();
  const catalog = await makeCatalog(session);
  const product = await makeProduct(session, catalog.catalogId);
  return { session, product };
}

const post = (session: Session, path: string, body: Record<string, unknown>) =>
  call('POST', `/api/Media/${path}`, { cookie: session.cookie, body });

const fingerprint = async (id: string) =>
  (await db().query.products.findFirst({ where: eq(products.id, id) }))!.fingerprint;

describe('Media links', () => {
  it('adds a link after the files, lists it with kind link on the product and changes the fingerprint', async () => {
    const { session, product } = await setup();
    const before = await fingerprint(product.productId);
    const res = await post(session, 'AddLink', {
      departmentId: session.departmentId,
      elementId: product.productId,
      url: 'https://cdn.example.com/a/Zange%20180.JPG',
      purpose: 'data_sheet',
      description: 'Datenblatt',
      mimeCode: 'MD22',
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      kind: 'link',
      url: 'https://cdn.example.com/a/Zange%20180.JPG',
      fileName: 'Zange 180.JPG',
      contentType: 'image/jpeg',
      purpose: 'data_sheet',
      description: 'Datenblatt',
      mimeCode: 'MD22',
      size: 0,
    });
    const detail = await getProduct(db(), session, product.productId);
    expect(detail.media).toMatchObject([{ mediaId: res.json.mediaId, kind: 'link', url: res.json.url }]);
    const after = await fingerprint(product.productId);
    expect(after).not.toBeNull();
    expect(after).not.toBe(before);
  });

  it('updates, reorders and removes links through the media operations', async () => {
    const { session, product } = await setup();
    const add = (url: string) =>
      post(session, 'AddLink', { departmentId: session.departmentId, elementId: product.productId, url });
    const a = (await add('https://a.example.com/1.pdf')).json;
    const b = (await add('http://b.example.com/2.png')).json;
    const upd = await post(session, 'UpdateLink', {
      departmentId: session.departmentId,
      mediaId: a.mediaId,
      purpose: 'safety_data_sheet',
      alt: 'SDB',
    });
    expect(upd.json).toMatchObject({ purpose: 'safety_data_sheet', alt: 'SDB', url: 'https://a.example.com/1.pdf' });
    const reordered = await post(session, 'Reorder', {
      departmentId: session.departmentId,
      elementId: product.productId,
      mediaIds: [b.mediaId, a.mediaId],
    });
    expect(reordered.json.items.map((m: { url: string }) => m.url)).toEqual([
      'http://b.example.com/2.png',
      'https://a.example.com/1.pdf',
    ]);
    const del = await post(session, 'Delete', { departmentId: session.departmentId, mediaId: b.mediaId });
    expect(del.json).toEqual({ mediaId: b.mediaId, deleted: true });
    expect((await getProduct(db(), session, product.productId)).media.map((m) => m.mediaId)).toEqual([a.mediaId]);
  });

  it.each([
    [{ url: 'ftp://example.com/x.pdf' }, /url: must be an absolute http\(s\) URL/],
    [{ url: '/relative/x.pdf' }, /url: must be an absolute http\(s\) URL/],
    [{ url: 'https://e.example.com/x', purpose: 'poster' }, /purpose/],
    [{ url: 'https://e.example.com/x', mimeCode: 'XX1' }, /mimeCode: must be an ETIM MIME code/],
  ])('answers 400 naming the field for %j', async (extra, message) => {
    const { session, product } = await setup();
    const res = await post(session, 'AddLink', {
      departmentId: session.departmentId,
      elementId: product.productId,
      ...extra,
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(message);
    expect((await getProduct(db(), session, product.productId)).media).toEqual([]);
  });

  it('refuses the same URL twice on one element and a link update of another company', async () => {
    const { session, product } = await setup();
    const body = {
      departmentId: session.departmentId,
      elementId: product.productId,
      url: 'https://x.example.com/1.png',
    };
    const first = await post(session, 'AddLink', body);
    const twice = await post(session, 'AddLink', body);
    expect(twice.status).toBe(400);
    expect(twice.json.error).toMatch(/^url: the element already has a link/);
    const stranger = await makeSession();
    const res = await post(stranger, 'UpdateLink', {
      departmentId: stranger.departmentId,
      mediaId: first.json.mediaId,
      purpose: 'logo',
    });
    expect(res.status).toBe(404);
  });
});
