/**
 * What a BMEcat export of a catalog must contain, computed from the REST API's view of the
 * catalog (GetProducts, GetProduct, GetCategoryTree) by rules written down independently of
 * the exporter: the test's oracle for "every product, variant, feature value and price".
 */
import { UNITS_2005, UNITS_ETIM } from '../../src/exports/bmecat/code-lists';
import type { ReadFeatureBlock, ReadGroup, ReadProduct } from './export-bmecat-reader';

export type Format = 'BMEcat' | 'BMEcat-ETIM' | 'BMEcat12';

export interface ApiProduct {
  productId: string;
  parentId: string | null;
  sku: string | null;
  name: string | null;
  description: string | null;
  gtin: string | null;
  manufacturerName: string | null;
  manufacturerPid: string | null;
  unit: string | null;
  price: string | null;
  keywords: string | null;
  categoryIds: string[];
  values: { code: string; type: string; value: string; unit: string | null }[];
  classification: {
    classes: { group: string; system: string; code: string }[];
    features: { group: string; code: string; value: string; unit: string | null }[];
  } | null;
  media: { fileName: string; url?: string | null }[];
  /** Feature blocks of other systems (UNSPSC, udf_*, eCl@ss Advanced …), issue 19. */
  featureBlocks?: {
    system: string;
    groupId: string | null;
    groupName: string | null;
    features: { name?: string; ftId?: string; ftName?: string; values: string[]; unit?: string | null }[];
  }[];
  /** Outgoing references in order (GetReferences), issue 19. */
  references?: { type: string; targetSku: string }[];
}

export interface ApiCategory {
  categoryId: string;
  parentId: string | null;
  name: string;
  children: ApiCategory[];
}

// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFDD0-\uFDEF\uFFFE\uFFFF]/g;

function clean(text: string | null | undefined): string | null {
  const out = (text ?? '').replace(NOT_XML, '').trim();
  return out === '' ? null : out;
}

/** Cut to `max` code points, ending in an ellipsis when cut. */
export function fit(text: string | null | undefined, max: number, ellipsis = true): string | null {
  const c = clean(text);
  if (c === null) return null;
  const points = [...c];
  if (points.length <= max) return c;
  return ellipsis
    ? `${points
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : points.slice(0, max).join('').trimEnd();
}

export function pidOf(p: { productId: string; sku: string | null }): string {
  if (!p.sku || !p.sku.trim()) return p.productId.replace(/-/g, '');
  if (clean(p.sku) === p.sku && [...p.sku].length <= 32) return p.sku;
  // Too long or with control characters: a prefix plus a hash (checked for shape and uniqueness by the caller).
  return `~hashed:${p.sku}`;
}

function values(value: string, type: string | null, distinct: boolean): string[] {
  const range = /^([+-]?[\d.]+(?:[eE][+-]?\d+)?)\.\.([+-]?[\d.]+(?:[eE][+-]?\d+)?)$/.exec(value);
  if (range && (type === null || type === 'range'))
    return distinct && range[1] === range[2] ? [range[1]!] : [range[1]!, range[2]!];
  if ((type === null || type === 'boolean') && /^(true|false)$/i.test(value)) return [value.toLowerCase()];
  return [value];
}

/** A variant's effective data: its own, with gaps filled from its master (docs/design.md: variants inherit). */
export function effective(p: ApiProduct, master: ApiProduct | null): ApiProduct {
  if (!master) return p;
  const pick = <K extends keyof ApiProduct>(k: K) => (p[k] !== null && p[k] !== '' ? p[k] : master[k]);
  const byCode = new Map(master.values.map((v) => [v.code, v]));
  for (const v of p.values) byCode.set(v.code, v);
  return {
    ...p,
    name: pick('name'),
    description: pick('description'),
    manufacturerName: pick('manufacturerName'),
    unit: pick('unit'),
    price: pick('price'),
    keywords: pick('keywords'),
    values: [...byCode.values()].sort((a, b) => (a.code < b.code ? -1 : 1)),
    classification: p.classification ?? master.classification,
    media: p.media.length ? p.media : master.media,
    categoryIds: master.categoryIds,
  };
}

function blocksOf(format: Format, p: ApiProduct): ReadFeatureBlock[] {
  const distinct = format === 'BMEcat12';
  const out: ReadFeatureBlock[] = (p.classification?.classes ?? []).map((c) => ({
    system: c.system,
    groupId: c.code,
    features: p
      .classification!.features.filter((f) => f.group === c.group)
      .map((f) => ({
        name: f.code,
        values: values(f.value, null, distinct),
        unit: format === 'BMEcat-ETIM' && c.group === 'ETIM' ? null : f.unit,
      })),
  }));
  if (p.values.length) {
    out.push({
      system: 'PIM-ATTRIBUTES-1.0',
      groupId: format === 'BMEcat-ETIM' ? 'ATTRIBUTES' : null,
      features: p.values.map((v) => ({
        name: fit(v.code, 60, false)!,
        values: values(v.value, v.type, distinct).map((x) => fit(x, 60)!),
        unit: v.unit,
      })),
    });
  }
  // Blocks of other systems follow: 2005 and the ETIM profile allow [\w.-] in system names only
  // ("_" becomes "-"); the ETIM profile requires a group id ("-" when none); 2005 names a template
  // feature by FT_IDREF / FTEMPLATE (no FNAME), the others write its id as FNAME; 1.2 has unique FVALUEs.
  for (const b of p.featureBlocks ?? []) {
    out.push({
      system: format === 'BMEcat12' ? b.system : b.system.replace(/[^A-Za-z0-9.-]/g, '-'),
      groupId: b.groupId ?? (format === 'BMEcat-ETIM' ? (b.groupName ?? '-') : null),
      features: b.features.map((f) => ({
        // The reader finds no FNAME (null) where 2005 writes FT_IDREF / FTEMPLATE.
        name: (f.name ?? (format === 'BMEcat' ? null : (f.ftName ?? f.ftId ?? null))) as string,
        values: distinct ? [...new Set(f.values)] : f.values,
        unit: f.unit ?? null,
      })),
    });
  }
  if (format === 'BMEcat-ETIM' && out.length === 0)
    out.push({ system: 'PIM-ATTRIBUTES-1.0', groupId: 'ATTRIBUTES', features: [] });
  return out;
}

function keywordsOf(text: string | null): string[] {
  const out: string[] = [];
  for (const part of (text ?? '').split(/[,;\n\r]+/)) {
    const k = fit(part, 50);
    if (k && !out.includes(k)) out.push(k);
  }
  return out;
}

/** The PRODUCT (ARTICLE) a product must become, in the reader's shape. */
export function expectedProduct(
  format: Format,
  own: ApiProduct,
  master: ApiProduct | null,
  currency: string,
  priceType = 'net_list',
): ReadProduct {
  const p = effective(own, master);
  const pid = pidOf(p);
  const units = format === 'BMEcat-ETIM' ? UNITS_ETIM : UNITS_2005;
  const noPrice = {
    BMEcat: { type: 'on_request', amount: null },
    'BMEcat-ETIM': { type: priceType, amount: '0' },
    BMEcat12: { type: 'udp_onrequest', amount: '0' },
  }[format];
  return {
    pid,
    descriptionShort: fit(p.name, format === 'BMEcat12' ? 80 : 150) ?? pid,
    descriptionLong: fit(p.description, 64000),
    gtin: p.gtin,
    manufacturerName: fit(p.manufacturerName, 50),
    manufacturerPid: fit(p.manufacturerPid, 50),
    keywords: keywordsOf(p.keywords),
    orderUnit: p.unit && units.has(p.unit) ? p.unit : 'C62',
    priceType: p.price ? priceType : noPrice.type,
    priceAmount: p.price ?? noPrice.amount,
    priceCurrency: p.price || format !== 'BMEcat' ? currency : null,
    // A file is written by name (relative to MIME_ROOT), a link by its absolute URL.
    media: p.media.map((m) => m.url ?? m.fileName),
    references: [
      ...(master ? [{ type: format === 'BMEcat12' ? 'others' : 'base_product', to: pidOf(master) }] : []),
      // Outgoing references as written; the ETIM profile has no diff_orderunit (written as others).
      ...(own.references ?? []).map((r) => ({
        type: format === 'BMEcat-ETIM' && r.type === 'diff_orderunit' ? 'others' : r.type,
        to: r.targetSku,
      })),
    ],
    blocks: blocksOf(format, p),
  };
}

/** CATALOG_STRUCTUREs: the catalog as root, then every category (any order). */
export function expectedGroups(catalog: { catalogId: string; name: string }, tree: ApiCategory[]): ReadGroup[] {
  const out: ReadGroup[] = [{ id: catalog.catalogId, name: fit(catalog.name, 50)!, parentId: '0', type: 'root' }];
  const walk = (nodes: ApiCategory[]) => {
    for (const n of nodes) {
      out.push({
        id: n.categoryId,
        name: fit(n.name, 50)!,
        parentId: n.parentId ?? catalog.catalogId,
        type: n.children.length ? 'node' : 'leaf',
      });
      walk(n.children);
    }
  };
  walk(tree);
  return out;
}
