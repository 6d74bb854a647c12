import type { UpsertRecord } from '../../catalog/upsert/upsert-types';
import { mediaOf, udxOf } from './bmecat-media';
import { stagedLinks } from './category-links';
import type { StoredFeature } from '../../model/feature-block-types';
import { normaliseBlock } from '../../model/feature-block-types';
import { groupOfSystem } from '../../catalog/upsert/resolve/reference-cache';
import { ATTRIBUTE_SYSTEM } from '../../exports/bmecat/feature-blocks';
import { child, children, textOf, type XmlNode } from '../read/xml-node';
import { actionOf, type FileWarning, type ProductAction } from './record-actions';
import { priceBaseWarnings, priceListOf, type PriceReading } from './bmecat-prices';
import { isNegative } from '../../kernel/decimal';
import { featureBlockOf, isAdvancedBlock } from './feature-block-reader';
import { bmecatModellingBlock } from './bmecat-modelling';
import { readEtimDynamic } from './bmecat-etim-dynamic';
import { ETIM_DYNAMIC_UDX } from '../../model/class-version';
import { textsByLanguage, type FileLanguages } from '../read/file-languages';
import { detailsField } from '../../model/translation-store';
import { detailsWarnings } from './bmecat-unkept';
import { orderDetailsOf, orderDetailsWarnings } from './bmecat-order-details';

export type { FileWarning, ProductAction };

/** A CATALOG_STRUCTURE of the file's group system. */
export interface FileGroup {
  groupId: string;
  parentGroupId: string | null;
  name: string;
  description: string | null;
  sortOrder: number;
  isRoot: boolean;
  /** The group's MIME_INFO (links and file references) as staged JSON (category-links.ts), null without. */
  links: string | null;
  /** GROUP_NAME / GROUP_DESCRIPTION / KEYWORD in the catalog's further languages: language -> field -> text. */
  translations?: Record<string, { name?: string; description?: string; keywords?: string }>;
  /** What else the group carries (written by the products pass, group-data.ts); absent when nothing. */
  data?: GroupData;
}

/**
 * A group's KEYWORDs (the default language's, joined by ", "), FEATUREs (as a feature block's
 * features) and USER_DEFINED_EXTENSIONS (verbatim XML); null parts are not in the group.
 */
export interface GroupData {
  keywords: string | null;
  features: StoredFeature[] | null;
  udx: string | null;
}

/** The group's data besides its name, order and media (docs/import.md "Category data"), or undefined. */
function groupDataOf(node: XmlNode, keywords: string | null): GroupData | undefined {
  const { block } = featureBlockOf(node);
  const features = block.features.length > 0 ? normaliseBlock(block).features : null;
  const udx = udxOf(node);
  return keywords || features || udx ? { keywords: keywords || null, features, udx } : undefined;
}

/** A file read without language plan (the validation pass): every text is the catalog's. */
const ONE_LANGUAGE: FileLanguages = { fileDefault: '', catalogLanguage: '', skip: [] };

/**
 * The texts of one localizable field by language: the catalog's default language's texts,
 * and every further language's (joined by `join`). Elements of one language only, without
 * labels, read as before languages existed.
 */
function localized(elements: XmlNode[], languages: FileLanguages, join: (texts: string[]) => string) {
  const byLanguage = textsByLanguage(elements, languages);
  const own = byLanguage.get(languages.catalogLanguage);
  byLanguage.delete(languages.catalogLanguage);
  return {
    /** The default language's text; undefined when the file has the field only in other languages. */
    own: own ? join(own) : byLanguage.size > 0 ? undefined : null,
    others: [...byLanguage].map(([language, texts]) => [language, join(texts)] as const),
  };
}

/** One PRODUCT read from the file: the record to upsert, or why it cannot be. */
interface FileProduct {
  sku: string | null;
  record: UpsertRecord | null;
  problem: string | null;
  action: ProductAction;
  /** What was left out, e.g. feature blocks of a system the service does not know (job warnings). */
  skipped: string[];
  /** Field problems met while reading (tolerant imports); the upsert adds its own (import-batches.ts). */
  warnings: FileWarning[];
  /** Where each field the record sets came from (field → line and path), for the upsert's warnings. */
  origins: Map<string, { line: number; path: string }>;
}

export function groupOf(node: XmlNode, languages: FileLanguages = ONE_LANGUAGE): FileGroup | null {
  const groupId = textOf(node, 'GROUP_ID');
  if (!groupId) return null;
  const parent = textOf(node, 'PARENT_ID');
  const order = Number(textOf(node, 'GROUP_ORDER') ?? '0');
  const first = (texts: string[]) => texts[0]!;
  const name = localized(children(node, 'GROUP_NAME'), languages, first);
  const description = localized(children(node, 'GROUP_DESCRIPTION'), languages, first);
  const keywords = localized(children(node, 'KEYWORD'), languages, (t) => t.join(', '));
  const translations: NonNullable<FileGroup['translations']> = {};
  for (const [language, text] of name.others) (translations[language] ??= {}).name = text;
  for (const [language, text] of description.others) (translations[language] ??= {}).description = text;
  for (const [language, text] of keywords.others) (translations[language] ??= {}).keywords = text;
  const data = groupDataOf(node, keywords.own ?? null);
  return {
    groupId,
    parentGroupId: parent && parent !== '0' ? parent : null,
    // A group named only in other languages still needs a name: its first one.
    name: name.own ?? name.others[0]?.[1] ?? groupId,
    description: description.own ?? null,
    sortOrder: Number.isInteger(order) ? order : 0,
    isRoot: node.attrs.type === 'root',
    links: stagedLinks(mediaOf(node)),
    ...(Object.keys(translations).length > 0 ? { translations } : {}),
    ...(data ? { data } : {}),
  };
}

export function mapEntryOf(node: XmlNode): { sku: string; groupId: string } | null {
  const sku = textOf(node, 'PROD_ID', 'ART_ID');
  const groupId = textOf(node, 'CATALOG_GROUP_ID');
  return sku && groupId ? { sku, groupId } : null;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** FVALUEs back into one stored value: two numbers are a range "min..max" (as the exporter splits ranges). */
function joinValues(values: string[]): string {
  if (values.length === 2 && NUMBER.test(values[0]!) && NUMBER.test(values[1]!)) return `${values[0]}..${values[1]}`;
  return values.join(', ');
}

/**
 * A classification feature's FVALUE_DETAILS (`details`) per language as the record's `details.<GROUP>.<code>`
 * translations (docs/languages.md): the field has no column, so every language, the catalog's
 * default too, is a translation; the first text of a language is kept.
 */
function featureDetails(details: XmlNode[], field: string, record: UpsertRecord, languages: FileLanguages) {
  for (const [language, texts] of textsByLanguage(details, languages))
    ((record.translations ??= {})[language] ??= {})[field] = texts[0]!;
}

function features(
  product: XmlNode,
  record: UpsertRecord,
  skipped: string[],
  origins: FileProduct['origins'],
  warnings: FileWarning[],
  languages: FileLanguages,
  ownExport: boolean,
) {
  const classes: NonNullable<UpsertRecord['classification']>['classes'] = [];
  const featureList: NonNullable<UpsertRecord['classification']>['features'] = [];
  const otherBlocks: NonNullable<UpsertRecord['featureBlocks']> = [];
  for (const block of children(product, 'PRODUCT_FEATURES', 'ARTICLE_FEATURES')) {
    const system = textOf(block, 'REFERENCE_FEATURE_SYSTEM_NAME');
    const group = isAdvancedBlock(block) ? null : groupOfSystem(system);
    const prefix = group ? 'classification.features.' : 'values.';
    const featurePath = `${block.name}/FEATURE`;
    // One walk over each FEATURE's children (FNAME, FVALUE, FVALUE_DETAILS), not a lookup each:
    // a product has a dozen features, and this was the largest part of mapping it.
    const entries: { code: string; value: string; unit: string | null }[] = [];
    for (const f of block.children) {
      if (f.name !== 'FEATURE') continue;
      let code: string | null | undefined;
      let unit: string | null = null;
      const values: string[] = [];
      let details: XmlNode[] | null = null;
      for (const c of f.children) {
        if (c.name === 'FNAME') {
          if (code === undefined) code = c.text.trim() || null;
        } else if (c.name === 'FVALUE') {
          const value = c.text.trim();
          if (value !== '') values.push(value);
        } else if (c.name === 'FUNIT') unit ??= c.text.trim() || null;
        else if (c.name === 'FVALUE_DETAILS') (details ??= []).push(c);
      }
      if (!code) continue;
      origins.set(prefix + code, { line: f.line, path: featurePath });
      if (values.length === 0) continue;
      if (group && details) featureDetails(details, detailsField(group, code), record, languages);
      entries.push({ code, value: joinValues(values), unit });
    }
    if (group) {
      const classCode = textOf(block, 'REFERENCE_FEATURE_GROUP_ID');
      if (classCode) classes.push({ group, system, code: classCode });
      const classNode = child(block, 'REFERENCE_FEATURE_GROUP_ID') ?? block;
      if (!origins.has('classification.classes'))
        origins.set('classification.classes', { line: classNode.line, path: `${block.name}/${classNode.name}` });
      // FUNIT rides along: the upsert keeps it only for a value no reference data confirms (kept as text).
      for (const e of entries)
        featureList.push({ group, code: e.code, value: e.value, ...(e.unit ? { unit: e.unit } : {}) });
    } else if (system === ATTRIBUTE_SYSTEM) {
      record.values = Object.fromEntries(entries.map((e) => [e.code, e.value]));
    } else {
      const { block: kept, dropped } = featureBlockOf(block, ownExport);
      otherBlocks.push(kept);
      if (dropped > 0) {
        const message = `${dropped} FEATURE(s) without FNAME or FT_ID left out of the ${system ?? '(unnamed)'} block`;
        skipped.push(message);
        warnings.push({ code: 'feature_dropped', message, line: block.line, path: block.name });
      }
    }
  }
  // The ETIM guideline's modelling class (UDX.EDXF.PRODUCT_FEATURES_MC) is a block of its own.
  const modelling = bmecatModellingBlock(product, warnings);
  if (modelling) otherBlocks.push(modelling);
  record.featureBlocks = otherBlocks;
  record.classification = classes.length > 0 ? { classes, features: featureList } : null;
  // A DYNAMIC class's model date goes with the class, not into the verbatim UDX too.
  if (readEtimDynamic(product, classes, warnings)) record.udx = udxOf(product, [ETIM_DYNAMIC_UDX]);
  if (!record.values) record.values = {};
}

/** Price types that say "no price": the `price` field is the first price of another type. */
const NO_PRICE_TYPES: ReadonlySet<string> = new Set(['on_request', 'udp_onrequest']);

/** The price elements of the product's first price block (the `price` field is the first listed one). */
function pricesOf(product: XmlNode): XmlNode[] {
  return children(child(product, 'PRODUCT_PRICE_DETAILS', 'ARTICLE_PRICE_DETAILS'), 'PRODUCT_PRICE', 'ARTICLE_PRICE');
}

function statusOf(details: XmlNode | undefined): string {
  const status = child(details, 'PRODUCT_STATUS', 'ARTICLE_STATUS');
  if (!status) return 'active';
  const text = status.text.trim().toLowerCase();
  if (text === 'draft') return 'draft';
  if (text === 'discontinued' || status.attrs.type === 'old_product' || status.attrs.type === 'old_article')
    return 'discontinued';
  return 'active';
}

/** The reference that names a PRODUCT's base product (2005, ETIM), or an ARTICLE's first with type `others` (1.2, as the exporter writes it). */
function masterReference(product: XmlNode): XmlNode | undefined {
  return children(product, 'PRODUCT_REFERENCE', 'ARTICLE_REFERENCE').find((r) =>
    r.name === 'PRODUCT_REFERENCE'
      ? r.attrs.type === 'base_product'
      : r.attrs.type === 'others' || r.attrs.type === 'base_product',
  );
}

function masterOf(product: XmlNode): string | null {
  const ref = masterReference(product);
  return ref ? textOf(ref, 'PROD_ID_TO', 'ART_ID_TO') : null;
}

/**
 * The product references of a PRODUCT (PRODUCT_REFERENCE with PROD_ID_TO) or ARTICLE
 * (ARTICLE_REFERENCE with ART_ID_TO), in file order, except the one naming the master: type and
 * `quantity` as written (the upsert checks them), the target by its SKU, with REFERENCE_DESCR
 * (the first) and the target's CATALOG_ID / CATALOG_VERSION (docs/import.md "Product references").
 */
function referencesOf(product: XmlNode): NonNullable<UpsertRecord['references']> {
  const master = masterReference(product);
  return children(product, 'PRODUCT_REFERENCE', 'ARTICLE_REFERENCE').flatMap((r) => {
    if (r === master) return [];
    const quantity = r.attrs.quantity?.trim();
    return [
      {
        type: r.attrs.type ?? '',
        targetSku: textOf(r, 'PROD_ID_TO', 'ART_ID_TO') ?? '',
        quantity: quantity ? Number(quantity) : null,
        descr: textOf(r, 'REFERENCE_DESCR'),
        targetCatalog: textOf(r, 'CATALOG_ID'),
        targetCatalogVersion: textOf(r, 'CATALOG_VERSION'),
      },
    ];
  });
}

/** Where a field's element is, for warnings: its line and path below the record. */
function origin(node: XmlNode | undefined, path: string, fallback: XmlNode) {
  return { line: (node ?? fallback).line, path: node ? path : '' };
}

/**
 * A PRODUCT (2005, ETIM guideline) or ARTICLE (1.01, 1.2) as an upsert record. The file
 * describes the whole product, so fields it leaves out are cleared and collections it carries
 * replace the stored ones; placements come later, from the group map. In T_UPDATE_PRICES only
 * the price is read; a product of T_UPDATE_PRODUCTS with mode="delete" needs only its SKU.
 * Field problems are the upsert's to handle (tolerant without `strict`: resolve-record.ts).
 */
export function productOf(
  node: XmlNode,
  path = '',
  languages: FileLanguages = ONE_LANGUAGE,
  prices?: PriceReading,
  /** The file is one of our own BMEcat exports (file-header.ts): read by its conventions. */
  ownExport = false,
): FileProduct {
  const sku = textOf(node, 'SUPPLIER_PID', 'SUPPLIER_AID');
  const action = actionOf(node, path);
  const skipped: string[] = [];
  const warnings: FileWarning[] = [];
  const origins: FileProduct['origins'] = new Map();
  const base = { sku, action, skipped, warnings, origins };
  const idName = node.name === 'ARTICLE' ? 'SUPPLIER_AID' : 'SUPPLIER_PID';
  if (!sku) return { ...base, record: null, problem: `${idName} is missing` };
  // The default price is the first that is neither on request nor a credit nor a formula (defaultIndex).
  const priceNode = pricesOf(node).find(
    (p) =>
      !NO_PRICE_TYPES.has((p.attrs.price_type ?? '').trim().toLowerCase()) &&
      !isNegative(textOf(p, 'PRICE_AMOUNT')?.trim() ?? '') &&
      !child(p, 'PRICE_FORMULA'),
  );
  const priceAmount = child(priceNode, 'PRICE_AMOUNT');
  origins.set(
    'price',
    origin(
      priceAmount,
      `${child(node, 'PRODUCT_PRICE_DETAILS', 'ARTICLE_PRICE_DETAILS')?.name}/${priceNode?.name}/PRICE_AMOUNT`,
      node,
    ),
  );
  const price = priceAmount?.text.trim() || null;
  if (action === 'delete') return { ...base, record: { sku, fields: {} }, problem: null };
  warnings.push(...priceBaseWarnings(node));
  if (action === 'prices')
    return { ...base, record: { sku, fields: { price }, prices: priceListOf(node, prices, warnings) }, problem: null };
  const details = child(node, 'PRODUCT_DETAILS', 'ARTICLE_DETAILS');
  const order = child(node, 'PRODUCT_ORDER_DETAILS', 'ARTICLE_ORDER_DETAILS');
  const gtinNode =
    children(details, 'INTERNATIONAL_PID').find((p) => /^(gtin|ean)$/i.test(p.attrs.type ?? '')) ??
    child(details, 'EAN');
  origins.set('gtin', origin(gtinNode, `${details?.name}/${gtinNode?.name}`, node));
  const gtin = gtinNode?.text.trim() || null;
  const delivery = textOf(details, 'DELIVERY_TIME');
  const name = localized(children(details, 'DESCRIPTION_SHORT'), languages, (t) => t[0]!);
  const description = localized(children(details, 'DESCRIPTION_LONG'), languages, (t) => t[0]!);
  const keywords = localized(children(details, 'KEYWORD'), languages, (t) => t.join(', '));
  const translations: NonNullable<UpsertRecord['translations']> = {};
  for (const [field, texts] of Object.entries({ name, description, keywords }))
    for (const [language, text] of texts.others) (translations[language] ??= {})[field] = text;
  const unitNode = child(order, 'ORDER_UNIT');
  const unitPath = `${order?.name}/ORDER_UNIT`;
  origins.set('unit', origin(unitNode, unitPath, node));
  const unit = unitNode?.text.trim() || null;
  const record: UpsertRecord = {
    sku,
    parentSku: masterOf(node),
    fields: {
      name: name.own,
      description: description.own,
      gtin,
      manufacturerPid: textOf(details, 'MANUFACTURER_PID', 'MANUFACTURER_AID'),
      manufacturerName: textOf(details, 'MANUFACTURER_NAME'),
      deliveryTimeDays: delivery && NUMBER.test(delivery) ? String(Math.ceil(Number(delivery))) : delivery,
      keywords: keywords.own,
      status: statusOf(details),
      unit,
      priceQuantity: textOf(order, 'PRICE_QUANTITY'),
      ...orderDetailsOf(order, unit),
      price,
    },
    media: mediaOf(node, languages),
    references: referencesOf(node),
    udx: udxOf(node),
    ...(Object.keys(translations).length > 0 ? { translations } : {}),
  };
  // A field the file gives only in further languages leaves the default language's column alone.
  for (const field of ['name', 'description', 'keywords'] as const)
    if (record.fields[field] === undefined) delete record.fields[field];
  detailsWarnings(details, warnings);
  orderDetailsWarnings(order, warnings);
  features(node, record, skipped, origins, warnings, languages, ownExport);
  record.prices = priceListOf(node, prices, warnings);
  return { ...base, record, problem: null };
}
