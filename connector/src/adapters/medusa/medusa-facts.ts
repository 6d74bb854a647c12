import type { Mappings } from '../../../../src/sync/protocol/wire';
import type { CategoryCache } from './medusa-assets';

/**
 * What the Medusa adapter looks up about a shop rather than about a record (the store and its
 * default sales channel, whether the Translation Module is on, its tax rates and product tags,
 * the categories by handle, the images uploaded by content hash), kept for the Worker
 * isolate's life, so that neither each POST /upsert nor each chunk asks again: before, every
 * `write` call read them anew (≈ 0.9 s of a 3 s 1 % round at 300 masters). Kept apart per
 * shop URL and credential, and reused only by a caller with the same secret (compared in
 * full, as common/session-cache.ts does).
 *
 * Invalidation: an id held here that the shop no longer has (a sales channel or category
 * deleted, the module switched off) makes Medusa refuse the write that names it; the adapter
 * then forgets the shop's facts (`forgetFacts`) before it writes the chunk's records one by
 * one, so they are looked up again and the refusal stays on a record only if it is the
 * record's own. A category changed in the shop (its name, handle or metadata; not deleted) is
 * noticed when a product placed in it is read with its categories (an update) and written back
 * (`noticeChangedCategories`, medusa-assets.ts). A product tag renamed in the shop needs nothing:
 * records name tags by id. The tax rates and tags are read again when a record names an id they lack
 * (`TargetAdapter.mappings`); GET /mappings always reads them from the shop. A failed lookup
 * is not kept.
 */
export interface MedusaStore {
  id: string;
  name: string;
  default_sales_channel_id: string | null;
  supported_currencies: { currency_code: string; is_default: boolean }[];
  supported_locales?: { locale_code: string }[];
}

export interface ShopFacts {
  store: Promise<MedusaStore> | null;
  translationModule: Promise<boolean> | null;
  /** The tax rates and product tags (GET /mappings), for a batch's validation. */
  mappings: Promise<Mappings> | null;
  categories: CategoryCache;
  /** Content hash -> the uploaded file's URL. */
  uploads: Map<string, string>;
}

interface Held {
  secret: string;
  facts: ShopFacts;
}

const shops = new Map<string, Held>();
/** As many shops as the session cache keeps; the oldest goes first beyond it. */
const MAX_SHOPS = 100;

const keyOf = (url: string, user: string) => `${url}\u0000${user}`;

const emptyFacts = (): ShopFacts => ({
  store: null,
  translationModule: null,
  mappings: null,
  categories: { ids: new Map(), metadata: new Map(), names: new Map(), moved: new Map() },
  uploads: new Map(),
});

/** The facts kept for this shop and credential (empty the first time, or after `forgetFacts`). */
export function factsOf(url: string, user: string, secret: string): ShopFacts {
  const key = keyOf(url, user);
  const held = shops.get(key);
  if (held && held.secret === secret) return held.facts;
  const facts = emptyFacts();
  shops.delete(key);
  shops.set(key, { secret, facts });
  if (shops.size > MAX_SHOPS) {
    const oldest = shops.keys().next().value;
    if (oldest !== undefined) shops.delete(oldest);
  }
  return facts;
}

/** Drops what is kept for this shop and credential: the next `factsOf` starts empty. */
export function forgetFacts(url: string, user: string, facts: ShopFacts): void {
  const key = keyOf(url, user);
  if (shops.get(key)?.facts === facts) shops.delete(key);
}
