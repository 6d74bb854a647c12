/**
 * bench:import's xChange file with the seeded extras (every fifth master's price list,
 * references and media links) that the service's xChange export does not write: the export
 * writes one price per trade item and neither relations nor links (docs/exports.md), so the
 * bench adds them to the exported file from the seeded catalog's rows, where the xChange V2.0
 * structure (schemas/etim-xchange/) puts them: one `Pricing` entry per price row on the trade
 * item, `ProductRelations` (RelationType + RelatedProducts) and `ProductAttachments`
 * (AttachmentType + AttachmentDetails[].AttachmentUri). The export writes one Product per line,
 * so the file is rewritten line by line, never held whole.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

type Json = Record<string, unknown>;

interface SeededExtras {
  prices: { type: string; amount: string | null }[];
  references: { type: string; targetSku: string }[];
  links: { url: string; fileName: string }[];
}

/** The price types of the seed as xChange price fields (net_list is the list price before discounts). */
const PRICE_FIELD: Record<string, string> = { net_list: 'GrossListPrice', nrp: 'RecommendedRetailPrice' };
/** The seed's reference types as xChange relation types. */
const RELATION_TYPE: Record<string, string> = {
  accessories: 'ACCESSORY',
  similar: 'SIMILAR',
  sparepart: 'SPARE_PART',
  followup: 'SUCCESSOR',
};

const rowsOf = (file: string, query: string): Json[] => {
  const out = execFileSync('sqlite3', ['-json', file, query], { encoding: 'utf8', maxBuffer: 1 << 30 }).trim();
  return out ? (JSON.parse(out) as Json[]) : [];
};

/** The seeded catalog's price, reference and link rows by product SKU. */
function seededExtras(d1: string, catalogId: string): Map<string, SeededExtras> {
  const catalog = `'${catalogId.replace(/'/g, "''")}'`;
  const bySku = new Map<string, SeededExtras>();
  const of = (sku: string) => {
    let e = bySku.get(sku);
    if (!e) bySku.set(sku, (e = { prices: [], references: [], links: [] }));
    return e;
  };
  for (const r of rowsOf(
    d1,
    `SELECT p.sku, x.type, coalesce(x.amount, p.price) AS amount FROM product_prices x JOIN products p ON p.id = x.product_id WHERE p.catalog_id = ${catalog} ORDER BY p.sku, x.position`,
  ))
    of(String(r.sku)).prices.push({
      type: String(r.type),
      amount: r.amount === null || r.amount === undefined ? null : String(r.amount),
    });
  for (const r of rowsOf(
    d1,
    `SELECT p.sku, x.type, x.target_sku FROM product_references x JOIN products p ON p.id = x.product_id WHERE p.catalog_id = ${catalog} ORDER BY p.sku, x.position`,
  ))
    of(String(r.sku)).references.push({ type: String(r.type), targetSku: String(r.target_sku) });
  for (const r of rowsOf(
    d1,
    `SELECT p.sku, x.url, x.file_name FROM media x JOIN products p ON p.id = x.element_id WHERE x.url IS NOT NULL AND p.catalog_id = ${catalog} ORDER BY p.sku, x.sort_order`,
  ))
    of(String(r.sku)).links.push({ url: String(r.url), fileName: String(r.file_name) });
  return bySku;
}

/** One Product of the file with the extras of its trade items' SKUs added. */
function withExtras(product: Json, bySku: Map<string, SeededExtras>): Json {
  const relations: Json[] = [];
  const attachments: Json[] = [];
  for (const item of (product.TradeItem ?? []) as Json[]) {
    const sku = String(((item.ItemIdentification ?? {}) as Json).SupplierItemNumber ?? '');
    const extras = bySku.get(sku);
    if (!extras) continue;
    const unit = ((((item.Pricing ?? []) as Json[])[0] ?? {}) as Json).PriceUnit ?? 'C62';
    // The list replaces the one price the export wrote; its first row (net_list from 1) is that
    // price, which the importer reads. A tier's lower bound is not written: this project has no
    // checked place for it in xChange (PriceQuantity is the quantity a price is for).
    if (extras.prices.length > 0)
      item.Pricing = extras.prices.map((p) => ({
        PriceUnit: unit,
        PriceQuantity: '1',
        [PRICE_FIELD[p.type] ?? 'NetPrice']: p.amount,
      }));
    const byType = new Map<string, Json[]>();
    for (const r of extras.references) {
      const type = RELATION_TYPE[r.type] ?? 'ACCESSORY';
      if (!byType.has(type)) byType.set(type, []);
      byType.get(type)!.push({ RelatedSupplierItemNumber: r.targetSku });
    }
    for (const [type, related] of byType) relations.push({ RelationType: type, RelatedProducts: related });
    for (const l of extras.links)
      attachments.push({
        AttachmentType: 'ATX099',
        AttachmentDetails: [{ AttachmentUri: l.url, AttachmentFilename: l.fileName }],
      });
  }
  if (relations.length > 0) product.ProductRelations = relations;
  if (attachments.length > 0)
    product.ProductAttachments = [...((product.ProductAttachments ?? []) as Json[]), ...attachments];
  return product;
}

/**
 * Rewrites the xChange export `source` into `target` with the seeded catalog's extras; returns
 * how many price entries, relations and attachments it added.
 */
export async function addXChangeExtras(
  source: string,
  target: string,
  d1: string,
  catalogId: string,
): Promise<{ prices: number; references: number; links: number }> {
  const bySku = seededExtras(d1, catalogId);
  const added = { prices: 0, references: 0, links: 0 };
  for (const e of bySku.values()) {
    added.prices += e.prices.length;
    added.references += e.references.length;
    added.links += e.links.length;
  }
  const out = createWriteStream(target);
  for await (const line of createInterface({ input: createReadStream(source), crlfDelay: Infinity })) {
    let text = line;
    // A Product line: `{"ProductIdentification":...}` with a comma unless it is the last.
    if (line.startsWith('{"ProductIdentification"')) {
      const comma = line.endsWith(',');
      const product = JSON.parse(comma ? line.slice(0, -1) : line) as Json;
      text = JSON.stringify(withExtras(product, bySku)) + (comma ? ',' : '');
    }
    if (!out.write(`${text}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return added;
}
