import type { Mappings } from '../../../../src/sync/protocol/wire';
import { CategoryImageRefused } from '../common/category-image';
import {
  type AdapterDeps,
  type RecordOutcome,
  type TargetAdapter,
  type TargetConfig,
  TargetError,
  type TargetIds,
  type TargetProbe,
  type TargetRecord,
  type WriteContext,
} from '../target-adapter';
import { OutcomeUnknown } from '../target-http';
import { codeUnits } from '../unit-codes';
import { createMedusaApi, type MedusaApi, MedusaRefusal, query } from './medusa-api';
import { verifyCategories } from './medusa-assets';
import { idsOf, type MedusaProduct, productsByExternalId } from './medusa-products';
import { retireUploads } from './medusa-retire';
import { factsOf, forgetFacts, type MedusaStore, type ShopFacts } from './medusa-facts';
import {
  checkOwners,
  createProducts,
  findCurrent,
  findCurrents,
  OwnedByShop,
  type PreparedCreate,
  type PreparedUpdate,
  prepareCreate,
  prepareUpdate,
  updateProducts,
  variantSkusOf,
  type WriteState,
  writeProduct,
} from './medusa-write';

/**
 * The Medusa v2 adapter (docs/shops.md): products carry the PIM SKU as `external_id`,
 * variants their SKUs, prices per currency with `min_quantity` tiers, features and the
 * PIM's lookup ids in metadata (Medusa has no attributes, manufacturers or units in core:
 * GET /mappings offers the shop's product tags as manufacturers, by their value, and common
 * UN/ECE unit codes, so the PIM does not quarantine every product with a manufacturer or unit),
 * translations through the Translation Module where it is on (else in metadata), categories
 * by path and images uploaded once per content hash.
 */
/** Which record field Medusa's message is about, as far as its words say. */
function fieldOf(message: string): string {
  if (/\bsku\b|variant/i.test(message)) return 'product.variants';
  if (/price|amount|currency/i.test(message)) return 'product.prices';
  if (/handle/i.test(message)) return 'sku';
  if (/title/i.test(message)) return 'product.name';
  if (/categor/i.test(message)) return 'product.categories';
  if (/image|upload|file/i.test(message)) return 'product.media';
  return 'record';
}

export function createMedusaAdapter(config: TargetConfig, deps: AdapterDeps): TargetAdapter {
  const api: MedusaApi = createMedusaApi(config.url, config.credentials, deps.http);
  const { apiKey, email, password } = config.credentials as { apiKey?: string; email?: string; password?: string };
  const base = config.url.replace(/\/+$/, '');
  const user = apiKey ? '\u0000api-key' : (email ?? '');
  const secret = apiKey ?? password ?? '';
  // The shop's facts, kept across requests of this isolate (medusa-facts.ts).
  let facts: ShopFacts = factsOf(base, user, secret);
  /** Forgets the kept facts (an id in them the shop refused): the next lookups go to the shop. */
  const forget = () => {
    forgetFacts(base, user, facts);
    facts = factsOf(base, user, secret);
  };

  const storeOf = () => {
    const held = facts;
    held.store ??= api.get<{ stores: MedusaStore[] }>('/admin/stores').then(({ stores }) => {
      const first = stores[0];
      if (!first) throw new TargetError('Medusa answered without a store', false);
      return first;
    });
    held.store.catch(() => {
      if (facts === held) held.store = null;
    });
    return held.store;
  };
  const hasTranslations = () => {
    const held = facts;
    held.translationModule ??= api
      .get<{ feature_flags: Record<string, boolean> }>('/admin/feature-flags')
      .then(({ feature_flags }) => feature_flags.translation === true)
      .catch((err) => {
        if (err instanceof MedusaRefusal) return false;
        held.translationModule = null;
        throw err;
      });
    return held.translationModule;
  };

  async function readMappings(): Promise<Mappings> {
    const { tax_rates } = await api.get<{ tax_rates: { id: string; code: string; rate: number | null }[] }>(
      `/admin/tax-rates${query({ fields: 'id,code,rate', limit: 500 })}`,
    );
    const { product_tags } = await api.get<{ product_tags: { id: string; value: string }[] }>(
      `/admin/product-tags${query({ fields: 'id,value', limit: 1000 })}`,
    );
    return {
      manufacturers: product_tags.map((t) => ({ id: t.id, name: t.value })),
      units: codeUnits(),
      taxes: tax_rates.map((t) => ({ id: t.id, code: t.code, rate: t.rate ?? 0 })),
    };
  }

  async function stateOf(ctx: WriteContext): Promise<WriteState> {
    const s = await storeOf();
    return {
      mapping: ctx.mapping,
      ctx,
      categories: facts.categories,
      uploads: facts.uploads,
      salesChannelId: s.default_sales_channel_id,
      translationModule: await hasTranslations(),
    };
  }

  /**
   * A refusal of the shop's or of the record's content as the record's failure, and a create
   * whose answer was lost as a retryable one (the connector looks the SKU up before its next
   * try); anything else is thrown.
   */
  async function asOutcome(index: number, write: () => Promise<RecordOutcome | null>): Promise<RecordOutcome | null> {
    try {
      return await write();
    } catch (err) {
      if (err instanceof OwnedByShop) return { index, ok: false, field: 'sku', error: err.message, retryable: false };
      if (err instanceof CategoryImageRefused)
        return { index, ok: false, field: err.field, error: err.message, retryable: false };
      if (err instanceof MedusaRefusal) {
        return { index, ok: false, field: fieldOf(err.message), error: err.message, retryable: err.status >= 500 };
      }
      if (err instanceof OutcomeUnknown)
        return { index, ok: false, field: 'record', error: err.message, retryable: true };
      if (err instanceof TargetError && err.retryable && err.status !== null) {
        return { index, ok: false, field: 'record', error: err.message, retryable: true };
      }
      throw err;
    }
  }

  /**
   * One record: a deactivation is written at once; a create or an update is made ready (its
   * categories and images resolved, an update's options added) and left in `creates` /
   * `updates`, to be sent with the chunk's others.
   */
  function step(
    rec: TargetRecord,
    state: WriteState,
    currentOf: (rec: TargetRecord) => Promise<MedusaProduct | null>,
    creates: PreparedCreate[],
    updates: PreparedUpdate[],
  ): Promise<RecordOutcome | null> {
    const { index, record } = rec;
    return asOutcome(index, async () => {
      const current = await currentOf(rec);
      if (record.op === 'deactivate') {
        if (!current) return { index, ok: true, ids: null, action: 'deactivated' };
        if (state.mapping.onDeactivate === 'delete') {
          await api.post('/admin/products/batch', { delete: [current.id] });
          return { index, ok: true, ids: null, action: 'deactivated' };
        }
        await api.post('/admin/products/batch', { update: [{ id: current.id, status: 'draft' }] });
        return { index, ok: true, ids: idsOf(current, rec.known?.media), action: 'deactivated' };
      }
      if (current) updates.push(await prepareUpdate(api, rec, record.product, current, state));
      else creates.push(await prepareCreate(api, rec, record.product, state));
      return null;
    });
  }

  /**
   * The records of a refused shared batch, each read again and written on its own, so the
   * refusal lands on its record. The kept facts are dropped first: the refusal may be an id
   * the shop no longer has (a category or sales channel deleted), which a fresh lookup mends.
   * After a create batch whose answer was lost (`lost`), a record not found is a retryable
   * failure instead of a second create: Medusa may still be making it, and the connector looks
   * it up again after a wait.
   */
  async function oneByOne(
    recs: TargetRecord[],
    ctx: WriteContext,
    lost: OutcomeUnknown | null = null,
  ): Promise<RecordOutcome[]> {
    forget();
    const state = await stateOf(ctx);
    const outcomes: RecordOutcome[] = [];
    for (const rec of recs) {
      const { record } = rec;
      if (record.op === 'deactivate') continue; // never among the creates and updates
      const outcome = await asOutcome(rec.index, async () => {
        const current = await findCurrent(api, rec);
        if (!current && lost) throw lost;
        const { ids, created } = await writeProduct(api, rec, record.product, current, state);
        return { index: rec.index, ok: true, ids, action: created ? 'created' : 'updated' };
      });
      if (outcome) outcomes.push(outcome);
    }
    return outcomes;
  }

  /**
   * The chunk's creates in one batch; refused (one record's content), each goes alone. So does
   * a batch whose answer was lost: each record is read again by `external_id` first, so what
   * Medusa made is updated, not created twice.
   */
  async function sendCreates(creates: PreparedCreate[], state: WriteState): Promise<RecordOutcome[]> {
    if (creates.length === 0) return [];
    let lost: OutcomeUnknown | null = null;
    try {
      const ids = await createProducts(api, creates, state);
      return creates.map((c, i) => ({ index: c.rec.index, ok: true, ids: ids[i] ?? null, action: 'created' }));
    } catch (err) {
      if (!(err instanceof MedusaRefusal || err instanceof OutcomeUnknown)) throw err;
      if (err instanceof OutcomeUnknown) lost = err;
    }
    // A product the refused batch did make (a link found stale after it) is still this call's create.
    const outcomes = await oneByOne(
      creates.map((c) => c.rec),
      state.ctx,
      lost,
    );
    return outcomes.map((o) => (o.ok ? { ...o, action: 'created' } : o));
  }

  /** The chunk's updates in one batch; refused (one record's content), each goes alone. */
  async function sendUpdates(updates: PreparedUpdate[], state: WriteState): Promise<RecordOutcome[]> {
    if (updates.length === 0) return [];
    try {
      const ids = await updateProducts(api, updates, state);
      return updates.map((u, i) => ({ index: u.rec.index, ok: true, ids: ids[i] ?? null, action: 'updated' }));
    } catch (err) {
      if (!(err instanceof MedusaRefusal)) throw err;
    }
    return oneByOne(
      updates.map((u) => u.rec),
      state.ctx,
    );
  }

  return {
    kind: 'medusa',
    batchSize: 25,

    async probe(): Promise<TargetProbe> {
      const s = await storeOf();
      const { regions } = await api.get<{ regions: { name: string; currency_code: string }[] }>(
        `/admin/regions${query({ fields: 'name,currency_code', limit: 100 })}`,
      );
      const translations = await hasTranslations();
      return {
        name: s.name,
        languages: (s.supported_locales ?? []).map((l) => l.locale_code),
        currencies: s.supported_currencies.map((c) => c.currency_code.toUpperCase()),
        details: {
          regions: regions.map((r) => `${r.name} (${r.currency_code.toUpperCase()})`).join(', '),
          translations: translations ? 'Translation Module' : 'metadata (pim_translations)',
          salesChannel: s.default_sales_channel_id ?? '',
        },
      };
    },

    /**
     * The shop's tax rates and product tags. `cached`: as read earlier in this isolate (for a
     * batch's validation; the connector asks without it when a record names an id they lack).
     */
    mappings(options?: { cached?: boolean }): Promise<Mappings> {
      const held = facts;
      if (options?.cached && held.mappings) return held.mappings;
      const read = readMappings();
      held.mappings = read;
      read.catch(() => {
        if (held.mappings === read) held.mappings = null;
      });
      return read;
    },

    async findBySku(skus: string[]): Promise<Map<string, TargetIds>> {
      const found = await productsByExternalId(api, skus);
      return new Map([...found].map(([sku, product]) => [sku, idsOf(product)]));
    },

    async write(records: TargetRecord[], ctx: WriteContext): Promise<RecordOutcome[]> {
      const state = await stateOf(ctx);
      // The kept categories the chunk names, and their parents, read again once (changed or deleted in the shop?).
      await verifyCategories(
        api,
        records.flatMap(({ record }) => (record.op === 'deactivate' ? [] : record.product.categories)),
        state.categories,
      );
      const { currentOf, held } = await findCurrents(api, records);
      // Who holds the variant SKUs of the chunk's creates, asked once for all of them.
      const creating = records.filter((r) => r.record.op !== 'deactivate' && !held(r.record.sku));
      await checkOwners(
        api,
        creating.flatMap(({ record }) => (record.op === 'deactivate' ? [] : variantSkusOf(record.sku, record.product))),
        state,
      );
      const outcomes: RecordOutcome[] = [];
      let creates: PreparedCreate[] = [];
      const updates: PreparedUpdate[] = [];
      for (const rec of records) {
        // A SKU twice in a chunk: the first one's create is sent before the second is looked at.
        if (creates.some((c) => c.rec.record.sku === rec.record.sku)) {
          outcomes.push(...(await sendCreates(creates, state)));
          creates = [];
        }
        const outcome = await step(rec, state, currentOf, creates, updates);
        if (outcome) outcomes.push(outcome);
      }
      outcomes.push(...(await sendCreates(creates, state)));
      outcomes.push(...(await sendUpdates(updates, state)));
      return retireUploads(api, records, outcomes, ctx, state.uploads);
    },
  };
}
