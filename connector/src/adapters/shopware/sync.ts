import { TargetError } from '../target-adapter';
import { type ShopwareClient, type ShopwareError, shopwareErrors } from './client';
import type { OpName, SyncItem } from './plan';

/**
 * One `POST /api/_action/sync` for many records, with per-record failures. Shopware (6.5 and
 * later) writes a sync request in one transaction: an invalid item refuses the whole request
 * with 400 and errors whose `source.pointer` is `/{operation}/{item}/{field}`. The items are
 * tagged with the records they belong to, so the records an error points at are reported as
 * failed with Shopware's own reason and the rest is sent again without them; an error that
 * points nowhere splits the request into one request per record.
 */
export interface OwnedItem extends SyncItem {
  action: 'upsert' | 'delete';
  /** The record (batch index) the item belongs to. */
  owner: number;
}

export interface SyncFailure {
  field: string;
  error: string;
  retryable: boolean;
}

const DELETE_ORDER: OpName[] = [
  'product_cross_selling_assigned_products',
  'product_cross_selling',
  'product_option',
  'product_property',
  'product_category',
  'product_configurator_setting',
  'product_price',
  'product_media',
  'product_translation',
  'product',
  // Last: the product media and products let go of it first (retire.ts).
  'media',
];
const UPSERT_ORDER: OpName[] = [
  'media',
  'property_group',
  'property_group_option',
  'category',
  'product',
  'product_price',
  'product_media',
  'product_configurator_setting',
  'product_category',
  'product_property',
  'product_option',
  'product_cross_selling',
  'product_cross_selling_assigned_products',
  'product-cover',
];

interface Operation {
  action: 'upsert' | 'delete';
  entity: string;
  payload: Record<string, unknown>[];
  /** Per payload item: the items (of one or more records) it stands for. */
  sources: OwnedItem[][];
}

export async function runSync(client: ShopwareClient, items: OwnedItem[]): Promise<Map<number, SyncFailure>> {
  const failed = new Map<number, SyncFailure>();
  let pending = items;
  while (pending.length > 0) {
    const operations = toOperations(pending);
    let answer: { status: number; body: unknown };
    try {
      answer = await client.request(
        'POST',
        '/_action/sync',
        operations.map(({ action, entity, payload }) => ({ action, entity, payload })),
      );
    } catch (err) {
      if (!(err instanceof TargetError) || !err.retryable) throw err;
      for (const owner of owners(pending)) failed.set(owner, { field: 'record', error: err.message, retryable: true });
      return failed;
    }
    if (answer.status >= 200 && answer.status < 300) return failed;
    const errors = shopwareErrors(answer.body);
    const pointed = attribute(errors, operations);
    const all = owners(pending);
    if (answer.status === 400 && pointed.size > 0) {
      for (const [owner, failure] of pointed) failed.set(owner, failure);
      pending = pending.filter((item) => !pointed.has(item.owner));
      continue;
    }
    if (all.size > 1) {
      for (const owner of all) {
        const own = await runSync(
          client,
          pending.filter((item) => item.owner === owner),
        );
        for (const [o, failure] of own) failed.set(o, failure);
      }
      return failed;
    }
    const reason = errors.map((e) => e.detail ?? e.title).find(Boolean) ?? `the shop answered HTTP ${answer.status}`;
    for (const owner of all)
      failed.set(owner, { field: 'record', error: plain(reason), retryable: answer.status >= 500 });
    return failed;
  }
  return failed;
}

function toOperations(items: OwnedItem[]): Operation[] {
  const groups = new Map<string, Map<string, OwnedItem[]>>();
  for (const item of items) {
    const group = `${item.action}:${item.op}`;
    if (!groups.has(group)) groups.set(group, new Map());
    const byKey = groups.get(group) as Map<string, OwnedItem[]>;
    const key = itemKey(item.payload);
    byKey.set(key, [...(byKey.get(key) ?? []), item]);
  }
  const out: Operation[] = [];
  const add = (action: 'upsert' | 'delete', op: OpName) => {
    const byKey = groups.get(`${action}:${op}`);
    if (!byKey) return;
    const sources = [...byKey.values()];
    const payload = sources.map((same) => (same[same.length - 1] as OwnedItem).payload);
    out.push({ action, entity: op === 'product-cover' ? 'product' : op, payload, sources });
  };
  for (const op of DELETE_ORDER) add('delete', op);
  for (const op of UPSERT_ORDER) add('upsert', op);
  return out;
}

function itemKey(payload: Record<string, unknown>): string {
  if (typeof payload.id === 'string') return payload.id;
  return [payload.productId, payload.categoryId, payload.optionId, payload.languageId].filter(Boolean).join(':');
}

function attribute(errors: ShopwareError[], operations: Operation[]): Map<number, SyncFailure> {
  const out = new Map<number, SyncFailure>();
  for (const error of errors) {
    const parts = (error.source?.pointer ?? '').split('/').filter(Boolean);
    const operation = operations[Number(parts[0])];
    const sources = operation?.sources[Number(parts[1])];
    if (!sources || parts.length < 2) continue;
    const leaf = [...parts.slice(2)].reverse().find((p) => !/^(\d+|[0-9a-f]{32})$/.test(p));
    for (const item of sources) {
      if (out.has(item.owner)) continue;
      const field =
        leaf && (item.op === 'product' || item.op === 'product-cover') ? `${item.field}.${leaf}` : item.field;
      out.set(item.owner, {
        field,
        error: plain(error.detail ?? error.title ?? 'the shop refused the value'),
        retryable: false,
      });
    }
  }
  return out;
}

function owners(items: OwnedItem[]): Set<number> {
  return new Set(items.map((i) => i.owner));
}

/** The target's own words, without markup or anything past a sentence or two. */
function plain(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}
