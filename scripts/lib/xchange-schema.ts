import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** The official ETIM xChange V2.0 JSON Schema, kept in the repository (schemas/etim-xchange). */
const SCHEMA_V2 = join(process.cwd(), 'schemas/etim-xchange/etim-xchange-schema-v2.0-2025-11-27.json');

let validator: ReturnType<Ajv2020['compile']> | undefined;

/** Validates a document (e2e tests, bench:export --validate) against the V2.0 schema (draft 2020-12, formats checked); answers the errors, empty when valid. */
export function xchangeErrors(document: unknown): string[] {
  if (!validator) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(SCHEMA_V2, 'utf8')));
  }
  if (validator(document)) return [];
  return (validator.errors ?? []).slice(0, 20).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}
