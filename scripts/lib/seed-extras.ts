import type { AggregateMedia, ProductNode } from '../../src/model/product-aggregate';
import type { StoredPrice } from '../../src/model/price-list';
import { newId } from '../../src/kernel/ids';
import { linkStorageKey } from '../../src/media/media-links.rules';

/** What seed-synthetic's writer offers (its multi-row INSERT buffer). */
interface RowWriter {
  insert(table: string, columns: string[], values: (string | number | null)[]): Promise<void>;
}

export interface Extras {
  /** The parts of the master's node the extras set (its fingerprint must see them). */
  node: Pick<ProductNode, 'prices' | 'references' | 'media'>;
  links: AggregateMedia[];
}

const TIERS = ['1', '10', '100'];
const TYPES = ['net_list', 'nrp'];
const REFERENCE_TYPES = ['accessories', 'accessories', 'similar', 'sparepart', 'followup'];
const LINKS = [
  { purpose: 'data_sheet', ext: 'pdf', contentType: 'application/pdf', mimeCode: 'MD02' },
  { purpose: 'detail', ext: 'jpg', contentType: 'image/jpeg', mimeCode: 'MD01' },
  { purpose: 'safety_data_sheet', ext: 'pdf', contentType: 'application/pdf', mimeCode: 'MD06' },
];

/**
 * Issue 19's bench catalog (bench:import): a master's price list of 3 quantity tiers in 2
 * price types (net_list from the master's own price down 5 % per tier, nrp 40 % above), 5
 * references to the masters before it (resolved; the first master's stay pending) and 3 media
 * links after its picture. The stored form: the default row's amount is the product's price.
 */
export function extrasOf(companyId: string, i: number, master: ProductNode, masterIds: readonly string[]): Extras {
  const price = Number(master.product.price);
  const prices: StoredPrice[] = TYPES.flatMap((type, t) =>
    TIERS.map((lowerBound, k) => {
      const position = t * TIERS.length + k;
      const amount = (price * (t === 0 ? 1 : 1.4) * (1 - 0.05 * k)).toFixed(2);
      return {
        position,
        type,
        amount: position === 0 ? null : amount,
        currency: 'EUR',
        tax: '0.19',
        factor: null,
        lowerBound,
        territory: null,
        validFrom: null,
        validTo: null,
        daily: null,
        baseValue: null,
        baseUnit: null,
        baseFactor: null,
        flags: null,
        formula: null,
      };
    }),
  );
  // Earlier masters: their rows are written before this one's (foreign keys hold in the seed's
  // multi-row INSERTs); before the first master the targets stay pending.
  const references = REFERENCE_TYPES.map((type, k) => {
    const target = i - k - 1;
    return {
      type,
      targetSku: target >= 0 ? `GEN-${String(target).padStart(7, '0')}` : `GEN-PENDING-${k + 1}`,
      quantity: type === 'accessories' ? k + 1 : null,
      targetProductId: target >= 0 ? masterIds[target]! : null,
    };
  });
  const sku = master.product.sku;
  const links: AggregateMedia[] = LINKS.map((l, k) => {
    const mediaId = newId();
    return {
      mediaId,
      purpose: l.purpose,
      fileName: `${sku}-${k + 1}.${l.ext}`,
      contentType: l.contentType,
      size: 0,
      storageKey: linkStorageKey(companyId, mediaId),
      sha256: null,
      description: null,
      sortOrder: k + 1,
      url: `https://cdn.example.com/gen/${sku}/${sku}-${k + 1}.${l.ext}`,
      mimeCode: l.mimeCode,
      alt: null,
    };
  });
  return { node: { prices, references, media: [...master.media, ...links] }, links };
}

/** The price and reference rows of one master (its link rows go with its media). */
export async function writeExtras(writer: RowWriter, catalogId: string, productId: string, extras: Extras) {
  for (const p of extras.node.prices ?? [])
    await writer.insert(
      'product_prices',
      ['product_id', 'position', 'type', 'amount', 'currency', 'tax', 'lower_bound'],
      [productId, p.position, p.type, p.amount, p.currency, p.tax, p.lowerBound],
    );
  for (const [position, r] of extras.node.references.entries())
    await writer.insert(
      'product_references',
      ['product_id', 'position', 'catalog_id', 'type', 'target_sku', 'target_product_id', 'quantity'],
      [productId, position, catalogId, r.type, r.targetSku, r.targetProductId, r.quantity],
    );
}
