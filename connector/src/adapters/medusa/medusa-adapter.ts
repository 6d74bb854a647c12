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
import { codeUnits } from '../unit-codes';
import { createMedusaApi, type MedusaApi, MedusaRefusal, query } from './medusa-api';
import { idsOf, type MedusaProduct, productsByExternalId } from './medusa-products';
import {
  findCurrent,
  findCurrents,
  OwnedByShop,
  type PreparedUpdate,
  prepareUpdate,
  updateProducts,
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
interface Store {
  id: string;
  name: string;
  default_sales_channel_id: string | null;
  supported_currencies: { currency_code: string; is_default: boolean }[];
  supported_locales?: { locale_code: string }[];
}

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
  let store: Promise<Store> | null = null;
  let translationModule: Promise<boolean> | null = null;

  const storeOf = () => {
    store ??= api.get<{ stores: Store[] }>('/admin/stores').then(({ stores }) => {
      const first = stores[0];
      if (!first) throw new TargetError('Medusa answered without a store', false);
      return first;
    });
    return store;
  };
  const hasTranslations = () => {
    translationModule ??= api
      .get<{ feature_flags: Record<string, boolean> }>('/admin/feature-flags')
      .then(({ feature_flags }) => feature_flags.translation === true)
      .catch((err) => {
        if (err instanceof MedusaRefusal) return false;
        throw err;
      });
    return translationModule;
  };

  /** A refusal of the shop's or of the record's content as the record's failure; anything else is thrown. */
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
      if (err instanceof TargetError && err.retryable && err.status !== null) {
        return { index, ok: false, field: 'record', error: err.message, retryable: true };
      }
      throw err;
    }
  }

  /**
   * One record: a deactivation or a create is written at once; an update is made ready (its
   * options added) and left in `updates`, to be sent with the chunk's other updates.
   */
  function step(
    rec: TargetRecord,
    state: WriteState,
    currentOf: (rec: TargetRecord) => Promise<MedusaProduct | null>,
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
      if (current) {
        updates.push(await prepareUpdate(api, rec, record.product, current, state));
        return null;
      }
      const { ids } = await writeProduct(api, rec, record.product, null, state);
      return { index, ok: true, ids, action: 'created' };
    });
  }

  /**
   * The chunk's updates in one batch. Refused (one record's content), nothing of the batch is
   * kept: each is read again and written on its own, so the refusal lands on its record.
   */
  async function sendUpdates(updates: PreparedUpdate[], state: WriteState): Promise<RecordOutcome[]> {
    if (updates.length === 0) return [];
    try {
      const ids = await updateProducts(api, updates, state);
      return updates.map((u, i) => ({ index: u.rec.index, ok: true, ids: ids[i] ?? null, action: 'updated' }));
    } catch (err) {
      if (!(err instanceof MedusaRefusal)) throw err;
    }
    const outcomes: RecordOutcome[] = [];
    for (const { rec } of updates) {
      const { record } = rec;
      if (record.op === 'deactivate') continue; // never among the updates
      const outcome = await asOutcome(rec.index, async () => {
        const { ids, created } = await writeProduct(api, rec, record.product, await findCurrent(api, rec), state);
        return { index: rec.index, ok: true, ids, action: created ? 'created' : 'updated' };
      });
      if (outcome) outcomes.push(outcome);
    }
    return outcomes;
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

    async mappings(): Promise<Mappings> {
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
    },

    async findBySku(skus: string[]): Promise<Map<string, TargetIds>> {
      const found = await productsByExternalId(api, skus);
      return new Map([...found].map(([sku, product]) => [sku, idsOf(product)]));
    },

    async write(records: TargetRecord[], ctx: WriteContext): Promise<RecordOutcome[]> {
      const s = await storeOf();
      const state: WriteState = {
        mapping: ctx.mapping,
        ctx,
        categories: { ids: new Map(), metadata: new Map() },
        uploads: new Map(),
        salesChannelId: s.default_sales_channel_id,
        translationModule: await hasTranslations(),
      };
      const currentOf = await findCurrents(api, records);
      const outcomes: RecordOutcome[] = [];
      const updates: PreparedUpdate[] = [];
      for (const rec of records) {
        const outcome = await step(rec, state, currentOf, updates);
        if (outcome) outcomes.push(outcome);
      }
      outcomes.push(...(await sendUpdates(updates, state)));
      return outcomes;
    },
  };
}
