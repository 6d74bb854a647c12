import type { AggregateMedia } from '../../model/product-aggregate';
import { ETIM_DYNAMIC_UDX } from '../../model/class-version';
import type { ExportWarnings } from '../export-warnings';
import { fitted } from './fields';
import { codePointLength, el } from './xml-text';

/**
 * MIME_SOURCE of one media entry: a link's absolute URL, a file's name (relative to MIME_ROOT).
 * A URL longer than the schema's slot is left out with a warning: a cut URL points nowhere.
 */
export function mimeSource(
  m: AggregateMedia,
  max: number,
  element: string,
  subject: string,
  w: ExportWarnings,
): string | null {
  if (!m.url) return fitted(m.fileName, max, element, subject, w);
  if (codePointLength(m.url) > max) {
    w.add(`media link longer than ${max} characters (${element}) left out`, subject);
    return null;
  }
  return m.url;
}

/**
 * The ETIM profile's UDX.EDXF elements in the order its udxPRODUCT sequence (bmecat_etim_50.xsd)
 * lists them; kept UDX is written back in this order, and elements it does not list are left
 * out (with a warning) so the file stays valid. UDX.EDXF.MIME_INFO is written from the model.
 */
const ETIM_UDX_ORDER = [
  'UDX.EDXF.MIME_INFO',
  'UDX.EDXF.MANUFACTURER_ACRONYM',
  'UDX.EDXF.DESCRIPTION_VERY_SHORT',
  'UDX.EDXF.BRAND_NAME',
  'UDX.EDXF.TENDER_TEXT',
  'UDX.EDXF.VALID_FROM',
  'UDX.EDXF.EXPIRATION_DATE',
  'UDX.EDXF.DISCOUNT_GROUP',
  'UDX.EDXF.BONUS_GROUP_SUPPLIER',
  'UDX.EDXF.ADDITIONAL_FACTORS',
  'UDX.EDXF.PRODUCT_TO_STOCK',
  'UDX.EDXF.PRODUCT_SERIES',
  'UDX.EDXF.PRODUCT_VARIATION',
  'UDX.EDXF.PREDECESSOR_PID',
  'UDX.EDXF.COUNTRY_BRANCH_NUMBERS',
  'UDX.EDXF.COUNTRY_BRANCH_SUPPLIER_IDS',
  'UDX.EDXF.PACKING_UNITS',
  'UDX.EDXF.PRODUCT_LOGISTIC_DETAILS',
  'UDX.EDXF.SHELF_LIFE_PERIOD',
  'UDX.EDXF.BATTERY_CONTAINED',
  'UDX.EDXF.ROHS_INDICATOR',
  'UDX.EDXF.CE_MARKING',
  'UDX.EDXF.REACH',
  'UDX.EDXF.SPECIAL_TREATMENT_CLASS_DETAILS',
  'UDX.EDXF.SURCHARGE_LIST',
  'UDX.EDXF.WARRANTY',
  ETIM_DYNAMIC_UDX,
  'UDX.EDXF.PRODUCT_FEATURES_MC',
  'UDX.EDXF.PRODUCT_CHARACTERISTICS',
];
const ETIM_UDX_RANK = new Map(ETIM_UDX_ORDER.map((name, i) => [name, i]));

/**
 * The top-level elements of kept UDX text (our own compact serialisation, src/imports/
 * bmecat-media.ts: no comments, CDATA or processing instructions), with their names.
 */
export function udxElements(xml: string): { name: string; xml: string }[] {
  const out: { name: string; xml: string }[] = [];
  const tag = /<(\/?)([^\s/>]+)[^>]*?(\/?)>/g;
  let depth = 0;
  let start = 0;
  let name = '';
  for (let m = tag.exec(xml); m; m = tag.exec(xml)) {
    const [, closing, tagName, selfClosing] = m;
    if (!closing && depth === 0) {
      start = m.index;
      name = tagName!;
    }
    if (closing) depth--;
    else if (!selfClosing) depth++;
    if (depth === 0) out.push({ name, xml: xml.slice(start, tag.lastIndex) });
  }
  return out;
}

/**
 * The kept UDX an ETIM export writes after its UDX.EDXF.MIME_INFO: the UDX.EDXF elements the
 * profile's schema lists, in its order; anything else is reported and left out. `written` are
 * elements the model writes (UDX.EDXF.PRODUCT_FEATURES_MC from the modelling class block): each
 * takes its place in that order, in place of a kept element of the same name (one stored as
 * verbatim UDX before the model held it).
 */
export function etimKeptUdx(
  udx: string | null,
  subject: string,
  w: ExportWarnings,
  written: { name: string; xml: string }[] = [],
): string {
  const kept: { rank: number; i: number; xml: string }[] = [];
  const names = new Set(written.map((e) => e.name));
  (udx ? udxElements(udx) : []).forEach((e, i) => {
    const name = e.name.slice(e.name.indexOf(':') + 1);
    const rank = ETIM_UDX_RANK.get(name);
    if (rank === undefined || rank === 0 || names.has(name)) {
      if (rank === undefined)
        w.add(`USER_DEFINED_EXTENSIONS element ${e.name} is not in the ETIM profile: left out`, subject);
      return;
    }
    kept.push({ rank, i, xml: e.xml });
  });
  for (const e of written) kept.push({ rank: ETIM_UDX_RANK.get(e.name)!, i: -1, xml: e.xml });
  return kept
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((k) => k.xml)
    .join('');
}

/**
 * Kept UDX in BMEcat 2005 and 1.2. Their official schemas declare USER_DEFINED_EXTENSIONS empty
 * (udxPRODUCT, articleUSER_DEFINED_EXTENSIONS; the content is the receiver's schema's to
 * define): by default it is left out, so the file stays valid, and the report says so per
 * product; with the template option udxVerbatim it is written as imported, and the report says
 * the file then needs a schema that defines it.
 */
export function udx2005(udx: string | null, verbatim: boolean, subject: string, w: ExportWarnings): string {
  if (!udx) return '';
  if (!verbatim) {
    w.add('USER_DEFINED_EXTENSIONS not written: the schema of this dialect declares them empty', subject);
    return '';
  }
  w.add(
    'USER_DEFINED_EXTENSIONS written as imported (udxVerbatim): valid only against a schema that defines them',
    subject,
  );
  return el('USER_DEFINED_EXTENSIONS', udx);
}
