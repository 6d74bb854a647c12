import type { TargetIds } from '../target-adapter';
import { type MedusaApi, MedusaRefusal, query } from './medusa-api';
import { hashOfUrl } from './medusa-assets';

/**
 * Reading Medusa's products back: by id (the mirror's ids), by `external_id` (the PIM SKU the
 * adapter writes on every product it creates) and by variant SKU (to see whether a SKU belongs
 * to a product the shop owns).
 */
export interface MedusaOption {
  id: string;
  title: string;
  values: { id: string; value: string }[];
}

export interface MedusaVariant {
  id: string;
  sku: string | null;
  metadata: Record<string, unknown> | null;
}

export interface MedusaProduct {
  id: string;
  external_id: string | null;
  handle: string;
  status: string;
  metadata: Record<string, unknown> | null;
  options: MedusaOption[];
  variants: MedusaVariant[];
  images: { id: string; url: string }[];
  /** The product's categories as Medusa answers them (`+*categories`): what a write's links are checked against. */
  categories?: { id: string }[];
  sales_channels?: { id: string }[];
}

/** Medusa's default product fields plus the categories. */
const FIELDS = { fields: '+*categories' };

export async function getProduct(api: MedusaApi, id: string): Promise<MedusaProduct | null> {
  try {
    const { product } = await api.get<{ product: MedusaProduct }>(
      `/admin/products/${encodeURIComponent(id)}${query(FIELDS)}`,
    );
    return product;
  } catch (err) {
    if (err instanceof MedusaRefusal && err.status === 404) return null;
    throw err;
  }
}

export async function productsByExternalId(api: MedusaApi, skus: string[]): Promise<Map<string, MedusaProduct>> {
  const out = new Map<string, MedusaProduct>();
  if (skus.length === 0) return out;
  const { products } = await api.get<{ products: MedusaProduct[] }>(
    `/admin/products${query({ ...FIELDS, external_id: skus, limit: skus.length })}`,
  );
  for (const p of products) if (p.external_id) out.set(p.external_id, p);
  return out;
}

/** The products with these ids (at most 100 per call), by id; an id the shop no longer has is absent. */
export async function productsById(api: MedusaApi, ids: string[]): Promise<Map<string, MedusaProduct>> {
  const out = new Map<string, MedusaProduct>();
  for (let i = 0; i < ids.length; i += 100) {
    const page = ids.slice(i, i + 100);
    const { products } = await api.get<{ products: MedusaProduct[] }>(
      `/admin/products${query({ ...FIELDS, id: page, limit: page.length })}`,
    );
    for (const p of products) out.set(p.id, p);
  }
  return out;
}

/** SKU -> the external_id of the product that holds a variant with it (null: a product the shop owns). */
export async function ownersOfSkus(api: MedusaApi, skus: string[]): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  if (skus.length === 0) return out;
  const { variants } = await api.get<{ variants: { sku: string; product?: { external_id: string | null } }[] }>(
    `/admin/product-variants${query({ sku: skus, fields: 'id,sku,product.id,product.external_id', limit: skus.length })}`,
  );
  for (const v of variants) out.set(v.sku, v.product?.external_id ?? null);
  return out;
}

export function idsOf(product: MedusaProduct, media: Record<string, string> = {}): TargetIds {
  const recovered: Record<string, string> = {};
  for (const image of product.images ?? []) {
    const hash = hashOfUrl(image.url);
    if (hash) recovered[hash] = image.url;
  }
  return {
    product: product.id,
    variants: Object.fromEntries(product.variants.filter((v) => v.sku).map((v) => [v.sku as string, v.id])),
    media: { ...recovered, ...media },
  };
}
