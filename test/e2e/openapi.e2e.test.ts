import { Validator } from '@seriousme/openapi-schema-validator';
import { expect, inject, it } from 'vitest';

/**
 * The served document against the official OpenAPI 3.1 JSON Schema (in Node: the validator
 * compiles schemas at run time, which workerd does not allow). The structural checks
 * (operationIds, $refs, declared statuses) are in test/openapi-document.test.ts.
 */
it('serves /api/openapi.json as a valid OpenAPI 3.1 document', async () => {
  const res = await fetch(`${inject('baseUrl')}/api/openapi.json`);
  expect(res.status).toBe(200);
  const doc = (await res.json()) as Record<string, unknown>;
  const validator = new Validator();
  const result = await validator.validate(doc);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe('3.1');
});
