import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChangePasswordDto, LoginDto } from '../src/accounts/account.schemas';
import { createApp } from '../src/app';
import { AttributeDto } from '../src/catalog/attributes';
import { CatalogDto, ProductDto, ProductListQuery, SetValueDto } from '../src/catalog/catalog.schemas';
import { CategoryDto, MoveCategoryDto } from '../src/catalog/categories';
import { StartExportDto } from '../src/exports/start-export';
import { call } from './helpers/http';

const jsonSchema = (schema: z.ZodType) => {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  return out;
};

async function document() {
  const res = await call('GET', '/api/openapi.json');
  expect(res.status).toBe(200);
  return res.json;
}

describe('OpenAPI document', () => {
  it('is OpenAPI 3.1.0, version 1.0.0, with the cookie scheme Service.Cookie and the Error schema', async () => {
    const doc = await document();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([{ url: 'http://pim.test/api' }]);
    expect(doc.components.securitySchemes.sessionCookie).toEqual({
      type: 'apiKey',
      in: 'cookie',
      name: 'Service.Cookie',
    });
    expect(doc.components.schemas.Error).toMatchObject({
      type: 'object',
      required: ['error'],
      properties: { error: { type: 'string' } },
    });
    expect(doc.tags.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['Catalog', 'Classification', 'Export', 'Job']),
    );
  });

  it('documents the seven SPEC operations with their methods, tags, cookie security and request schemas', async () => {
    const doc = await document();
    const spec: [string, string, string, z.ZodType | null][] = [
      ['get', '/api/Catalog/GetStats', 'Catalog', null],
      ['post', '/api/Catalog/AddCatalog', 'Catalog', CatalogDto],
      ['post', '/api/Catalog/UpdateCatalog', 'Catalog', CatalogDto],
      ['post', '/api/Catalog/AddProduct', 'Catalog', ProductDto],
      ['post', '/api/Catalog/UpdateProduct', 'Catalog', ProductDto],
      ['post', '/api/Catalog/SetValue', 'Catalog', SetValueDto],
      ['post', '/api/Export/StartExport', 'Export', StartExportDto],
    ];
    for (const [method, path, tag, schema] of spec) {
      const op = doc.paths[path]?.[method];
      expect(op, path).toBeDefined();
      expect(op.tags).toEqual([tag]);
      expect(op.security).toEqual([{ sessionCookie: [] }]);
      expect(op.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      expect(op.responses['200'].content['application/json'].schema, path).toBeDefined();
      if (schema) {
        expect(op.requestBody.required).toBe(true);
        expect(op.requestBody.content['application/json'].schema, path).toEqual(jsonSchema(schema));
      }
    }
  });

  it('requires exactly the SPEC fields of each DTO', async () => {
    const doc = await document();
    const body = (path: string) => doc.paths[path].post.requestBody.content['application/json'].schema;
    expect(body('/api/Catalog/AddCatalog').required.sort()).toEqual(['departmentId', 'name']);
    expect(body('/api/Catalog/AddCatalog').properties.departmentId).toMatchObject({ type: 'string', format: 'uuid' });
    expect(body('/api/Catalog/AddProduct').required.sort()).toEqual(['catalogId', 'departmentId']);
    expect(body('/api/Catalog/SetValue').required.sort()).toEqual(['departmentId', 'elementId', 'field', 'value']);
    expect(body('/api/Catalog/SetValue').properties.value).toMatchObject({ type: 'string' });
    expect(body('/api/Export/StartExport').required.sort()).toEqual(['catalogId', 'departmentId']);
    expect(body('/api/Catalog/AddCatalog').additionalProperties).toBe(false);
  });

  it('documents the success bodies: JobRef, CatalogStats and SetValue echo', async () => {
    const doc = await document();
    const ok = (method: string, path: string) =>
      doc.paths[path][method].responses['200'].content['application/json'].schema;
    expect(ok('post', '/api/Export/StartExport')).toMatchObject({
      type: 'object',
      required: ['jobId'],
      properties: { jobId: { type: 'string' } },
    });
    expect(ok('get', '/api/Catalog/GetStats').required.sort()).toEqual(['catalogs', 'categories', 'products']);
    expect(ok('get', '/api/Catalog/GetStats').properties.products.type).toBe('integer');
    expect(ok('post', '/api/Catalog/SetValue').required.sort()).toEqual(['elementId', 'field', 'value']);
    expect(ok('post', '/api/Catalog/AddCatalog').required).toContain('catalogId');
    expect(ok('post', '/api/Catalog/AddProduct').required).toContain('productId');
  });

  it('documents the web-application operations with their validators and query parameters', async () => {
    const doc = await document();
    const bodies: [string, z.ZodType][] = [
      ['/api/Account/Login', LoginDto],
      ['/api/Account/ChangePassword', ChangePasswordDto],
      ['/api/Catalog/AddCategory', CategoryDto],
      ['/api/Catalog/MoveCategory', MoveCategoryDto],
      ['/api/Catalog/AddAttribute', AttributeDto],
    ];
    for (const [path, schema] of bodies) {
      expect(doc.paths[path].post.requestBody.content['application/json'].schema, path).toEqual(jsonSchema(schema));
    }
    expect(doc.paths['/api/Account/Login'].post.security).toEqual([]);
    const params = doc.paths['/api/Catalog/GetProducts'].get.parameters;
    const expected = jsonSchema(ProductListQuery) as { properties: Record<string, unknown> };
    expect(params.map((p: { name: string }) => p.name).sort()).toEqual(Object.keys(expected.properties).sort());
    const byName = Object.fromEntries(params.map((p: { name: string }) => [p.name, p]));
    expect(byName.catalogId).toMatchObject({ in: 'query', required: true, schema: { type: 'string', format: 'uuid' } });
    expect(byName.limit).toMatchObject({ in: 'query', schema: { maximum: 500, minimum: 1, default: 50 } });
    expect(byName.limit.required ?? false).toBe(false);
    expect(doc.paths['/api/Export/Download'].get.responses['200'].content).toEqual({ 'application/octet-stream': {} });
  });

  it('lists every route of the Account, Catalog, Export, Job and Media controllers', async () => {
    const doc = await document();
    const routes = createApp()
      .routes.filter((r) => r.method !== 'ALL' && /^\/api\/(Account|Catalog|Export|Job|Media)\//.test(r.path))
      .map((r) => `${r.method.toLowerCase()} ${r.path}`);
    // the identity provider's redirect back to the sign-in is a browser page and its back-channel
    // logout a form POST answered per OpenID Connect, its front-channel logout a page loaded in
    // the provider's iframe: not API operations (docs/sso.md)
    const browserOnly = new Set([
      'get /api/Account/SsoCallback',
      'post /api/Account/SsoBackchannelLogout',
      'get /api/Account/SsoFrontchannelLogout',
    ]);
    const unique = [...new Set(routes)].filter((route) => !browserOnly.has(route));
    expect(unique.length).toBeGreaterThan(25);
    for (const route of unique) {
      const [method, path] = route.split(' ') as [string, string];
      expect(doc.paths[path]?.[method], route).toBeDefined();
    }
  });
});

describe('OpenAPI document: agent surface', () => {
  it('documents /api/ai operations with the OAuth scheme whose endpoints are at the root ({auth_url})', async () => {
    const doc = await document();
    expect(doc.paths['/api/ai/GetStats'].get.security).toEqual([{ oauth2: ['api'] }]);
    const flow = doc.components.securitySchemes.oauth2.flows.authorizationCode;
    expect(flow).toMatchObject({
      authorizationUrl: 'http://pim.test/connect/authorize',
      tokenUrl: 'http://pim.test/connect/token',
      refreshUrl: 'http://pim.test/connect/token',
    });
    expect(Object.keys(flow.scopes).sort()).toEqual(['api', 'mcp', 'offline_access']);
  });
});

describe('API reference page', () => {
  it('renders an HTML page listing the operations, without external resources', async () => {
    const res = await call('GET', '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<code>/api/Catalog/SetValue</code>');
    expect(res.text).toContain('<code>/api/Export/StartExport</code>');
    expect(res.text).toContain('href="/api/openapi.json"');
    expect(res.text).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/);
  });
});
