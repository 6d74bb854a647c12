/**
 * Deterministic Shopware ids (docs/shops.md, "id kept": product id = UUID from SKU). Every
 * entity the adapter writes gets a UUIDv5 (RFC 9562: SHA-1 of a namespace and a name) over the
 * entity kind and its natural key, written as the 32 lowercase hex digits Shopware's DAL
 * expects. The same SKU, feature value, category path or image hash always gives the same id,
 * so a Sync API upsert is an update the second time and never a second entity.
 *
 * The namespace is the PIM's own: a product whose id is not the one derived from its SKU was
 * not created by the PIM (the shop owns it) and is never overwritten.
 */
const NAMESPACE = hexBytes('6f1d2c0e8b7a4e5f9c3d2b1a0e9f8d7c');

export type IdKind =
  | 'product'
  | 'product_price'
  | 'product_media'
  | 'product_configurator_setting'
  | 'property_group'
  | 'property_group_option'
  | 'category'
  | 'media'
  | 'rule'
  | 'rule_condition'
  | 'product_cross_selling'
  | 'product_cross_selling_assigned_products';

/** The id of one entity: a UUIDv5 of `kind` and the key parts (joined unambiguously). */
export async function shopwareId(kind: IdKind, ...key: string[]): Promise<string> {
  const name = new TextEncoder().encode(JSON.stringify([kind, ...key]));
  const input = new Uint8Array(NAMESPACE.length + name.length);
  input.set(NAMESPACE, 0);
  input.set(name, NAMESPACE.length);
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-1', input)).slice(0, 16);
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  return [...hash].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Ids for many keys of one kind at once (keys that repeat are hashed once). */
export async function idMap(kind: IdKind, keys: Iterable<string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const key of keys) if (!out.has(key)) out.set(key, await shopwareId(kind, key));
  return out;
}

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}
