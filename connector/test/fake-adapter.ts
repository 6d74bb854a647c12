import type { Mappings } from '../../src/sync/protocol/wire';
import { ADAPTER_FACTORIES } from '../src/adapters/registry';
import type {
  RecordOutcome,
  TargetAdapter,
  TargetError,
  TargetIds,
  TargetKind,
  TargetProbe,
  TargetRecord,
  WriteContext,
} from '../src/adapters/target-adapter';

/** What a scripted shop refuses: a field and reason per SKU, retryable ones for `times` tries. */
interface ScriptedFailure {
  field: string;
  error: string;
  retryable: boolean;
  /** Tries that fail before the record goes through; Infinity for always. */
  times: number;
}

/**
 * A TargetAdapter over an in-memory shop whose behaviour a test scripts: per-SKU failures,
 * a write call that throws (a crash mid-batch), products the shop already holds (a lost
 * mapping). It records every call, so a test can say what was sent and how often.
 */
export class FakeAdapter implements TargetAdapter {
  readonly kind: TargetKind = 'shopify';
  batchSize = 2;
  /** The shop's products by SKU: its ids and the fingerprint written. */
  readonly shop = new Map<string, { ids: TargetIds; fingerprint: string; active: boolean }>();
  readonly writes: { sku: string; known: TargetIds | null; previous: string | null }[][] = [];
  readonly findCalls: string[][] = [];
  readonly failures = new Map<string, ScriptedFailure>();
  /** The write call (1-based) that throws instead of answering. */
  throwOnWrite: number | null = null;
  /** While set, a write call waits for it after being recorded (a slow shop). */
  hold: Promise<void> | null = null;
  mappingsError: TargetError | null = null;
  probeError: TargetError | null = null;
  lastContext: WriteContext | null = null;
  private nextId = 1;

  readonly mappingsValue: Mappings = {
    manufacturers: [{ id: 'm-1', name: 'Voltana Schaltgeräte' }],
    units: [{ id: 'u-1', code: 'C62' }],
    taxes: [{ id: 't-19', code: 'DE-19', rate: 19 }],
  };

  async probe(): Promise<TargetProbe> {
    if (this.probeError) throw this.probeError;
    return { name: 'Fake shop 1.0', languages: ['de', 'en'], currencies: ['EUR'], details: { plan: 'test' } };
  }

  /** What the adapter kept from an earlier look (answered to `mappings({ cached: true })`); null: none kept. */
  keptMappings: Mappings | null = null;
  /** Each `mappings` call: whether it asked for the kept answer. */
  readonly mappingsCalls: ('cached' | 'fresh')[] = [];

  async mappings(options?: { cached?: boolean }): Promise<Mappings> {
    this.mappingsCalls.push(options?.cached ? 'cached' : 'fresh');
    if (this.mappingsError) throw this.mappingsError;
    if (options?.cached && this.keptMappings) return this.keptMappings;
    return this.mappingsValue;
  }

  async findBySku(skus: string[]): Promise<Map<string, TargetIds>> {
    this.findCalls.push(skus);
    const found = new Map<string, TargetIds>();
    for (const sku of skus) {
      const product = this.shop.get(sku);
      if (product) found.set(sku, product.ids);
    }
    return found;
  }

  async write(records: TargetRecord[], ctx: WriteContext): Promise<RecordOutcome[]> {
    this.lastContext = ctx;
    this.writes.push(
      records.map((r) => ({ sku: r.record.sku, known: r.known, previous: r.previous ? r.previous.name : null })),
    );
    if (this.hold) await this.hold;
    if (this.throwOnWrite === this.writes.length) throw new Error('the fake adapter crashed');
    return records.map(({ index, record, known }): RecordOutcome => {
      const failure = this.failures.get(record.sku);
      if (failure && failure.times > 0) {
        failure.times--;
        return { index, ok: false, field: failure.field, error: failure.error, retryable: failure.retryable };
      }
      if (record.op === 'deactivate') {
        const product = this.shop.get(record.sku);
        if (product) product.active = false;
        return { index, ok: true, ids: product?.ids ?? null, action: 'deactivated' };
      }
      const ids = known ?? {
        product: `gid://fake/Product/${this.nextId++}`,
        variants: Object.fromEntries(
          record.product.variants.map((v) => [v.sku, `gid://fake/Variant/${this.nextId++}`]),
        ),
      };
      const existed = this.shop.has(record.sku);
      this.shop.set(record.sku, { ids, fingerprint: record.fingerprint, active: true });
      return { index, ok: true, ids, action: known || existed ? 'updated' : 'created' };
    });
  }

  /** SKUs of every write call, flattened in order. */
  get sentSkus(): string[] {
    return this.writes.flat().map((w) => w.sku);
  }
}

/** Registers `adapter` as the connector's adapter for its kind until the returned function is called. */
export function useFakeAdapter(adapter: FakeAdapter): () => void {
  const before = ADAPTER_FACTORIES[adapter.kind];
  ADAPTER_FACTORIES[adapter.kind] = () => adapter;
  return () => {
    if (before) ADAPTER_FACTORIES[adapter.kind] = before;
    else delete ADAPTER_FACTORIES[adapter.kind];
  };
}
