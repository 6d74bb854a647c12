import type { Product, UpsertChange, UpsertRecord } from '../../../src/sync/protocol/wire';

type Node = Record<string, unknown>;

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

/** Canonical JSON (object keys sorted), so a field is not "changed" because the PIM reordered keys. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Node).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Fields that differ between two nodes; an absent and an empty value are the same. */
function nodeChanges(before: Node | null, after: Node, prefix: string, skip: Set<string>): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after)]);
  const fields: string[] = [];
  for (const key of [...keys].sort()) {
    if (skip.has(key)) continue;
    const a = before?.[key];
    const b = after[key];
    if (isEmpty(a) && isEmpty(b)) continue;
    if (canonical(a) !== canonical(b)) fields.push(`${prefix}${key}`);
  }
  return fields;
}

/**
 * What a record changes against the product last written to the target: the master's
 * top-level fields, `variants.<sku>` for a variant added or removed, and
 * `variants.<sku>.<field>` for a variant's changed fields. Against no previous product every
 * field with a value counts.
 */
export function changedFields(previous: Product | null, next: Product): string[] {
  const fields = nodeChanges(previous as Node | null, next as Node, '', new Set(['variants']));
  const before = new Map((previous?.variants ?? []).map((v) => [v.sku, v]));
  const after = new Map(next.variants.map((v) => [v.sku, v]));
  for (const sku of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const a = before.get(sku);
    const b = after.get(sku);
    if (!a || !b) fields.push(`variants.${sku}`);
    else fields.push(...nodeChanges(a as Node, b as Node, `variants.${sku}.`, new Set(['sku'])));
  }
  return fields;
}

/** The dry run's line for one record that would be sent, with how its references by manufacturer number resolve. */
export function changeOf(
  record: UpsertRecord,
  previous: Product | null,
  references?: NonNullable<UpsertChange['references']>,
): UpsertChange {
  return {
    sku: record.sku,
    op: record.op,
    fields: record.op === 'deactivate' || !record.product ? [] : changedFields(previous, record.product),
    ...(references ? { references } : {}),
  };
}
