import type { RecordTranslations, UpsertRecord } from '../../catalog/upsert/upsert-types';
import type { FileWarning } from './record-actions';
import type { XChangeEnvelope } from '../read/xchange-reader';
import { languageTag } from '../../exports/xchange/xchange-codes';
import { xchangeTexts, type XChangeLanguages } from './xchange-languages';
import { xchangeMediaOf } from './xchange-media';
import { xchangePricesOf } from './xchange-prices';
import { xchangeClassificationOf } from './xchange-classes';
import { MODELLING_SYSTEM } from '../../model/feature-block-types';
import { itemRelationsOf, productRelationsOf } from './xchange-relations';
import { xchangeUnkept } from './xchange-unkept';

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

/** A quantity other than 1 (xChange's default, what the export writes for "not set"), as text. */
const quantity = (v: unknown): string | null => {
  const text = typeof v === 'number' ? String(v) : str(v);
  return text && Number(text.replace(',', '.')) !== 1 ? text : null;
};

/**
 * A trade item's Ordering as a product's order details (docs/import.md "ETIM xChange"):
 * MinimumOrderQuantity and OrderStepSize, UseUnit (when it is not the order unit) and
 * UseUnitConversionFactor. Values of 1 and a UseUnit equal to the OrderUnit are "not set".
 */
function xchangeOrderDetails(ordering: Json, unit: string | null) {
  const use = str(ordering.UseUnit);
  return {
    contentUnit: use && use !== unit ? use : null,
    contentPerUnit: quantity(ordering.UseUnitConversionFactor),
    quantityMin: quantity(ordering.MinimumOrderQuantity),
    quantityInterval: quantity(ordering.OrderStepSize),
  };
}
const warn = (warnings: FileWarning[], code: string, message: string, path: string) =>
  warnings.push({ code, message, line: 0, path });

/** One warning naming what a record carries that no field stores (xchange-unkept.ts). */
function unkeptWarning(warnings: FileWarning[], names: string[], path: string) {
  if (names.length > 0)
    warn(
      warnings,
      'details_not_kept',
      `${names.join(', ')} not kept: a product has no field for ${names.length > 1 ? 'them' : 'it'}`,
      path,
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

/** The texts of one ProductDescriptions entry as the record's fields hold them. */
const descriptionTexts = (text: Json | undefined) => ({
  name: fullName(str(text?.MinimalProductDescription), str(text?.UniqueMainProductDescription)),
  description: str(text?.FullProductDescription) ?? str(text?.UniqueMainProductDescription),
  keywords: Array.isArray(text?.ProductKeyword) ? text.ProductKeyword.join(', ') || null : null,
});

/**
 * The records of one xChange Product: one per TradeItem (its SupplierItemNumber is the SKU),
 * each with the product's descriptions in every language of the file (the catalog's default
 * language into the fields, the others into `translations`; a field given only in other
 * languages leaves the default language's column alone, as the BMEcat import does), the
 * manufacturer, GTIN, classifications, attachments (links and file references) and
 * ProductRelations, and the trade item's order unit, every price (xchange-prices.ts), its
 * ItemRelations and ItemAttachments. Field problems are the upsert's (tolerant unless strict),
 * as in BMEcat; what the model cannot hold is reported per record, naming the field.
 * `catalogCurrency`: prices in the file's CurrencyCode keep it unless it is the catalog's.
 */
export function xchangeItemsOf(
  product: Json,
  envelope: XChangeEnvelope,
  languages: XChangeLanguages,
  catalogCurrency: string | null = null,
): XChangeItem[] {
  const warnings: FileWarning[] = [];
  const skipped: string[] = [];
  const catalogLanguage = languages.catalogLanguage;
  const primary = (languageTag(catalogLanguage) ?? catalogLanguage).slice(0, 2).toLowerCase();
  const identification = (product.ProductIdentification ?? {}) as Json;
  const details = (product.ProductDetails ?? {}) as Json;
  const texts = xchangeTexts(list(details.ProductDescriptions), 'DescriptionLanguage', languages);
  const relations = productRelationsOf(product);
  const translations: RecordTranslations = {};
  for (const [code, text] of texts.others) translations[code] = descriptionTexts(text);
  const { classification, modelling, others } = xchangeClassificationOf(
    product,
    primary,
    languages,
    translations,
    warnings,
  );
  // The file's modelling class and its blocks of other systems replace the stored blocks of those
  // systems; blocks of systems the file does not name (a BMEcat import's) stay.
  const blocks = {
    featureBlocks: [...modelling, ...others],
    featureBlockSystems: [MODELLING_SYSTEM, ...others.map((b) => b.system)],
  };
  const tradeItems = list(product.TradeItem);
  // undefined: the file gives the texts only in other languages (the columns are left alone).
  const own: Partial<ReturnType<typeof descriptionTexts>> =
    texts.own || texts.others.length === 0 ? descriptionTexts(texts.own) : {};
  const base = {
    ...own,
    gtin: str((identification.ProductGtin ?? [])[0]),
    manufacturerName: str(identification.ManufacturerName),
    manufacturerPid: str(identification.ManufacturerProductNumber),
    status: PRODUCT_STATUS[String(details.ProductStatus ?? 'ACTIVE')] ?? 'active',
  };
  const media = xchangeMediaOf(list(product.ProductAttachments), languages, warnings);
  const withTranslations = (record: UpsertRecord, extra: RecordTranslations = {}): UpsertRecord => {
    const all = structuredClone(translations);
    for (const [code, fields] of Object.entries(extra)) all[code] = { ...fields, ...all[code] };
    return Object.keys(all).length > 0 ? { ...record, translations: all } : record;
  };
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
    unkeptWarning(warnings, xchangeUnkept(product, undefined), '');
    const record: UpsertRecord = {
      sku,
      fields: { ...base, price: null, unit: null },
      classification,
      ...blocks,
      media,
      references: relations,
      values: {},
    };
    return [{ sku, record: withTranslations(record), problem: null, skipped, warnings }];
  }
  return tradeItems.map((item, i) => {
    const id = (item.ItemIdentification ?? {}) as Json;
    const sku = str(id.SupplierItemNumber);
    if (!sku)
      return { sku: null, record: null, problem: `TradeItem[${i}]: SupplierItemNumber is missing`, skipped, warnings };
    const ordering = (item.Ordering ?? {}) as Json;
    const itemWarnings = [...warnings];
    unkeptWarning(itemWarnings, xchangeUnkept(product, item), tradeItems.length > 1 ? `.TradeItem[${i}]` : '');
    const unit = str(ordering.OrderUnit);
    const priced = xchangePricesOf(
      list(item.Pricing),
      { catalogCurrency, fileCurrency: envelope.currency, orderUnit: unit },
      `.TradeItem[${i}]`,
      itemWarnings,
    );
    // A language without a product name takes the trade item's minimal description in that language.
    const itemTexts = xchangeTexts(list((item.ItemDetails ?? {}).ItemDescriptions), 'DescriptionLanguage', languages);
    const itemNames: RecordTranslations = {};
    for (const [code, text] of itemTexts.others)
      if (!translations[code]?.name && str(text.MinimalItemDescription))
        itemNames[code] = { name: str(text.MinimalItemDescription) };
    const ownName =
      base.name ?? str(itemTexts.own?.MinimalItemDescription) ?? (base.name === undefined ? undefined : null);
    const fields: UpsertRecord['fields'] = {
      ...base,
      name: ownName,
      gtin: str((id.ItemGtin ?? [])[0]) ?? base.gtin,
      // A product number equal to the item number carries nothing (the exporter's fallback for the required field).
      manufacturerPid: base.manufacturerPid !== sku ? base.manufacturerPid : str(id.ManufacturerItemNumber),
      unit,
      deliveryTimeDays: Number.isInteger(ordering.StandardOrderLeadTime)
        ? String(ordering.StandardOrderLeadTime)
        : null,
      price: priced.price,
      priceQuantity: priced.priceQuantity,
      ...xchangeOrderDetails(ordering, unit),
      status: PRODUCT_STATUS[String((item.ItemDetails ?? {}).ItemStatus ?? '')] ?? base.status,
    };
    // A field the file gives only in further languages leaves the default language's column alone.
    for (const field of ['name', 'description', 'keywords'] as const)
      if (fields[field] === undefined) delete fields[field];
    const record: UpsertRecord = {
      sku,
      fields,
      classification,
      ...blocks,
      media: [
        ...media,
        ...xchangeMediaOf(list(item.ItemAttachments), languages, itemWarnings, `.TradeItem[${i}].ItemAttachments`),
      ],
      prices: priced.prices,
      references: [...relations, ...itemRelationsOf(item)],
      values: {},
    };
    return { sku, record: withTranslations(record, itemNames), problem: null, skipped, warnings: itemWarnings };
  });
}
