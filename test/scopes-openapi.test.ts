import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { openApiDocument } from '../src/openapi/openapi-document';

/** The OpenAPI document describes the scope refusals (docs/teams.md) on the operations that check them. */
const doc: any = await openApiDocument(createApp(), 'https://pim.test/api');
const response = (method: string, path: string, status: string): string =>
  doc.paths[path][method].responses[status]?.description ?? '';

describe('scope refusals in the OpenAPI document', () => {
  it('names the 403 of a write naming products, categories or catalogs, and of a publication', () => {
    for (const path of ['/api/Catalog/SetValue', '/api/Catalog/UpdateProduct', '/api/Catalog/AddProduct'])
      expect({ path, text: response('post', path, '403') }).toEqual({
        path,
        text: expect.stringContaining('catalog or category scope does not include'),
      });
    expect(response('post', '/api/Export/StartExport', '403')).toContain('channel scope does not cover');
    expect(response('post', '/api/ai/SetValue', '403')).toContain('catalog or category scope');
  });

  it('says that a product outside the scope reads as unknown (404), and nothing of scope where none is checked', () => {
    expect(response('get', '/api/Catalog/GetProduct', '404')).toContain('outside the caller');
    expect(response('get', '/api/Catalog/GetCatalogs', '404')).not.toContain('scope');
    expect(response('post', '/api/Account/SetMemberRole', '403')).not.toContain('category scope does not include');
    expect(response('get', '/api/Catalog/GetProducts', '403')).not.toContain('scope');
  });
});
