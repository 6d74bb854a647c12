import type { ExportWarnings } from '../export-warnings';
import type { FeatureBlock } from './feature-blocks';
import { fitted } from './fields';
import { mimeSource } from './media-out';
import type { BmecatPlan } from './plan';
import type { ProductView } from './product-view';
import { el, textEl } from './xml-text';
import { columnLanguage, localizedElements, planLanguages } from './localized-out';

/**
 * The parts the BMEcat dialects (1.2, 2005, the ETIM 5.0 profile) write alike, each taking
 * what differs between them as parameters: the code list, the element names, the limits.
 */

/**
 * The catalog currency if the dialect's code list has it; otherwise null (CURRENCY and
 * PRICE_CURRENCY are left out) with a warning naming the list.
 */
export function currencyIn(
  currencies: ReadonlySet<string>,
  listName: string,
): (plan: BmecatPlan, w: ExportWarnings) => string | null {
  return (plan, w) => {
    if (currencies.has(plan.currency)) return plan.currency;
    w.add(
      `currency ${plan.currency} is not in the ${listName} currency list: CURRENCY and PRICE_CURRENCY left out`,
      'catalog',
    );
    return null;
  };
}

/** One feature block as `element` (ARTICLE_FEATURES in 1.2, PRODUCT_FEATURES since 2005). */
export function featureBlock(options: {
  element: 'ARTICLE_FEATURES' | 'PRODUCT_FEATURES';
  /** REFERENCE_FEATURE_GROUP_ID of a block without a class (the attribute block), if the dialect requires one. */
  groupIdWithoutClass?: string;
  /** Whether the block's features carry FUNIT; all of them unless told. */
  withUnit?: (block: FeatureBlock) => boolean;
}): (block: FeatureBlock) => string {
  return (block) => {
    const withUnit = options.withUnit?.(block) ?? true;
    return el(options.element, [
      textEl('REFERENCE_FEATURE_SYSTEM_NAME', block.system),
      textEl('REFERENCE_FEATURE_GROUP_ID', block.classCode ?? options.groupIdWithoutClass ?? null),
      ...block.features.map((f) =>
        el('FEATURE', [
          textEl('FNAME', f.name),
          ...f.values.map((v) => textEl('FVALUE', v)),
          withUnit ? textEl('FUNIT', f.unit) : '',
          ...(f.details ?? []).map((d) => textEl('FVALUE_DETAILS', d.text, d.lang ? { lang: d.lang } : undefined)),
        ]),
      ),
    ]);
  };
}

/** MIME_INFO of 1.2 and 2005: the MIME_TYPE rule, MIME_SOURCE's limit and the known purposes differ. */
export function mimeInfo(options: {
  sourceMax: number;
  mimeType: (contentType: string, view: MediaOwner, w: ExportWarnings) => string | null;
  purposes: ReadonlySet<string>;
  /** MIME_ALT's limit: 50 in 1.2, 80 in 2005. */
  altMax: number;
}): (view: MediaOwner, w: ExportWarnings, plan?: BmecatPlan) => string {
  // Given the plan (2005), MIME_DESCR is written once per language of the file.
  return (view, w, plan) => {
    const entries = view.media.map((m, i) => {
      const source = mimeSource(m, options.sourceMax, 'MIME_SOURCE', view.subject, w);
      if (!source) return '';
      return el('MIME', [
        textEl('MIME_TYPE', options.mimeType(m.contentType, view, w)),
        textEl('MIME_SOURCE', source),
        plan
          ? localizedElements(
              plan,
              'MIME_DESCR',
              planLanguages(plan).map((language) => ({
                language,
                text: fitted(
                  language === columnLanguage(plan) ? m.description : (m.descriptions?.[language] ?? null),
                  250,
                  'MIME_DESCR',
                  view.subject,
                  w,
                ),
              })),
              view.subject,
              w,
            )
          : textEl('MIME_DESCR', fitted(m.description, 250, 'MIME_DESCR', view.subject, w)),
        textEl('MIME_ALT', fitted(m.alt, options.altMax, 'MIME_ALT', view.subject, w)),
        textEl('MIME_PURPOSE', options.purposes.has(m.purpose) ? m.purpose : 'others'),
        textEl('MIME_ORDER', i + 1),
      ]);
    });
    return el('MIME_INFO', entries, undefined, false);
  };
}

/** A stored decimal as an xsd:integer (`10.00` as `10`), or null when it has a fraction. */
const wholeNumber = (stored: string): string | null =>
  /^\d+(\.0*)?$/.test(stored) ? stored.replace(/\..*$/, '') : null;

/**
 * ARTICLE_ORDER_DETAILS / PRODUCT_ORDER_DETAILS in the XSD's order: ORDER_UNIT, CONTENT_UNIT,
 * NO_CU_PER_OU, PRICE_QUANTITY, QUANTITY_MIN, QUANTITY_INTERVAL. A product without a content
 * unit or count writes the order unit and 1 (BMEcat's defaults, which the import reads back as
 * "not set"); the minimum and interval are written when the product has them (absent, the XSD's
 * default is 1). A content unit
 * the dialect's list lacks is written as the order unit, and BMEcat 1.2's QUANTITY_MIN and
 * QUANTITY_INTERVAL are xsd:integer: a fraction is left out. Both are reported.
 */
export function orderDetails(
  element: 'ARTICLE_ORDER_DETAILS' | 'PRODUCT_ORDER_DETAILS',
  unit: string,
  view: ProductView,
  options: { units: ReadonlySet<string>; wholeQuantities: boolean },
  w: ExportWarnings,
): string {
  let content = view.contentUnit ?? unit;
  if (!options.units.has(content)) {
    w.add(`content unit ${content} is not in the schema's unit list: written as the order unit`, view.subject);
    content = unit;
  }
  const quantity = (name: string, value: string | null) => {
    if (value === null || !options.wholeQuantities) return value;
    const whole = wholeNumber(value);
    if (whole === null) w.add(`${name} ${value} is not a whole number, as BMEcat 1.2 requires: left out`, view.subject);
    return whole;
  };
  return el(element, [
    textEl('ORDER_UNIT', unit),
    textEl('CONTENT_UNIT', content),
    textEl('NO_CU_PER_OU', view.contentPerUnit ?? 1),
    textEl('PRICE_QUANTITY', view.priceQuantity),
    textEl('QUANTITY_MIN', quantity('QUANTITY_MIN', view.quantityMin)),
    textEl('QUANTITY_INTERVAL', quantity('QUANTITY_INTERVAL', view.quantityInterval)),
  ]);
}

/** What MIME_INFO is written from: a product's view, or a category's media (catalog-structure.ts). */
export type MediaOwner = Pick<ProductView, 'media' | 'subject'>;

/** Closes T_NEW_CATALOG and the root in every dialect. */
export const FOOTER = '</T_NEW_CATALOG>\n</BMECAT>\n';
