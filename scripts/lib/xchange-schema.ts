import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * The schema the exports are checked against: the project's own structural schema of xChange
 * V2.0 (schemas/etim-xchange/README.md), or the official V2.0 schema when ETIM_XCHANGE_SCHEMA
 * names a local copy of it (ETIM International publishes it; it is not kept in this repository).
 */
const SCHEMA_V2 =
  process.env.ETIM_XCHANGE_SCHEMA ?? join(process.cwd(), 'schemas/etim-xchange/xchange-v2-structure.schema.json');

let validator: ReturnType<Ajv2020['compile']> | undefined;

/** Validates a document (e2e tests, bench:export --validate) against the V2.0 schema (draft 2020-12, formats checked; see SCHEMA_V2); answers the errors, empty when valid. */
export function xchangeErrors(document: unknown): string[] {
  if (!validator) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(SCHEMA_V2, 'utf8')));
  }
  if (validator(document)) return [];
  return (validator.errors ?? []).slice(0, 20).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}
