/**
 * Reads back the BMEcat files this service writes, for e2e assertions. It runs only on files
 * xmllint has already validated against their schema, so element structure is known to be
 * right; it extracts values with patterns over that structure and decodes the five entities
 * and the character references the exporter writes.
 */
export interface ReadFeature {
  name: string;
  values: string[];
  unit: string | null;
}

export interface ReadFeatureBlock {
  system: string | null;
  groupId: string | null;
  features: ReadFeature[];
}

export interface ReadProduct {
  pid: string;
  descriptionShort: string | null;
  descriptionLong: string | null;
  gtin: string | null;
  manufacturerName: string | null;
  manufacturerPid: string | null;
  keywords: string[];
  orderUnit: string | null;
  priceType: string | null;
  priceAmount: string | null;
  priceCurrency: string | null;
  media: string[];
  references: { type: string; to: string }[];
  blocks: ReadFeatureBlock[];
}

export interface ReadGroup {
  id: string;
  name: string;
  parentId: string;
  type: string;
}

export function decode(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'amp') return '&';
    if (e === 'quot') return '"';
    if (e === 'apos') return "'";
    return String.fromCodePoint(e.startsWith('#x') ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
  });
}

/** Text of every `<name ...>text</name>` directly in `xml` (no nested elements of that name in this format). */
export function all(xml: string, name: string): string[] {
  const pattern = new RegExp(
    `<${name.replace(/\./g, '\\.')}(?:\\s[^>]*)?>([^<]*)</${name.replace(/\./g, '\\.')}>`,
    'g',
  );
  return [...xml.matchAll(pattern)].map((m) => decode(m[1]!));
}

export function one(xml: string, name: string): string | null {
  return all(xml, name)[0] ?? null;
}

function blocks(xml: string, name: string): { attrs: string; body: string }[] {
  const pattern = new RegExp(`<${name}((?:\\s[^>]*)?)>([\\s\\S]*?)</${name}>`, 'g');
  return [...xml.matchAll(pattern)].map((m) => ({ attrs: m[1] ?? '', body: m[2]! }));
}

function attr(attrs: string, name: string): string | null {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(attrs);
  return m ? decode(m[1]!) : null;
}

/**
 * Text of every `<name>` in the file's default language: without `lang`, or with the `lang` of
 * the HEADER's `LANGUAGE default="true"` (a catalog in several languages writes each element
 * once per language, docs/languages.md).
 */
function allInDefault(xml: string, name: string, language: string | null): string[] {
  const pattern = new RegExp(`<${name}((?:\\s[^>]*)?)>([^<]*)</${name}>`, 'g');
  return [...xml.matchAll(pattern)]
    .filter((m) => {
      const lang = attr(m[1] ?? '', 'lang');
      return lang === null || language === null || lang === language;
    })
    .map((m) => decode(m[2]!));
}

/** Every PRODUCT (2005, ETIM) or ARTICLE (1.2) of a document, in file order; texts in its default language. */
export function readProducts(xml: string): ReadProduct[] {
  const element = xml.includes('<ARTICLE mode=') ? 'ARTICLE' : 'PRODUCT';
  const language = /<LANGUAGE default="true">([^<]*)<\/LANGUAGE>/.exec(xml)?.[1] ?? null;
  return blocks(xml, element).map(({ body }) => {
    const price = blocks(body, `${element}_PRICE`)[0];
    const featureBlocks = blocks(body, `${element}_FEATURES`).map((b) => ({
      system: one(b.body, 'REFERENCE_FEATURE_SYSTEM_NAME'),
      groupId: one(b.body, 'REFERENCE_FEATURE_GROUP_ID'),
      features: blocks(b.body, 'FEATURE').map((f) => ({
        name: one(f.body, 'FNAME')!,
        values: all(f.body, 'FVALUE'),
        unit: one(f.body, 'FUNIT'),
      })),
    }));
    return {
      pid: one(body, element === 'ARTICLE' ? 'SUPPLIER_AID' : 'SUPPLIER_PID')!,
      descriptionShort: allInDefault(body, 'DESCRIPTION_SHORT', language)[0] ?? null,
      descriptionLong: allInDefault(body, 'DESCRIPTION_LONG', language)[0] ?? null,
      gtin: one(body, element === 'ARTICLE' ? 'EAN' : 'INTERNATIONAL_PID'),
      manufacturerName: one(body, 'MANUFACTURER_NAME'),
      manufacturerPid: one(body, element === 'ARTICLE' ? 'MANUFACTURER_AID' : 'MANUFACTURER_PID'),
      keywords: allInDefault(body, 'KEYWORD', language),
      orderUnit: one(body, 'ORDER_UNIT'),
      priceType: price ? attr(price.attrs, 'price_type') : null,
      priceAmount: price ? one(price.body, 'PRICE_AMOUNT') : null,
      priceCurrency: price ? one(price.body, 'PRICE_CURRENCY') : null,
      media: [...all(body, 'MIME_SOURCE'), ...all(body, 'UDX.EDXF.MIME_SOURCE')],
      references: blocks(body, `${element}_REFERENCE`).map((r) => ({
        type: attr(r.attrs, 'type')!,
        to: one(r.body, element === 'ARTICLE' ? 'ART_ID_TO' : 'PROD_ID_TO')!,
      })),
      blocks: featureBlocks,
    };
  });
}

/** CATALOG_STRUCTUREs of the group system. */
export function readGroups(xml: string): ReadGroup[] {
  return blocks(xml, 'CATALOG_STRUCTURE').map(({ attrs, body }) => ({
    id: one(body, 'GROUP_ID')!,
    name: one(body, 'GROUP_NAME')!,
    parentId: one(body, 'PARENT_ID')!,
    type: attr(attrs, 'type')!,
  }));
}

/** (product id, group id) pairs of PRODUCT_TO_CATALOGGROUP_MAP / ARTICLE_TO_CATALOGGROUP_MAP. */
export function readMap(xml: string): [string, string][] {
  const element = xml.includes('<ARTICLE_TO_CATALOGGROUP_MAP>') ? 'ARTICLE' : 'PRODUCT';
  return blocks(xml, `${element}_TO_CATALOGGROUP_MAP`).map(({ body }) => [
    one(body, element === 'ARTICLE' ? 'ART_ID' : 'PROD_ID')!,
    one(body, 'CATALOG_GROUP_ID')!,
  ]);
}
