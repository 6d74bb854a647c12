import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { errorStatuses } from '../src/openapi/error-responses';
import { openApiDocument } from '../src/openapi/openapi-document';

/**
 * The OpenAPI document as a whole (docs/reliability.md): well-formed OpenAPI 3.1 that a client
 * generator can take, and error statuses that follow each operation's properties.
 */
const doc: any = await openApiDocument(createApp(), 'https://pim.test/api');
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const operations = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
  Object.entries<any>(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, method, path, op })),
);
const statusesOf = (method: string, path: string) => Object.keys(doc.paths[path][method].responses).sort();

/** Every `$ref` in a value, with where it was found. */
function refsOf(value: unknown, at = '#'): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => refsOf(v, `${at}/${i}`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === '$ref' && typeof v === 'string' ? [[at, v] as [string, string]] : refsOf(v, `${at}/${key}`),
  );
}

function resolve(ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<any>((node, part) => node?.[part], doc);
}

describe('the OpenAPI document is well-formed OpenAPI 3.1', () => {
  it('has the 3.1 root fields and at least the operations of the contract suite', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: expect.any(String), version: '1.0.0' });
    expect(operations.length).toBeGreaterThanOrEqual(45);
  });

  it('gives every operation a unique operationId, a summary, a declared tag and a security requirement', () => {
    const tags = doc.tags.map((t: { name: string }) => t.name);
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { id, op } of operations) {
      expect(op.operationId, id).toMatch(/^[A-Za-z]+_[A-Za-z]+$/);
      expect(op.summary, id).toEqual(expect.any(String));
      expect(op.tags.length, id).toBe(1);
      expect(tags, id).toContain(op.tags[0]);
      expect(Array.isArray(op.security), id).toBe(true);
      for (const requirement of op.security) {
        for (const scheme of Object.keys(requirement))
          expect(doc.components.securitySchemes, id).toHaveProperty(scheme);
      }
    }
  });

  it('resolves every $ref inside the document', () => {
    const refs = refsOf(doc);
    expect(refs.length).toBeGreaterThan(100);
    for (const [at, ref] of refs) {
      expect(ref, at).toMatch(/^#\//);
      expect(resolve(ref), `${at} -> ${ref}`).toBeDefined();
    }
  });

  it('documents every response with a description, and every error as the shared Error body', () => {
    for (const { id, op } of operations) {
      expect(Object.keys(op.responses), id).toContain('200');
      for (const [status, response] of Object.entries<any>(op.responses)) {
        expect(status, id).toMatch(/^[1-5]\d\d$/);
        expect(response.description, `${id} ${status}`).toEqual(expect.any(String));
        if (Number(status) >= 400) {
          expect(response.content, `${id} ${status}`).toEqual({
            'application/json': { schema: { $ref: '#/components/schemas/Error' } },
          });
        }
      }
      expect(
        Object.keys(op).filter((k) => k.startsWith('x-')),
        id,
      ).toEqual([]);
    }
  });

  it('takes JSON bodies as application/json and uploads as their own content types', () => {
    for (const { id, op } of operations) {
      if (op.requestBody) expect(Object.keys(op.requestBody.content).length, id).toBeGreaterThan(0);
    }
    expect(Object.keys(doc.paths['/api/Media/Upload'].post.requestBody.content)).toContain('image/png');
    expect(doc.paths['/api/Import/UploadPart'].put.requestBody.content).toHaveProperty('application/octet-stream');
  });
});

describe("each operation's error statuses follow from what it is", () => {
  it('a read without input is only 401 (and the /api/ai token refusals 403)', () => {
    expect(statusesOf('get', '/api/Account/Me')).toEqual(['200', '401']);
    expect(statusesOf('get', '/api/ai/GetStats')).toEqual(['200', '401', '403']);
  });

  it('a read by id: 400, 401, 404, and 403 only when it names a department; never 409, 413 or 415', () => {
    expect(statusesOf('get', '/api/Catalog/GetCatalog')).toEqual(['200', '400', '401', '404']);
    expect(statusesOf('get', '/api/Catalog/GetStats')).toEqual(['200', '400', '401', '403']);
  });

  it('a cookie write: 403 for a foreign Origin, 413 and 415 for its JSON body; 409 only where it can clash', () => {
    expect(statusesOf('post', '/api/Catalog/AddProduct')).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '415',
    ]);
    expect(statusesOf('post', '/api/Catalog/AddCatalog')).not.toContain('409');
    expect(statusesOf('post', '/api/Job/CancelJob')).toContain('409');
  });

  it('sign-in and sign-out: Login 401/403/429 without 404; Logout neither 401 nor 415', () => {
    expect(statusesOf('post', '/api/Account/Login')).toEqual(['200', '400', '401', '403', '413', '415', '429']);
    expect(statusesOf('post', '/api/Account/Logout')).toEqual(['200', '403']);
    expect(doc.paths['/api/Account/Logout'].post.security).toEqual([{ sessionCookie: [] }, {}]);
  });

  it('uploads: 413 for the file, no 415; public and rate-limited operations: 429 without 401', () => {
    expect(statusesOf('post', '/api/Media/Upload')).toEqual(expect.arrayContaining(['400', '413']));
    expect(statusesOf('post', '/api/Media/Upload')).not.toContain('415');
    expect(statusesOf('post', '/api/contact/submit')).toEqual(['200', '400', '413', '415', '429']);
  });

  it('derives the statuses from the properties alone', () => {
    const base = { method: 'get', path: '/api/X/Get', security: 'cookie' as const, fields: [] };
    expect(Object.keys(errorStatuses(base))).toEqual(['401']);
    expect(Object.keys(errorStatuses({ ...base, fields: ['departmentId', 'productIds'] }))).toEqual([
      '400',
      '401',
      '403',
      '404',
    ]);
    expect(Object.keys(errorStatuses({ ...base, method: 'post', adminOnly: true, conflict: 'c' }))).toEqual([
      '400',
      '401',
      '403',
      '409',
      '413',
      '415',
    ]);
    expect(errorStatuses({ ...base, security: 'bearer' })['403']).toMatch(/scope/);
  });
});
