import type { Mappings, Product } from '../../../src/sync/protocol/wire';
import { productStatements } from '../store/d1-batch';
import { D1ShopStore } from '../store/d1-store';
import {
  type RecordOutcome,
  TargetError,
  type TargetIds,
  type TargetAdapter,
  type TargetProbe,
  type TargetRecord,
} from './target-adapter';

function idsOf(sku: string, product: Pick<Product, 'variants'> | null): TargetIds {
  return { product: sku, variants: Object.fromEntries((product?.variants ?? []).map((v) => [v.sku, v.sku])) };
}

/**
 * The connector's own reference store (the D1 tables of migration 0000) as a TargetAdapter, so
 * "test connection", GET /mappings and the remote pipeline treat it like any shop. Its ids are
 * the SKUs themselves. A key without a target still writes through `D1ShopStore.applyBatch`
 * (all-or-nothing, the store is its own mirror); this adapter writes a chunk in one D1
 * transaction and refuses, per record, a SKU the shop owns.
 */
export class ReferenceAdapter implements TargetAdapter {
  readonly kind = 'reference' as const;
  readonly batchSize = 100;
  private readonly store: D1ShopStore;

  constructor(private readonly db: D1Database) {
    this.store = new D1ShopStore(db);
  }

  async probe(): Promise<TargetProbe> {
    const status = await this.store.status();
    return {
      name: 'Reference store (connector D1)',
      languages: [],
      currencies: [],
      details: { managedProducts: String(status.products.managed) },
    };
  }

  mappings(): Promise<Mappings> {
    return this.store.mappings();
  }

  async findBySku(skus: string[]): Promise<Map<string, TargetIds>> {
    const states = await this.store.productStates(skus);
    const found = new Map<string, TargetIds>();
    for (const [sku, state] of states) if (state.managed) found.set(sku, idsOf(sku, null));
    return found;
  }

  async write(records: TargetRecord[]): Promise<RecordOutcome[]> {
    const states = await this.store.productStates(records.map((r) => r.record.sku));
    const outcomes: RecordOutcome[] = [];
    const writable: TargetRecord[] = [];
    for (const target of records) {
      const state = states.get(target.record.sku);
      if (state && !state.managed) {
        outcomes.push({
          index: target.index,
          ok: false,
          field: 'sku',
          error: 'the SKU belongs to a product the shop owns',
          retryable: false,
        });
        continue;
      }
      writable.push(target);
      const { record } = target;
      const action = record.op === 'deactivate' ? 'deactivated' : state ? 'updated' : 'created';
      outcomes.push({ index: target.index, ok: true, ids: idsOf(record.sku, record.product ?? null), action });
    }
    if (writable.length > 0) {
      const now = new Date().toISOString();
      try {
        await this.db.batch(
          productStatements(
            this.db,
            writable.map((t) => t.record),
            now,
          ),
        );
      } catch {
        throw new TargetError('the reference store could not be written', true);
      }
    }
    return outcomes;
  }
}
