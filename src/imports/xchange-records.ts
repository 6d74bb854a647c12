import type { UpsertMediaRef, UpsertRecord } from '../catalog/upsert/upsert-types';
import type { FileWarning } from './record-actions';
import type { XChangeEnvelope } from './xchange-reader';
import { xchangeFeatureValue } from './xchange-features';
import { languageTag } from '../exports/xchange/xchange-codes';

type Json = Record<string, any>;

/** One record of an xChange Product: a TradeItem (or the product itself when it has none). */
export interface XChangeItem {
  sku: string | null;
  record: UpsertRecord | null;
  problem: string | null;
  skipped: string[];
  warnings: FileWarning[];
}

const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const warn = (warnings: FileWarning[], code: string, message: string, path: string) =>
  warnings.push({ code, message, line: 0, path });

/** The language the catalog keeps: the description in the catalog's language (BCP 47 primary subtag), else the first. */
function pick<T extends Json>(entries: T[], languageKey: string, primary: string): T | undefined {
  return (
    entries.find(
      (e) =>
        String(e[languageKey] ?? '')
          .slice(0, 2)
          .toLowerCase() === primary,
    ) ?? entries[0]
  );
}

/** A name the exporter cut to 80 characters (ending in "…") is whole in UniqueMainProductDescription. */
function fullName(minimal: string | null, unique: string | null): string | null {
  if (minimal?.endsWith('…') && unique?.startsWith(minimal.slice(0, -1))) return unique;
  return minimal;
}

const PRODUCT_STATUS: Record<string, string> = {
  'PRE-LAUNCH': 'draft',
  ACTIVE: 'active',
  'ON HOLD': 'active',
  'PLANNED WITHDRAWAL': 'active',
  OBSOLETE: 'discontinued',
};

/** ETIM classification (ReleaseVersion 9.0 → system ETIM-9.0) and its features as the BMEcat import stores them. */
function classificationOf(product: Json, primary: string, warnings: FileWarning[]): UpsertRecord['classification'] {
  const classes: NonNullable<UpsertRecord['classification']>['classes'] = [];
  const features: NonNullable<UpsertRecord['classification']>['features'] = [];
  list(product.EtimClassification).forEach((c, ci) => {
    const code = str(c.EtimClassCode);
    if (!code) return;
    classes.push({ group: 'ETIM', system: `ETIM-${str(c.EtimReleaseVersion) ?? 'DYNAMIC'}`, code });
    list(c.EtimFeatures).forEach((f, fi) => {
      const featureCode = str(f.EtimFeatureCode);
      const value = xchangeFeatureValue(f, primary);
      if (featureCode && value !== null) features.push({ group: 'ETIM', code: featureCode, value });
      else if (featureCode && !f.ReasonNoValue)
        warn(
          warnings,
          'feature_without_value',
          `feature ${featureCode} has no value`,
          `.EtimClassification[${ci}].EtimFeatures[${fi}]`,
        );
    });
  });
  list(product.OtherClassifications).forEach((c) => {
    const name = String(c.ClassificationName ?? '')
      .toUpperCase()
      .replace(/[^A-Z]/g, '');
    const group = name.startsWith('ECLASS') ? 'ECLASS' : name.startsWith('PROFICLASS') ? 'PROFICLASS' : null;
    const code = str(c.ClassificationClassCode);
    if (!group || !code) return;
    const version = str(c.ClassificationVersion);
    classes.push({ group, system: version ? `${group}-${version}` : group, code });
    for (const f of list(c.ClassificationFeatures)) {
      const [v1, v2] = [str(f.ClassificationFeatureValue1), str(f.ClassificationFeatureValue2)];
      if (str(f.ClassificationFeatureName) && v1)
        features.push({ group, code: f.ClassificationFeatureName.trim(), value: v2 ? `${v1}..${v2}` : v1 });
    }
  });
  return classes.length > 0 ? { classes, features } : null;
}

/** Attachments as media links by file name (the URI's last segment), pictures first as `normal`. */
function mediaOf(attachments: Json[]): UpsertMediaRef[] {
  return attachments.flatMap((a) =>
    list(a.AttachmentDetails).flatMap((d) => {
      const uri = str(d.AttachmentUri);
      const fileName = str(d.AttachmentFilename) ?? str(uri?.split(/[?#]/)[0]?.split('/').pop());
      if (!fileName) return [];
      const description = list(d.AttachmentDescription)[0]?.AttachmentDescription;
      return [
        { fileName, purpose: a.AttachmentType === 'ATX018' ? 'normal' : 'others', description: str(description) },
      ];
    }),
  );
}

/**
 * The records of one xChange Product: one per TradeItem (its SupplierItemNumber is the SKU),
 * each with the product's descriptions (in the catalog's language; other languages are
 * reported, the model keeps one today), manufacturer, GTIN, classifications and attachments,
 * and the trade item's order unit and first price. Field problems are the upsert's (tolerant
 * unless strict), as in the BMEcat import.
 */
export function xchangeItemsOf(product: Json, envelope: XChangeEnvelope, catalogLanguage: string): XChangeItem[] {
  const warnings: FileWarning[] = [];
  const skipped: string[] = [];
  const primary = (languageTag(catalogLanguage) ?? catalogLanguage).slice(0, 2).toLowerCase();
  const identification = (product.ProductIdentification ?? {}) as Json;
  const details = (product.ProductDetails ?? {}) as Json;
  const descriptions = list(details.ProductDescriptions);
  const text = pick(descriptions, 'DescriptionLanguage', primary);
  if (descriptions.length > 1)
    skipped.push('descriptions in further languages are not kept yet (the catalog keeps one language)');
  const relations = list(product.ProductRelations);
  if (relations.length > 0) skipped.push('product relations are not kept yet (no product references in the model)');
  const classification = classificationOf(product, primary, warnings);
  const tradeItems = list(product.TradeItem);
  const base = {
    name: fullName(str(text?.MinimalProductDescription), str(text?.UniqueMainProductDescription)),
    description: str(text?.FullProductDescription) ?? str(text?.UniqueMainProductDescription),
    gtin: str((identification.ProductGtin ?? [])[0]),
    manufacturerName: str(identification.ManufacturerName),
    manufacturerPid: str(identification.ManufacturerProductNumber),
    keywords: Array.isArray(text?.ProductKeyword) ? text.ProductKeyword.join(', ') || null : null,
    status: PRODUCT_STATUS[String(details.ProductStatus ?? 'ACTIVE')] ?? 'active',
  };
  const media = mediaOf(list(product.ProductAttachments));
  if (tradeItems.length === 0) {
    const sku = base.manufacturerPid;
    if (!sku)
      return [
        { sku: null, record: null, problem: 'neither a TradeItem nor a ManufacturerProductNumber', skipped, warnings },
      ];
    warn(
      warnings,
      'trade_item_missing',
      'no TradeItem: the ManufacturerProductNumber is the SKU',
      '.ProductIdentification',
    );
    const record: UpsertRecord = {
      sku,
      fields: { ...base, price: null, unit: null },
      classification,
      media,
      values: {},
    };
    return [{ sku, record, problem: null, skipped, warnings }];
  }
  return tradeItems.map((item, i) => {
    const id = (item.ItemIdentification ?? {}) as Json;
    const sku = str(id.SupplierItemNumber);
    if (!sku)
      return { sku: null, record: null, problem: `TradeItem[${i}]: SupplierItemNumber is missing`, skipped, warnings };
    const ordering = (item.Ordering ?? {}) as Json;
    const price = list(item.Pricing)[0] ?? {};
    const itemText = pick(list((item.ItemDetails ?? {}).ItemDescriptions), 'DescriptionLanguage', primary);
    const record: UpsertRecord = {
      sku,
      fields: {
        ...base,
        name: base.name ?? str(itemText?.MinimalItemDescription),
        gtin: str((id.ItemGtin ?? [])[0]) ?? base.gtin,
        // A product number equal to the item number carries nothing (the exporter's fallback for the required field).
        manufacturerPid: base.manufacturerPid !== sku ? base.manufacturerPid : str(id.ManufacturerItemNumber),
        unit: str(ordering.OrderUnit),
        deliveryTimeDays: Number.isInteger(ordering.StandardOrderLeadTime)
          ? String(ordering.StandardOrderLeadTime)
          : null,
        price: str(price.NetPrice) ?? str(price.GrossListPrice) ?? str(price.RecommendedRetailPrice),
        priceQuantity: str(price.PriceQuantity)?.replace(/\.0*$/, '') ?? null,
        status: PRODUCT_STATUS[String((item.ItemDetails ?? {}).ItemStatus ?? '')] ?? base.status,
      },
      classification,
      media: [...media, ...mediaOf(list(item.ItemAttachments))],
      values: {},
    };
    return { sku, record, problem: null, skipped, warnings: [...warnings] };
  });
}
