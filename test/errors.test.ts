import { exports } from 'cloudflare:workers';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { getCatalog } from '../src/catalog/catalogs';
import { getProduct } from '../src/catalog/product-queries';
import { renderError } from '../src/http/on-error';
import { db, makeCatalog, makeProduct, makeSession } from './helpers/factories';
import { call, ORIGIN } from './helpers/http';

type Session = Awaited<ReturnType<typeof makeSession>>;

/** The six POST operations of docs/spec.md part 4 with a valid body for a fresh fixture. */
async function fixture() {
  const session = await makeSession();
  const catalog = await makeCatalog(session, { name: 'Before' });
  const product = await makeProduct(session, catalog.catalogId, { name: 'Before' });
  const d = session.departmentId;
  const operations: [string, Record<string, unknown>][] = [
    ['/api/Catalog/AddCatalog', { departmentId: d, name: 'New' }],
    ['/api/Catalog/UpdateCatalog', { departmentId: d, catalogId: catalog.catalogId, name: 'After' }],
    ['/api/Catalog/AddProduct', { departmentId: d, catalogId: catalog.catalogId, name: 'New' }],
    [
      '/api/Catalog/UpdateProduct',
      { departmentId: d, catalogId: catalog.catalogId, productId: product.productId, name: 'After' },
    ],
    ['/api/Catalog/SetValue', { departmentId: d, elementId: product.productId, field: 'name', value: 'After' }],
    ['/api/Export/StartExport', { departmentId: d, catalogId: catalog.catalogId, exportType: 'CSV' }],
  ];
  return { session, catalog, product, operations };
}

/** Proves nothing changed: counts, the catalog, the product, and no job. */
async function expectUnchanged(session: Session, catalogId: string, productId: string) {
  expect((await call('GET', '/api/Catalog/GetStats', { cookie: session.cookie })).json).toEqual({
    catalogs: 1,
    categories: 0,
    products: 1,
  });
  expect((await getCatalog(db(), session, catalogId)).name).toBe('Before');
  expect((await getProduct(db(), session, productId)).name).toBe('Before');
  expect((await call('GET', '/api/Job/GetJobs', { cookie: session.cookie })).json.items).toEqual([]);
}

describe('error responses of the SPEC operations', () => {
  it('answers 401 {error} without a cookie for each of them and changes nothing', async () => {
    const { session, catalog, product, operations } = await fixture();
    expect((await call('GET', '/api/Catalog/GetStats')).json.error).toBe('not logged in');
    for (const [path, body] of operations) {
      const res = await call('POST', path, { body });
      expect(res.status, path).toBe(401);
      expect(res.json.error, path).toBe('not logged in');
    }
    await expectUnchanged(session, catalog.catalogId, product.productId);
  });

  it('answers 400 for malformed JSON to each of them and changes nothing', async () => {
    const { session, catalog, product, operations } = await fixture();
    for (const [path, body] of operations) {
      const res = await call('POST', path, {
        cookie: session.cookie,
        rawBody: JSON.stringify(body).slice(0, -1),
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status, path).toBe(400);
      expect(res.json.error, path).toMatch(/malformed JSON/i);
    }
    await expectUnchanged(session, catalog.catalogId, product.productId);
  });

  it('answers 400 for a JSON body that is not an object', async () => {
    const { session, operations } = await fixture();
    for (const [path] of operations) {
      const res = await call('POST', path, { cookie: session.cookie, body: [1, 2] });
      expect(res.status, path).toBe(400);
      expect(res.json.error, path).toBe('Invalid input: expected object, received array');
    }
  });

  it('answers 415 for a non-JSON or untyped body to each of them and changes nothing', async () => {
    const { session, catalog, product, operations } = await fixture();
    for (const [path, body] of operations) {
      for (const type of ['text/plain', 'multipart/form-data; boundary=x', undefined]) {
        const headers: Record<string, string> = type ? { 'Content-Type': type } : {};
        const res = await call('POST', path, { cookie: session.cookie, rawBody: JSON.stringify(body), headers });
        expect(res.status, `${path} ${type}`).toBe(415);
        expect(res.json.error).toBe('Content-Type must be application/json');
      }
    }
    await expectUnchanged(session, catalog.catalogId, product.productId);
  });

  it('accepts application/json with a charset parameter', async () => {
    const { session, product } = await fixture();
    const res = await call('POST', '/api/Catalog/SetValue', {
      cookie: session.cookie,
      rawBody: JSON.stringify({
        departmentId: session.departmentId,
        elementId: product.productId,
        field: 'name',
        value: 'ok',
      }),
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(200);
    expect(res.json.value).toBe('ok');
  });

  it('answers 413 for a body over 1 MiB to each of them and changes nothing', async () => {
    const { session, catalog, product, operations } = await fixture();
    for (const [path, body] of operations) {
      const res = await call('POST', path, {
        cookie: session.cookie,
        body: { ...body, padding: 'x'.repeat(1024 * 1024) },
      });
      expect(res.status, path).toBe(413);
      expect(res.json.error).toBe('request body exceeds 1048576 bytes');
    }
    await expectUnchanged(session, catalog.catalogId, product.productId);
  });

  it('answers 413 for a streamed body over 1 MiB that announces no length', async () => {
    const { session, catalog, product } = await fixture();
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0)
          controller.enqueue(new TextEncoder().encode(`{"departmentId":"${session.departmentId}","name":"`));
        if (sent++ < 20) controller.enqueue(chunk);
        else {
          controller.enqueue(new TextEncoder().encode('"}'));
          controller.close();
        }
      },
    });
    const res = await exports.default.fetch(
      new Request(`${ORIGIN}/api/Catalog/AddCatalog`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: session.cookie },
        body: stream,
      }),
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: string }).error).toBe('request body exceeds 1048576 bytes');
    await expectUnchanged(session, catalog.catalogId, product.productId);
  });
});

describe('error rendering', () => {
  it('answers 404 {error} for an unknown route, with request id and security headers', async () => {
    const res = await call('GET', '/api/NoSuchController/NoSuchAction');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: 'route not found', code: 'not_found' });
    expect(res.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    // Behind the session check, an unknown action does not reveal itself to anonymous callers.
    const hidden = await call('GET', '/api/Catalog/NoSuchAction');
    expect(hidden.status).toBe(401);
    expect(hidden.json.error).toBe('not logged in');
  });

  it('answers an unexpected error with a generic 500 that carries a request id and no internals', async () => {
    const app = new Hono();
    app.use('*', async (c, next) => {
      c.set('requestId' as never, 'req-123' as never);
      await next();
    });
    app.get('/boom', () => {
      throw new Error('D1_ERROR: secret table layout');
    });
    app.onError(renderError);
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const res = await app.request('/boom');
      expect(res.status).toBe(500);
      const body = await res.json();
      expect(body).toEqual({ error: 'internal error (request id req-123)', code: 'internal', requestId: 'req-123' });
      expect(JSON.stringify(body)).not.toContain('secret');
      expect(JSON.stringify(errors)).toContain('secret table layout');
    } finally {
      console.error = original;
    }
  });
});
