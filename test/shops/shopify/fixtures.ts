import type { Product, UpsertRecord, Variant } from '../../../src/sync/protocol/wire';
import type { TargetIds, TargetMapping, TargetRecord } from '../../../connector/src/adapters/target-adapter';
import { numbersCarried } from '../../../connector/src/adapters/common/references';
import { wireNode, wirePrice } from '../fixtures/wire-product';

/** The PIM's records for the Shopify contract tests, and a stand-in for the connector's mirror. */
export const MAPPING: TargetMapping = {
  languages: { deu: 'de', eng: 'en', fra: 'fr' },
  defaultLanguage: 'deu',
  priceType: 'net_customer',
  currency: 'EUR',
  pricesIncludeTax: false,
  features: { classification: true, values: true, featureBlocks: [] },
  onDeactivate: 'disable',
  imagePurposes: [],
  references: false,
};

const node = wireNode();
const price = (amount: string, lowerBound: string) => wirePrice(amount, lowerBound);

export const image = (hex: string, position: number) => ({
  sha256: hex.repeat(64),
  url: `https://media.example.com/${hex}.jpg`,
  contentType: 'image/jpeg',
  fileName: `${hex}.jpg`,
  purpose: 'normal',
  position,
});

function variant(sku: string, amps: string, amount: string): Variant {
  return {
    ...node,
    sku,
    name: `LS-Schalter B${amps}`,
    gtin: `40123456${amps}000`,
    prices: [price(amount, '1'), price((Number(amount) - 0.3).toFixed(2), '10')],
    classification: {
      classes: [{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042', name: 'Leitungsschutzschalter' }],
      features: [
        { group: 'ETIM', code: 'EF000010', name: 'Bemessungsstrom', value: amps, unit: 'A' },
        { group: 'ETIM', code: 'EF000020', name: 'Polzahl', value: '1', unit: null },
      ],
    },
  };
}

/** A master with 3 variants (told apart by their rated current), 3 languages, prices with a tier, features, 2 categories, 2 images. */
export function master(): Product {
  return {
    ...node,
    name: 'Leitungsschutzschalter B',
    description: '<p>Für Hausinstallationen</p>',
    manufacturerId: 'Hager',
    keywords: 'MCB, Sicherung',
    values: { material: 'Kunststoff' },
    classification: {
      classes: [{ group: 'ETIM', system: 'ETIM-9.0', code: 'EC000042', name: 'Leitungsschutzschalter' }],
      features: [{ group: 'ETIM', code: 'EF000030', name: 'Breite in TE', value: '1', unit: null }],
    },
    media: [image('a', 0), image('b', 1)],
    translations: {
      eng: { name: 'Circuit breaker B', description: '<p>For home installations</p>' },
      fra: { name: 'Disjoncteur B' },
    },
    categories: [
      { id: 'cat-schutz', path: ['Installation', 'Schutzschalter'] },
      { id: 'cat-angebote', path: ['Angebote'] },
    ],
    variants: [variant('LS-B16', '16', '4.20'), variant('LS-B20', '20', '4.40'), variant('LS-B25', '25', '4.60')],
  };
}

/** A master without variants: Shopify's default variant carries its SKU. */
export function simple(sku: string, name?: string): Product {
  return { ...node, name: name ?? `Mantelleitung ${sku}`, price: '0.89', categories: [], variants: [] };
}

export function upsert(sku: string, product: Product, op: 'create' | 'update' = 'create'): UpsertRecord {
  return { op, sku, fingerprint: `fp-${JSON.stringify(product).length}`, product };
}

/** What the connector keeps per SKU: the target's ids and the product as last written. */
export class Mirror {
  rows = new Map<string, { ids: TargetIds; product: Product | null }>();

  targets(records: UpsertRecord[]): TargetRecord[] {
    return records.map((record, index) => {
      const row = this.rows.get(record.sku);
      return { index, record, known: row?.ids ?? null, previous: row?.product ?? null };
    });
  }

  async idsOf(skus: string[]): Promise<Map<string, TargetIds>> {
    return new Map(skus.flatMap((sku) => (this.rows.has(sku) ? [[sku, this.rows.get(sku)!.ids] as const] : [])));
  }

  /** As MirrorStore.referencing: rows whose pending references name one of `skus`. */
  async referencing(skus: string[]): Promise<{ sku: string; ids: TargetIds; product: Product }[]> {
    return [...this.rows].flatMap(([sku, row]) => {
      const pending: string[] = JSON.parse(row.ids.extra?.pendingReferences ?? '[]');
      return row.product && pending.some((p) => skus.includes(p)) ? [{ sku, ids: row.ids, product: row.product }] : [];
    });
  }

  /** As MirrorStore.mastersByMpn: masters by the manufacturer numbers (master and variants) of the product as last written. */
  async mastersByMpn(numbers: string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    for (const [sku, row] of this.rows) {
      for (const number of row.product ? numbersCarried(row.product) : []) {
        if (numbers.includes(number)) found.set(number, [...(found.get(number) ?? []), sku]);
      }
    }
    return found;
  }

  keep(records: UpsertRecord[], outcomes: { index: number; ok: boolean; ids?: TargetIds | null }[]) {
    for (const outcome of outcomes) {
      if (!outcome.ok) continue;
      const record = records[outcome.index]!;
      if (outcome.ids === null || outcome.ids === undefined) this.rows.delete(record.sku);
      else this.rows.set(record.sku, { ids: outcome.ids, product: record.op === 'deactivate' ? null : record.product });
    }
  }
}
