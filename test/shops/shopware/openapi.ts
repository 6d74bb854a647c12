import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Shopware's published Admin API document (connector/contracts/shopware/, OpenAPI 3.1, so JSON
 * Schema 2020-12) compiled with Ajv2020. Entity payloads of the Sync API are validated against
 * `#/components/schemas/<Entity>` with two rules of Shopware's DAL the document does not carry
 * (and that the README names): `required` holds on insert only, and a field that is not
 * required may be written as null (clearing it). Other request bodies are validated against
 * the operation's own `requestBody` schema, as published.
 */
const FILE = new URL('../../../connector/contracts/shopware/admin-api-6.7.10.1.openapi.json.gz', import.meta.url);

type Json = Record<string, unknown>;

export interface Contract {
  version: string;
  /** Validates one Sync API payload item of `entity` (`product`, `product_category`); insert = the id is new. */
  entity(entity: string, insert: boolean): ValidateFunction;
  /** Validates the JSON request body of an operation (`POST /oauth/token`). */
  requestBody(method: string, path: string): ValidateFunction;
  hasEntity(entity: string): boolean;
}

let cached: Contract | null = null;

export function loadContract(): Contract {
  if (cached) return cached;
  const document = JSON.parse(gunzipSync(readFileSync(fileURLToPath(FILE.href))).toString('utf8')) as Json;
  const schemas = (document.components as Json).schemas as Record<string, Json>;
  const relaxed = { components: { schemas: relax(structuredClone(schemas)) } };
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateSchema: false });
  addFormats(ajv);
  for (const f of ['int32', 'int64', 'float', 'double', 'binary', 'byte', 'password']) ajv.addFormat(f, true);
  ajv.addSchema(document, 'openapi');
  ajv.addSchema(relaxed, 'relaxed');
  const compiled = new Map<string, ValidateFunction>();
  const once = (key: string, schema: () => Json) => {
    let v = compiled.get(key);
    if (!v) {
      v = ajv.compile(schema());
      compiled.set(key, v);
    }
    return v;
  };
  cached = {
    version: String((document.info as Json).version),
    hasEntity: (entity) => pascal(entity) in schemas,
    entity(entity, insert) {
      const name = pascal(entity);
      const schema = schemas[name];
      if (!schema) throw new Error(`the Admin API document has no schema ${name}`);
      return once(`${name}:${insert}`, () => {
        const relaxedRef = { $ref: `relaxed#/components/schemas/${name}` };
        if (!insert) return relaxedRef;
        const required = (schema.required as string[] | undefined) ?? [];
        const properties = Object.fromEntries(
          required.map((p) => [p, { $ref: `openapi#/components/schemas/${name}/properties/${p}` }]),
        );
        return { allOf: [relaxedRef, { required, properties }] };
      });
    },
    requestBody(method, path) {
      const pointer = `openapi#/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method.toLowerCase()}/requestBody/content/application~1json/schema`;
      return once(pointer, () => ({ $ref: pointer }));
    },
  };
  return cached;
}

/** Ajv's errors as `{pointer, message}` below a base pointer. */
export function pointed(
  errors: ErrorObject[] | null | undefined,
  base: string,
): { pointer: string; message: string }[] {
  return (errors ?? []).map((e) => ({
    pointer: `${base}${e.instancePath}${e.keyword === 'required' ? `/${(e.params as { missingProperty: string }).missingProperty}` : ''}`,
    message: e.message ?? e.keyword,
  }));
}

function pascal(entity: string): string {
  return entity.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
}

/** Every entity schema (`Added since version ...`) without `required`, its non-required typed properties nullable. */
function relax(schemas: Record<string, Json>): Record<string, Json> {
  for (const schema of Object.values(schemas)) {
    if (!/^Added since version/.test(String(schema.description ?? ''))) continue;
    const required = new Set((schema.required as string[] | undefined) ?? []);
    delete schema.required;
    const properties = (schema.properties ?? {}) as Record<string, Json>;
    for (const [name, property] of Object.entries(properties)) {
      if (required.has(name) || typeof property.type !== 'string') continue;
      property.type = [property.type, 'null'];
    }
  }
  return schemas;
}
