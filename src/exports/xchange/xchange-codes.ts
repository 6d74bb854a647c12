/**
 * Code lists of the ETIM xChange V2.0 JSON Schema (schemas/etim-xchange), copied from its
 * enumerations and patterns so the exporter writes only values the schema admits, and the
 * importer maps the same codes back. One home for both directions.
 */

/** `OrderUnit` / `PriceUnit` / `UseUnit` of a TradeItem (64 UN/ECE Rec. 20 codes, schema order). */
export const XCHANGE_UNITS: ReadonlySet<string> = new Set(
  (
    'ANN BE BG BO BX C62 CA CI CL CMK CMQ CMT CQ CR CS CT D99 DAY DR DZN FOT FTQ GRM HLT HUR INH INQ KG KGM ' +
    'KTM LBR LTN LTR MGM MIN MLT MMK MMQ MMT MTK MTQ MTR ONZ PA PF PK PL PR PU RG RL RO SA SEC SET SMI ST TN ' +
    'TNE TU WEE YRD Z2 Z3'
  ).split(' '),
);

/** Decimal strings of amounts and quantities: `^[0-9]{1,11}[.]{0,1}[0-9]{0,4}$` (prices). */
export const XCHANGE_PRICE = /^[0-9]{1,11}(\.[0-9]{0,4})?$/;
/** Feature numbers: `^[-]{0,1}[0-9]{1,12}[.]{0,1}[0-9]{0,4}$`. */
export const XCHANGE_NUMBER = /^-?[0-9]{1,12}(\.[0-9]{0,4})?$/;
export const ETIM_CLASS_CODE = /^EC[0-9]{6}$/;
export const ETIM_FEATURE_CODE = /^EF([0-9]{6}|I[0-9]{5}|[A-Z]{2}[0-9]{4})$/;
export const ETIM_VALUE_CODE = /^EV[0-9]{6}$/;
/** `EtimReleaseVersion`: "9.0", "10.0" or "DYNAMIC". */
export const ETIM_RELEASE = /^([0-9]{1,2}\.[0-9]|DYNAMIC)$/;
/** xChange languages are BCP 47 tags of the form `en-GB`. */
export const XCHANGE_LANGUAGE = /^[a-z]{2}-[A-Z]{2}$/;

/** ATX018: product picture; ATX099: any other document (the schema's `AttachmentType`). */
export const ATTACHMENT_PICTURE = 'ATX018';
export const ATTACHMENT_OTHER = 'ATX099';

/**
 * `AttachmentType` of a product's or trade item's attachment (the V2.0 schema's enumeration):
 * ATX004 a declaration, ATX014 a manual … A media entry keeps a code other than ATX018 / ATX099
 * in its `attachment` (kernel/media-attachment.ts); the export writes it back.
 */
export const ATTACHMENT_TYPES: ReadonlySet<string> = new Set(
  '001 002 003 004 010 011 012 013 014 015 016 017 018 019 020 021 022 023 024 025 026 099'
    .split(' ')
    .map((n) => `ATX${n}`),
);

/**
 * `AttachmentTypeSpecification` (the schema's enumeration): what kind of document or picture an
 * attachment is (MDX049 a RoHS declaration ...). A link keeps it as its `mimeCode` (the field
 * that holds BMEcat's ETIM MIME code MD01 ... for links read from BMEcat).
 */
export const ATTACHMENT_SPECIFICATIONS: ReadonlySet<string> = new Set(
  (
    '002 005 007 008 010 012 013 014 015 016 017 018 019 020 021 022 023 024 025 026 027 028 029 030 033 034 035 ' +
    '037 038 039 041 042 045 047 048 049 050 051 052 053 054 055 057 058 059 060 061 062 063 064 065 100 101 102 ' +
    '103 104 105 106 107 108 109 999'
  )
    .split(' ')
    .map((n) => `MDX${n}`),
);

/**
 * xChange's amount fields and the price types they are stored as, in the order one `Pricing`
 * entry's amounts are read: NetPrice first, so a product's `price` (the list's first amount) is
 * the net price where the file gives one, as before the list was kept. GrossListPrice is the
 * list price before discounts without VAT (BMEcat's net_list), RecommendedRetailPrice the
 * non-binding retail price (nrp). The exporter writes the same mapping back (xchange-pricing.ts); the import reads them in xchange-prices.ts.
 */
export const XCHANGE_AMOUNTS = [
  ['NetPrice', 'net_customer'],
  ['GrossListPrice', 'net_list'],
  ['RecommendedRetailPrice', 'nrp'],
] as const;

/**
 * xChange RelationType (V1.1 and V2.0) to the model's reference types (BMEcat's). The types
 * without a counterpart (CONSUMABLES, CROSS-SELLING, MAIN_PRODUCT, PREDECESSOR, REFURBISHED,
 * UPSELLING, USED) are passed as written: the upsert stores them as `others` and reports each
 * (`reference_type`, naming the type), as it does for a BMEcat type it does not know.
 * SPARE_PART is a spelling some tools write for SPAREPART.
 */
export const REFERENCE_TYPE: Record<string, string> = {
  ACCESSORY: 'accessories',
  SPAREPART: 'sparepart',
  SPARE_PART: 'sparepart',
  SIMILAR: 'similar',
  SUCCESSOR: 'followup',
  MANDATORY: 'mandatory',
  SELECT: 'select',
  CONSISTS_OF: 'consists_of',
  OTHER: 'others',
};

/** The model's reference types as xChange RelationType (the exporter's direction; the import's is REFERENCE_TYPE). */
export const RELATION_TYPE: Record<string, string> = {
  accessories: 'ACCESSORY',
  sparepart: 'SPAREPART',
  similar: 'SIMILAR',
  followup: 'SUCCESSOR',
  mandatory: 'MANDATORY',
  select: 'SELECT',
  consists_of: 'CONSISTS_OF',
  others: 'OTHER',
};

/**
 * ISO 639-2 codes (the catalog's language) to the BCP 47 tag xChange writes, with the region
 * where the language is mostly spoken in ETIM's member countries. Unknown codes fall back to
 * `en-GB` (reported by the exporter).
 */
const LANGUAGE_TAGS: Record<string, string> = {
  deu: 'de-DE',
  ger: 'de-DE',
  eng: 'en-GB',
  fra: 'fr-FR',
  fre: 'fr-FR',
  nld: 'nl-NL',
  dut: 'nl-NL',
  ita: 'it-IT',
  spa: 'es-ES',
  por: 'pt-PT',
  pol: 'pl-PL',
  ces: 'cs-CZ',
  cze: 'cs-CZ',
  dan: 'da-DK',
  swe: 'sv-SE',
  nor: 'nb-NO',
  nob: 'nb-NO',
  fin: 'fi-FI',
  est: 'et-EE',
  lav: 'lv-LV',
  lit: 'lt-LT',
  hun: 'hu-HU',
  slk: 'sk-SK',
  slo: 'sk-SK',
  slv: 'sl-SI',
  hrv: 'hr-HR',
  ron: 'ro-RO',
  rum: 'ro-RO',
  bul: 'bg-BG',
  ell: 'el-GR',
  gre: 'el-GR',
  tur: 'tr-TR',
  rus: 'ru-RU',
  ukr: 'uk-UA',
  zho: 'zh-CN',
  chi: 'zh-CN',
  jpn: 'ja-JP',
};

/** The BCP 47 tag of an ISO 639-2 code, or null when there is none in the table. */
export function languageTag(iso6392: string): string | null {
  return LANGUAGE_TAGS[iso6392.toLowerCase()] ?? null;
}

/** The ISO 639-2 code of a BCP 47 tag (first match in the table), or null. */
export function languageCode(tag: string): string | null {
  const wanted = tag.toLowerCase();
  for (const [code, t] of Object.entries(LANGUAGE_TAGS)) if (t.toLowerCase() === wanted) return code;
  const primary = wanted.slice(0, 2);
  for (const [code, t] of Object.entries(LANGUAGE_TAGS)) if (t.slice(0, 2) === primary) return code;
  return null;
}
