import type { ExportWarnings } from '../export-warnings';
import type { BmecatPlan } from './plan';
import type { ProductView } from './product-view';
import { el, fitText, textEl } from './xml-text';
import { localizedElements } from './localized-out';

/**
 * Field rules every BMEcat dialect shares: text fitted to the element's limit (and reported
 * when cut), codes checked against the schema's lists, header values derived from the catalog.
 */

/** Fits optional free text into `element` (max code points); a cut is reported once per product. */
export function fitted(
  value: string | null | undefined,
  max: number,
  element: string,
  subject: string,
  w: ExportWarnings,
): string | null {
  const { text, truncated } = fitText(value, max);
  if (truncated) w.add(`${element} cut to ${max} characters`, subject);
  return text;
}

/** DESCRIPTION_SHORT is required: the product name, else its SUPPLIER_PID. */
export function shortDescription(view: ProductView, max: number, w: ExportWarnings): string {
  return fitted(view.name, max, 'DESCRIPTION_SHORT', view.subject, w) ?? view.pid;
}

/** ORDER_UNIT / CONTENT_UNIT: the product's UN/ECE code when the schema lists it, else C62 (piece), reported. */
export function orderUnit(view: ProductView, allowed: ReadonlySet<string>, w: ExportWarnings): string {
  if (!view.unit) return 'C62';
  if (allowed.has(view.unit)) return view.unit;
  w.add(`unit ${view.unit} is not in the schema's unit list: written as C62`, view.subject);
  return 'C62';
}

/** KEYWORDs: the keywords field split at commas, semicolons and line breaks; each fitted, duplicates dropped. */
export function keywordList(
  view: Pick<ProductView, 'subject' | 'keywords'>,
  max: number,
  w: ExportWarnings,
  keywords = view.keywords,
): string[] {
  if (!keywords) return [];
  const out: string[] = [];
  for (const part of keywords.split(/[,;\n\r]+/)) {
    const keyword = fitted(part, max, 'KEYWORD', view.subject, w);
    if (keyword && !out.includes(keyword)) out.push(keyword);
  }
  return out;
}

/** PRODUCT_STATUS (type, text) for statuses a recipient should see; active products carry none. */
export function statusOf(view: ProductView, oldType: string): { type: string; text: string } | null {
  if (view.status === 'discontinued') return { type: oldType, text: 'discontinued' };
  if (view.status === 'draft') return { type: 'others', text: 'draft' };
  return null;
}

/**
 * MIME_TYPE as the 2005 schema's pattern accepts it: a type containing "/" only from its short
 * list (image/png, for one, is not on it), so other types are left out (the element is optional).
 */
export function mimeType2005(contentType: string): string | null {
  return /^(application\/pdf|application\/xml|image\/gif|image\/jpeg|text\/html|text\/plain)$/.test(contentType)
    ? contentType
    : null;
}

const VERSION = /^[0-9]{1,3}\.[0-9]{1,3}$/;

/** Header values every dialect writes, fitted to the shared limits. */
export function headerValues(plan: BmecatPlan, w: ExportWarnings, limits: { mimeRoot: number }) {
  let catalogVersion = plan.catalogVersion?.trim() ?? '';
  if (!VERSION.test(catalogVersion)) {
    if (catalogVersion)
      w.add(
        `catalogVersion "${catalogVersion.slice(0, 20)}" is not of the form 1.0 (CATALOG_VERSION): written as 1.0`,
        'catalog',
      );
    catalogVersion = '1.0';
  }
  return {
    // CATALOG_ID holds at most 20 characters: the catalog id's first 20 hex digits (UUIDv7: time first, so unique per company).
    catalogId: plan.rootGroupId.replace(/-/g, '').slice(0, 20),
    catalogVersion,
    catalogName: fitted(plan.catalogName, 100, 'CATALOG_NAME', 'catalog', w),
    supplierName: fitted(plan.supplierName, 50, 'SUPPLIER_NAME', 'catalog', w) ?? 'Supplier',
    mimeRoot: fitted(plan.mimeRoot, limits.mimeRoot, 'MIME_ROOT', 'catalog', w),
    generatedAt: plan.snapshot,
  };
}

/**
 * GENERATOR_INFO of every BMEcat file this service writes. An import reads a file that carries
 * it by the export's own conventions (docs/import.md "Files this service wrote"): a price block
 * dated with the generation date had no date, a variant's price equal to its master's is the
 * master's, inherited.
 */
export const GENERATOR_INFO = 'PIM Service BMEcat export';

/**
 * PRODUCT_DETAILS of BMEcat 2005 and the ETIM profile (the same elements and limits in both):
 * short and long description, GTIN, manufacturer data, delivery time, keywords, status.
 */
export function productDetails2005(plan: BmecatPlan, view: ProductView, w: ExportWarnings): string {
  const status = statusOf(view, 'old_product');
  const each = (field: (t: ProductView['texts'][number], i: number) => string | null) =>
    view.texts.map((t, i) => ({ language: t.language, text: field(t, i) }));
  const several = view.texts.length > 1;
  return el('PRODUCT_DETAILS', [
    // DESCRIPTION_SHORT is required: the file's default language falls back to the SUPPLIER_PID.
    localizedElements(
      plan,
      'DESCRIPTION_SHORT',
      each((t, i) =>
        i === 0 ? shortDescription(view, 150, w) : fitted(t.name, 150, 'DESCRIPTION_SHORT', view.subject, w),
      ),
      view.subject,
      w,
    ),
    localizedElements(
      plan,
      'DESCRIPTION_LONG',
      each((t) => fitted(t.description, 64000, 'DESCRIPTION_LONG', view.subject, w)),
      view.subject,
      w,
    ),
    textEl('INTERNATIONAL_PID', view.gtin, { type: 'gtin' }),
    textEl('MANUFACTURER_PID', fitted(view.manufacturerPid, 50, 'MANUFACTURER_PID', view.subject, w)),
    textEl('MANUFACTURER_NAME', fitted(view.manufacturerName, 50, 'MANUFACTURER_NAME', view.subject, w)),
    textEl('DELIVERY_TIME', view.deliveryTimeDays),
    ...view.texts.flatMap((t) =>
      keywordList(view, 50, w, t.keywords).map((k) => textEl('KEYWORD', k, several ? { lang: t.language } : undefined)),
    ),
    status ? textEl('PRODUCT_STATUS', status.text, { type: status.type }) : '',
  ]);
}
