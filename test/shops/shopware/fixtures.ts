import { createShopwareAdapter } from '../../../connector/src/adapters/shopware';
import { MediaError } from '../../../connector/src/media/media-bytes';
import { refusedUrlReason } from '../../../connector/src/targets/url-guard';
import type {
  RecordOutcome,
  TargetAdapter,
  TargetIds,
  TargetMapping,
  WriteContext,
} from '../../../connector/src/adapters/target-adapter';
import { createTargetHttp, type TargetHttp } from '../../../connector/src/adapters/target-http';
import type { MediaRef, Product, UpsertRecord, Variant } from '../../../src/sync/protocol/wire';
import { CLIENT, type ShopwareContractServer, TAX_19 } from './contract-server';
import { numbersCarried } from '../../../connector/src/adapters/common/references';
import { wireNode, wirePrice } from '../fixtures/wire-product';

/** Wire records, a mapping and a small mirror (what the connector keeps per SKU) for the Shopware contract tests. */
export const MAPPING: TargetMapping = {
  languages: { deu: 'de-DE', eng: 'en-GB', fra: 'fr-FR' },
  defaultLanguage: 'deu',
  priceType: 'net_customer',
  currency: 'EUR',
  pricesIncludeTax: false,
  features: { classification: true, values: false, featureBlocks: [] },
  onDeactivate: 'disable',
  imagePurposes: [],
  references: false,
};

export function image(n: number, position = n): MediaRef {
  const sha256 = n.toString(16).padStart(2, '0').repeat(32);
  return {
    sha256,
    url: `https://images.example/${sha256}.jpg`,
    contentType: 'image/jpeg',
    fileName: `img-${n}.jpg`,
    purpose: 'normal',
    position,
  };
}

function feature(code: string, name: string, value: string, unit: string | null = null) {
  return { group: 'ETIM', code, name, value, unit };
}

const node = wireNode;

export function variant(sku: string, colour: string, overrides: Partial<Variant> = {}): Variant {
  return {
    sku,
    ...node({
      name: `Leuchte ${colour}`,
      translations: { eng: { name: `Lamp ${colour}` } },
      classification: {
        classes: [],
        features: [feature('EF000007', 'Colour', colour), feature('EF000001', 'Protection', 'IP44')],
      },
      ...overrides,
    }),
  };
}

/** A master with 3 variants, 3 languages, tier prices, ETIM features, 2 categories and images. */
export function lamp(overrides: Partial<Product> = {}): Product {
  return {
    ...node({
      name: 'LED-Leuchte',
      description: 'Außenleuchte',
      keywords: 'led',
      gtin: '4012345678901',
      manufacturerId: 'e1'.repeat(16),
      manufacturerPid: 'LMP-1',
      unitId: 'd1'.repeat(16),
      taxId: TAX_19,
      price: '10.00',
      translations: { eng: { name: 'LED lamp', description: 'Outdoor lamp' }, fra: { name: 'Lampe LED' } },
      classification: { classes: [], features: [feature('EF000001', 'Protection', 'IP44')] },
      media: [image(1, 0), image(2, 1)],
      prices: [wirePrice('10.00', '1'), wirePrice('9.00', '10'), wirePrice('8.00', '100')],
    }),
    categories: [
      { id: 'c-led', path: ['Lighting', 'LED'] },
      { id: 'c-out', path: ['Outdoor'] },
    ],
    variants: [
      variant('LMP-1-R', 'red', { media: [image(3, 0)] }),
      variant('LMP-1-G', 'green'),
      variant('LMP-1-B', 'blue'),
    ],
    ...overrides,
  };
}

export function upsert(sku: string, product: Product, op: 'create' | 'update' = 'create'): UpsertRecord {
  return { op, sku, fingerprint: `fp-${sku}-${JSON.stringify(product).length}`, product };
}

export function deactivate(sku: string): UpsertRecord {
  return { op: 'deactivate', sku, fingerprint: `fp-${sku}-off` };
}

/** The adapter against the contract server, its HTTP client and the waits it asked for (nothing sleeps). */
export function shopware(
  server: ShopwareContractServer,
  mapping: Partial<TargetMapping> = {},
  timeoutMs = 5_000,
  credentials: Record<string, string> = { ...CLIENT },
) {
  const sleeps: number[] = [];
  const http: TargetHttp = createTargetHttp({
    fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    timeoutMs,
    attempts: 3,
  });
  const adapter = createShopwareAdapter(
    { kind: 'shopware', url: server.url, credentials, mapping: { ...MAPPING, ...mapping } },
    { http },
  );
  return { adapter, sleeps, http, mirror: new Mirror(adapter, { ...MAPPING, ...mapping }) };
}

/** What the connector keeps per SKU: the ids and the product as last written. */
export class Mirror {
  readonly ids = new Map<string, TargetIds>();
  readonly products = new Map<string, Product>();
  /** `WriteContext.categoryPicture` / `categoryPictureSent` for the next writes (none: `linkBytes` is hashed). */
  pictures: Pick<WriteContext, 'categoryPicture' | 'categoryPictureSent'> = {};
  /** The bytes behind category picture URLs (`linkBytes`); a URL not here serves `picture:<url>`. */
  readonly links = new Map<string, string>();
  /** URLs `linkBytes` was asked for. */
  readonly fetched: string[] = [];

  constructor(
    private readonly adapter: TargetAdapter,
    private readonly mapping: TargetMapping,
  ) {}

  async write(records: UpsertRecord[]): Promise<RecordOutcome[]> {
    const ctx: WriteContext = {
      ...this.pictures,
      mapping: this.mapping,
      mediaBytes: async () => {
        throw new Error('the Shopware adapter uploads by URL');
      },
      refusedUrl: (url) => refusedUrlReason(url, false),
      linkBytes: async (link) => {
        this.fetched.push(link.url);
        const text = this.links.get(link.url) ?? `picture:${link.url}`;
        if (text === 'unreachable') throw new MediaError('the image URL could not be reached');
        return new Blob([text], { type: link.contentType });
      },
      idsOf: async (skus) =>
        new Map(skus.flatMap((sku) => (this.ids.has(sku) ? [[sku, this.ids.get(sku) as TargetIds] as const] : []))),
      referencing: async () => [],
      // As the connector's mirror answers it: masters by the manufacturer numbers (master and variants) as last written.
      mastersByMpn: async (numbers) => {
        const found = new Map<string, string[]>();
        for (const [sku, product] of this.products) {
          for (const number of numbersCarried(product)) {
            if (numbers.includes(number)) found.set(number, [...(found.get(number) ?? []), sku]);
          }
        }
        return found;
      },
    };
    const outcomes = await this.adapter.write(
      records.map((record, index) => ({
        index,
        record,
        known: this.ids.get(record.sku) ?? null,
        previous: this.products.get(record.sku) ?? null,
      })),
      ctx,
    );
    for (const outcome of outcomes) {
      const record = records[outcome.index] as UpsertRecord;
      if (!outcome.ok) continue;
      if (outcome.ids) this.ids.set(record.sku, outcome.ids);
      else this.ids.delete(record.sku);
      if (record.product) this.products.set(record.sku, record.product);
    }
    return [...outcomes].sort((a, b) => a.index - b.index);
  }
}
