import type { Mappings } from '../../../../src/sync/protocol/wire';
import type { CategoryCache } from './medusa-assets';
import { forgetKeptFacts, keptFacts } from '../common/kept-facts';

/**
 * What the Medusa adapter looks up about a shop rather than about a record (the store and its
 * default sales channel, whether the Translation Module is on, its tax rates and product tags,
 * the categories by handle, the images uploaded by content hash), kept for the Worker
 * isolate's life, so that neither each POST /upsert nor each chunk asks again: before, every
 * `write` call read them anew (≈ 0.9 s of a 3 s 1 % round at 300 masters). Kept apart per
 * shop URL and credential, and reused only by a caller with the same secret (compared in
 * full, as common/session-cache.ts does), in common/kept-facts.ts as the Vendure adapter's.
 *
 * Invalidation: an id held here that the shop no longer has (a sales channel or category
 * deleted, the module switched off) makes Medusa refuse the write that names it; the adapter
 * then forgets the shop's facts (`forgetFacts`) before it writes the chunk's records one by
 * one, so they are looked up again and the refusal stays on a record only if it is the
 * record's own. The kept categories a chunk names, with their parents, are read again by id
 * once per chunk (`verifyCategories`, medusa-assets.ts): one deleted in the shop is looked up
 * again, one changed (name, handle, metadata, parent) is written back. A product tag renamed in the shop needs nothing:
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

const emptyFacts = (): ShopFacts => ({
  store: null,
  translationModule: null,
  mappings: null,
  categories: { ids: new Map(), metadata: new Map(), names: new Map(), moved: new Map(), parents: new Map() },
  uploads: new Map(),
});

/** The facts kept for this shop and credential (empty the first time, or after `forgetFacts`): common/kept-facts.ts. */
export const factsOf = (url: string, user: string, secret: string): ShopFacts =>
  keptFacts('medusa', url, user, secret, emptyFacts);

/** Drops what is kept for this shop and credential: the next `factsOf` starts empty. */
export const forgetFacts = (url: string, user: string, facts: ShopFacts): void =>
  forgetKeptFacts('medusa', url, user, facts);
