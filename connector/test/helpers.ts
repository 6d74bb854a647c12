import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../src/index';
import { signRequest } from '../../src/sync/protocol/signing';
import type { Product, UpsertRecord, Variant } from '../../src/sync/protocol/wire';

export const KEY = { keyId: 'test', secret: 'test-connector-secret-1' };
export const BASE = 'https://connector.test';

interface CallOptions {
  body?: unknown;
  /** Raw body text, sent exactly as given (overrides `body`). */
  raw?: string;
  keyId?: string;
  secret?: string;
  timestamp?: number;
  headers?: Record<string, string>;
  /** Send without any signature headers. */
  unsigned?: boolean;
  /** Sign `path`/`body` but send this path or body instead (tampering in transit). */
  sendPath?: string;
  sendRaw?: string;
  /** Worker vars for this call only (e.g. ALLOW_PRIVATE_TARGETS). */
  vars?: Record<string, string>;
}

/** Calls the connector Worker with a request signed like the PIM signs it. */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const signature = options.unsigned
    ? {}
    : await signRequest({
        keyId: options.keyId ?? KEY.keyId,
        secret: options.secret ?? KEY.secret,
        method,
        pathWithQuery: path,
        body,
        timestamp: options.timestamp,
      });
  const request = new Request(`${BASE}${options.sendPath ?? path}`, {
    method,
    body: options.sendRaw ?? body,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...signature,
      ...options.headers,
    },
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, options.vars ? { ...env, ...options.vars } : env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** The lookup tables every test shop has (idempotent). */
export async function seedMappings(): Promise<void> {
  await env.DB.batch([
    env.DB.prepare(
      "INSERT OR IGNORE INTO manufacturers (id, name) VALUES ('m-1', 'Voltana Schaltgeräte'), ('m-2', 'Kabelwerk Nord')",
    ),
    env.DB.prepare("INSERT OR IGNORE INTO units (id, code) VALUES ('u-1', 'C62'), ('u-2', 'MTR')"),
    env.DB.prepare("INSERT OR IGNORE INTO taxes (id, code, rate) VALUES ('t-19', 'DE-19', 19), ('t-7', 'DE-7', 7)"),
  ]);
}

/** A product the shop owns itself (never listed or touched by the sync). */
export async function makeShopProduct(sku: string): Promise<void> {
  await env.DB.prepare(
    "INSERT INTO products (sku, managed, active, fingerprint, name, data, created_at, updated_at) VALUES (?1, 0, 1, NULL, 'Shop own', '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
  )
    .bind(sku)
    .run();
}

let counter = 0;
/** A SKU prefix unique to one test, so tests never depend on each other's rows. */
export function uniquePrefix(): string {
  counter++;
  return `T${Date.now().toString(36)}${counter}-`;
}

export function makeProduct(overrides: Partial<Product> = {}): Product {
  return {
    name: 'Leitungsschutzschalter B16',
    description: 'Einpolig, 6 kA',
    gtin: '4012345678901',
    manufacturerId: 'm-1',
    manufacturerPid: 'LS-B16',
    unitId: 'u-1',
    taxId: 't-19',
    price: '12.50',
    priceQuantity: 1,
    keywords: null,
    deliveryTimeDays: 2,
    status: 'active',
    values: { poles: '1' },
    classification: {
      classes: [{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042' }],
      features: [{ group: 'ETIM', code: 'EF000001', value: '16', unit: 'AMP' }],
    },
    categories: [{ id: 'cat-1', path: ['Installation', 'Schutzgeräte'] }],
    media: [],
    variants: [],
    ...overrides,
  };
}

/** A variant of `makeProduct` with its own SKU and manufacturer number. */
export function variantOf(sku: string, manufacturerPid: string): Variant {
  const { categories: _categories, variants: _variants, ...fields } = makeProduct({ manufacturerPid });
  return { ...fields, sku };
}

export function create(sku: string, fingerprint = `fp-${sku}`, product: Partial<Product> = {}): UpsertRecord {
  return { op: 'create', sku, fingerprint, product: makeProduct(product) };
}

export function update(sku: string, fingerprint: string, product: Partial<Product> = {}): UpsertRecord {
  return { op: 'update', sku, fingerprint, product: makeProduct(product) };
}

export function deactivate(sku: string): UpsertRecord {
  return { op: 'deactivate', sku, fingerprint: `fp-${sku}` };
}

export async function upsert(records: unknown[], batchId = crypto.randomUUID(), dryRun?: boolean) {
  return call('POST', '/upsert', { body: { batchId, ...(dryRun === undefined ? {} : { dryRun }), records } });
}

/** The stored rows of SKUs starting with a prefix, for "nothing written" checks. */
export async function productRows(prefix: string) {
  const { results } = await env.DB.prepare(
    'SELECT sku, managed, active, fingerprint, name, updated_at FROM products WHERE sku >= ?1 AND sku < ?2 ORDER BY sku',
  )
    .bind(prefix, `${prefix}\u{10FFFF}`)
    .all<{
      sku: string;
      managed: number;
      active: number;
      fingerprint: string | null;
      name: string | null;
      updated_at: string;
    }>();
  return results;
}

/** Reads an NDJSON body into its lines. */
export async function ndjson(response: Response): Promise<{ sku: string; fingerprint: string }[]> {
  const text = new TextDecoder().decode(await response.arrayBuffer());
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as { sku: string; fingerprint: string });
}
