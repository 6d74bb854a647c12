import {
  upsertRecordSchema,
  type Product,
  type UpsertFailure,
  type UpsertRecord,
} from '../../../src/sync/protocol/wire';
import type { MappingIds, ProductState, ShopStore } from '../store/shop-store';

/** Largest product (with its variants) the reference store keeps in one row (D1: 2 MB per value). */
const MAX_PRODUCT_JSON_CHARS = 1_800_000;

type Failure = Omit<UpsertFailure, 'index' | 'sku'>;

/** What validation reads: the lookup ids and the state of each SKU (the reference store, or a target's mappings and mirror). */
export type BatchChecks = Pick<ShopStore, 'mappingIds' | 'productStates'>;

function mappingFailure(
  product: Product | Product['variants'][number],
  ids: MappingIds,
  prefix: string,
): Failure | null {
  const checks = [
    ['manufacturerId', product.manufacturerId, ids.manufacturers, 'manufacturer'],
    ['unitId', product.unitId, ids.units, 'unit'],
    ['taxId', product.taxId, ids.taxes, 'tax'],
  ] as const;
  for (const [field, value, known, what] of checks) {
    if (value !== null && !known.has(value))
      return { field: `${prefix}${field}`, error: `unknown ${what} id "${value}"` };
  }
  return null;
}

/** The checks that need the store: ownership, existence and the state a SKU is in. */
function stateFailure(record: UpsertRecord, state: ProductState | undefined): Failure | null {
  if (state && !state.managed) return { field: 'sku', error: 'the SKU belongs to a product the shop owns' };
  if (record.op === 'create') return null;
  if (!state) return { field: 'sku', error: `cannot ${record.op} an unknown SKU` };
  if (record.op === 'update' && !state.active)
    return { field: 'op', error: 'the product is deactivated: send create to reactivate it' };
  return null;
}

function productFailure(record: UpsertRecord, ids: MappingIds): Failure | null {
  if (record.op === 'deactivate' || !record.product) return null;
  const product = record.product;
  if (JSON.stringify(product).length > MAX_PRODUCT_JSON_CHARS)
    return { field: 'product', error: 'the product is too large for the store' };
  const own = mappingFailure(product, ids, 'product.');
  if (own) return own;
  const variantSkus = new Set<string>();
  for (const [i, variant] of product.variants.entries()) {
    if (variant.sku === record.sku || variantSkus.has(variant.sku)) {
      return { field: `product.variants.${i}.sku`, error: `duplicate SKU "${variant.sku}" within the product` };
    }
    variantSkus.add(variant.sku);
    const failure = mappingFailure(variant, ids, `product.variants.${i}.`);
    if (failure) return failure;
  }
  return null;
}

/** One sentence for a schema issue: "x is required" for a missing field, else zod's message. */
function issueMessage(issue: { code: string; message: string; path: PropertyKey[] }, raw: unknown): string {
  if (issue.code !== 'invalid_type') return issue.message;
  let value = raw;
  for (const key of issue.path)
    value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
  return value === undefined ? `${issue.path.join('.') || 'record'} is required` : issue.message;
}

function skuOf(raw: unknown): string | null {
  return raw && typeof raw === 'object' && typeof (raw as { sku?: unknown }).sku === 'string'
    ? (raw as { sku: string }).sku
    : null;
}

/**
 * Validates every record of a batch against the wire schema, the shop's lookup tables and
 * what the store holds. Returns the parsed records, or one failure per bad record (the batch
 * is then refused as a whole).
 */
export async function validateBatch(
  store: BatchChecks,
  rawRecords: unknown[],
): Promise<{ records: UpsertRecord[]; failures: UpsertFailure[] }> {
  const failures: UpsertFailure[] = [];
  const parsed: { index: number; record: UpsertRecord }[] = [];
  const seen = new Set<string>();
  rawRecords.forEach((raw, index) => {
    const result = upsertRecordSchema.safeParse(raw);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      failures.push({
        index,
        sku: skuOf(raw),
        field: issue.path.join('.') || 'record',
        error: issueMessage(issue, raw),
      });
    } else if (seen.has(result.data.sku)) {
      failures.push({ index, sku: result.data.sku, field: 'sku', error: 'duplicate SKU in the batch' });
    } else {
      seen.add(result.data.sku);
      parsed.push({ index, record: result.data });
    }
  });
  const needsMappings = parsed.some(({ record }) => record.op !== 'deactivate');
  const [ids, states] = await Promise.all([
    needsMappings
      ? store.mappingIds()
      : Promise.resolve({ manufacturers: new Set<string>(), units: new Set<string>(), taxes: new Set<string>() }),
    store.productStates(parsed.map(({ record }) => record.sku)),
  ]);
  for (const { index, record } of parsed) {
    const failure = stateFailure(record, states.get(record.sku)) ?? productFailure(record, ids);
    if (failure) failures.push({ index, sku: record.sku, ...failure });
  }
  failures.sort((a, b) => a.index - b.index);
  return { records: parsed.map(({ record }) => record), failures };
}
