import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { getProduct } from '../src/catalog/product-queries';
import { asActor, db, makeCatalog, makeCompany, makeProduct, makeSession } from './helpers/factories';
import { call, ORIGIN } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

async function upload(
  session: Session | null,
  query: Record<string, string>,
  bytes: Uint8Array,
  contentType = 'image/png',
) {
  const params = new URLSearchParams(query);
  const headers: Record<string, string> = { 'Content-Type': contentType };
  if (session) headers.Cookie = session.cookie;
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/api/Media/Upload?${params}`, { method: 'POST', headers, body: bytes }),
  );
  return { status: res.status, json: (await res.json()) as any };
}

async function setup() {
  const session = await makeSession();
  const catalog = await makeCatalog(session);
  const product = await makeProduct(session, catalog.catalogId);
  return { session, catalog, product };
}

describe('Media', () => {
  it('uploads a file to R2, lists it on the product and serves the same bytes', async () => {
    const { session, product } = await setup();
    const res = await upload(
      session,
      {
        departmentId: session.departmentId,
        elementId: product.productId,
        fileName: 'front.png',
        purpose: 'detail',
        description: 'Front view',
      },
      PNG,
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      mediaId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      elementId: product.productId,
      purpose: 'detail',
      fileName: 'front.png',
      contentType: 'image/png',
      size: PNG.byteLength,
      description: 'Front view',
      kind: 'file',
      url: null,
      mimeCode: null,
      alt: null,
      attachment: null,
    });
    const detail = await getProduct(db(), session, product.productId);
    expect(detail.media).toEqual([
      {
        mediaId: res.json.mediaId,
        purpose: 'detail',
        fileName: 'front.png',
        contentType: 'image/png',
        size: PNG.byteLength,
        kind: 'file',
        url: null,
        description: 'Front view',
        mimeCode: null,
        alt: null,
        attachment: null,
        language: 'deu',
        missingTranslations: [],
      },
    ]);
    const file = await exports.default.fetch(
      new Request(`${ORIGIN}/api/Media/Get?mediaId=${res.json.mediaId}`, { headers: { Cookie: session.cookie } }),
    );
    expect(file.status).toBe(200);
    expect(file.headers.get('Content-Type')).toBe('image/png');
    expect(file.headers.get('Content-Disposition')).toBe('inline; filename="front.png"');
    expect(file.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);
  });

  it('keeps files in upload order', async () => {
    const { session, product } = await setup();
    for (const name of ['c.png', 'b.png', 'a.png']) {
      const res = await upload(
        session,
        { departmentId: session.departmentId, elementId: product.productId, fileName: name },
        PNG,
      );
      expect(res.status).toBe(200);
    }
    expect((await getProduct(db(), session, product.productId)).media.map((m) => m.fileName)).toEqual([
      'c.png',
      'b.png',
      'a.png',
    ]);
  });

  it('deletes a file: the row and the R2 object go', async () => {
    const { session, product } = await setup();
    const up = await upload(
      session,
      { departmentId: session.departmentId, elementId: product.productId, fileName: 'x.png' },
      PNG,
    );
    const res = await call('POST', '/api/Media/Delete', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, mediaId: up.json.mediaId },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ mediaId: up.json.mediaId, deleted: true });
    const gone = await call('GET', `/api/Media/Get?mediaId=${up.json.mediaId}`, { cookie: session.cookie });
    expect(gone.status).toBe(404);
    expect(gone.json.error).toBe('media not found');
    expect((await env.FILES.list({ prefix: `media/${session.companyId}/${up.json.mediaId}/` })).objects).toEqual([]);
    expect((await getProduct(db(), session, product.productId)).media).toEqual([]);
  });

  it('refuses other content types, empty files and path-like names, storing nothing', async () => {
    const { session, product } = await setup();
    const base = { departmentId: session.departmentId, elementId: product.productId, fileName: 'x.html' };
    const html = await upload(session, base, new TextEncoder().encode('<script>'), 'text/html');
    expect(html.status).toBe(400);
    expect(html.json.error).toMatch(/^Content-Type must be one of image\/jpeg/);
    const empty = await upload(session, { ...base, fileName: 'e.png' }, new Uint8Array());
    expect(empty.status).toBe(400);
    expect(empty.json.error).toBe('the file is empty');
    const traversal = await upload(session, { ...base, fileName: '../../etc.png' }, PNG);
    expect(traversal.status).toBe(400);
    expect(traversal.json.error).toBe('fileName: fileName must not contain path separators or control characters');
    expect((await getProduct(db(), session, product.productId)).media).toEqual([]);
    expect((await env.FILES.list({ prefix: `media/${session.companyId}/` })).objects).toEqual([]);
  });

  it("answers 404 for another company's element or file and 401 without a session", async () => {
    const { session, product } = await setup();
    const theirs = await makeCompany();
    const foreignProduct = await makeProduct(theirs, (await makeCatalog(theirs)).catalogId);
    const foreign = await upload(
      session,
      { departmentId: session.departmentId, elementId: foreignProduct.productId, fileName: 'x.png' },
      PNG,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.json.error).toBe('element not found');
    expect((await getProduct(db(), asActor(theirs), foreignProduct.productId)).media).toEqual([]);
    const mine = await upload(
      session,
      { departmentId: session.departmentId, elementId: product.productId, fileName: 'x.png' },
      PNG,
    );
    const other = await makeSession();
    const get = await call('GET', `/api/Media/Get?mediaId=${mine.json.mediaId}`, { cookie: other.cookie });
    expect(get.status).toBe(404);
    const del = await call('POST', '/api/Media/Delete', {
      cookie: other.cookie,
      body: { departmentId: other.departmentId, mediaId: mine.json.mediaId },
    });
    expect(del.status).toBe(404);
    expect((await getProduct(db(), session, product.productId)).media).toHaveLength(1);
    const anonymous = await upload(
      null,
      { departmentId: session.departmentId, elementId: product.productId, fileName: 'x.png' },
      PNG,
    );
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error).toBe('not logged in');
  });
});

describe('Media files when their element goes', () => {
  async function storedKeys(catalogId: string, companyId: string) {
    const listing = await env.FILES.list({ prefix: `media/${companyId}/${catalogId}/` });
    return listing.objects.map((o) => o.key);
  }

  it('removes the files of a deleted product and its variants from R2', async () => {
    const { session, catalog, product } = await setup();
    const variant = await makeProduct(session, catalog.catalogId, { parentId: product.productId });
    const other = await makeProduct(session, catalog.catalogId);
    for (const elementId of [product.productId, variant.productId, other.productId]) {
      expect(
        (await upload(session, { departmentId: session.departmentId, elementId, fileName: 'x.png' }, PNG)).status,
      ).toBe(200);
    }
    expect(await storedKeys(catalog.catalogId, session.companyId)).toHaveLength(3);
    const res = await call('POST', '/api/Catalog/DeleteProduct', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, productId: product.productId },
    });
    expect(res.json).toEqual({ productId: product.productId, deleted: 2 });
    const left = await storedKeys(catalog.catalogId, session.companyId);
    expect(left).toHaveLength(1);
    expect(left[0]).toContain('/x.png');
    expect((await getProduct(db(), session, other.productId)).media).toHaveLength(1);
  });

  it('removes every file of a deleted catalog from R2', async () => {
    const { session, catalog, product } = await setup();
    const category = await call('POST', '/api/Catalog/AddCategory', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId, name: 'Kabel' },
    });
    for (const elementId of [product.productId, category.json.categoryId, catalog.catalogId]) {
      expect(
        (
          await upload(
            session,
            { departmentId: session.departmentId, elementId, fileName: 'logo.png', purpose: 'logo' },
            PNG,
          )
        ).status,
      ).toBe(200);
    }
    expect(await storedKeys(catalog.catalogId, session.companyId)).toHaveLength(3);
    const res = await call('POST', '/api/Catalog/DeleteCatalog', {
      cookie: session.cookie,
      body: { departmentId: session.departmentId, catalogId: catalog.catalogId },
    });
    expect(res.json).toEqual({ catalogId: catalog.catalogId, deleted: true });
    expect(await storedKeys(catalog.catalogId, session.companyId)).toEqual([]);
  });
});
