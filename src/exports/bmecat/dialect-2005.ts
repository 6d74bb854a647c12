import type { ExportWarnings } from '../export-warnings';
import { CURRENCIES_2005, UNITS_2005 } from './code-lists';
import type { Dialect } from './dialect';
import { catalogStructure, rootStructure } from './catalog-structure';
import { currencyIn, FOOTER, featureBlock, mimeInfo, orderDetails } from './dialect-parts';
import { fitted, GENERATOR_INFO, headerValues, mimeType2005, orderUnit, productDetails2005 } from './fields';
import type { BmecatPlan } from './plan';
import { languageElements } from './localized-out';
import type { ProductView } from './product-view';
import { el, textEl } from './xml-text';
import { priceBlocks, type PriceDialect } from './price-blocks';
import { isFlagType2005 } from '../../model/price-flags';
import { referenceElements } from './references-out';
import { udx2005 } from './media-out';
import { type BlockForm, FORM_2005, FORM_ONTO } from './block-form';
import { otherFeatureBlocks } from './other-feature-blocks';
import type { BmecatFormat } from './template-options';

const PURPOSES = new Set([
  'data_sheet',
  'detail',
  'icon',
  'logo',
  'normal',
  'safety_data_sheet',
  'thumbnail',
  'others',
]);

const currencyOf = currencyIn(CURRENCIES_2005, 'BMEcat 2005');
const features = featureBlock({ element: 'PRODUCT_FEATURES' });
const mime = mimeInfo({ sourceMax: 255, mimeType: mimeType2005, purposes: PURPOSES, altMax: 80 });

const PRICES: PriceDialect = {
  details: 'PRODUCT_PRICE_DETAILS',
  price: 'PRODUCT_PRICE',
  // XSD's \w in udp_\w{1,16}: letters and digits of any script, no underscore.
  types: /^(gros_list|net_customer|net_customer_exp|net_list|nrp|on_request|udp_[\p{L}\p{N}]{1,16})$/u,
  currencies: CURRENCIES_2005,
  schemaName: 'BMEcat 2005',
  flags: isFlagType2005,
  formula: true,
  base: { at: 'price', units: UNITS_2005 },
};

function price(plan: BmecatPlan, view: ProductView, w: ExportWarnings): string {
  const list = priceBlocks(PRICES, view, w);
  if (list !== '') return list;
  // 2005 has a price type for "no price": a product without list price is on request.
  const currency = currencyOf(plan, w);
  const productPrice = view.price
    ? el('PRODUCT_PRICE', [textEl('PRICE_AMOUNT', view.price), textEl('PRICE_CURRENCY', currency)], {
        price_type: plan.priceType,
      })
    : el('PRODUCT_PRICE', [], { price_type: 'on_request' });
  return el('PRODUCT_PRICE_DETAILS', productPrice);
}

function product(form: BlockForm, plan: BmecatPlan, view: ProductView, w: ExportWarnings): string {
  const unit = orderUnit(view, UNITS_2005, w);
  return el(
    'PRODUCT',
    [
      textEl('SUPPLIER_PID', view.pid),
      productDetails2005(plan, view, w),
      ...view.blocks.map(features),
      ...otherFeatureBlocks(view.otherBlocks, form, view.subject, w),
      orderDetails('PRODUCT_ORDER_DETAILS', unit, view, { units: UNITS_2005, wholeQuantities: false }, w),
      price(plan, view, w),
      mime(view, w, plan),
      udx2005(view.udx, plan.udxVerbatim, view.subject, w),
      view.masterPid ? el('PRODUCT_REFERENCE', textEl('PROD_ID_TO', view.masterPid), { type: 'base_product' }) : '',
      ...referenceElements(view, 'PRODUCT_REFERENCE', w),
    ],
    { mode: 'new' },
  );
}

/** BMEcat 2005's document with `form` for the feature blocks of other systems. */
const dialect2005 = (format: BmecatFormat, form: BlockForm): Dialect => ({
  format,
  header(plan, w) {
    const h = headerValues(plan, w, { mimeRoot: 250 });
    return `<?xml version="1.0" encoding="UTF-8"?>\n<BMECAT version="2005" xmlns="${plan.namespace}">\n${el('HEADER', [
      textEl('GENERATOR_INFO', GENERATOR_INFO),
      el('CATALOG', [
        ...languageElements(plan),
        textEl('CATALOG_ID', h.catalogId),
        textEl('CATALOG_VERSION', h.catalogVersion),
        textEl('CATALOG_NAME', h.catalogName),
        textEl('GENERATION_DATE', h.generatedAt),
        textEl('CURRENCY', currencyOf(plan, w)),
        textEl('MIME_ROOT', h.mimeRoot),
      ]),
      plan.buyerName ? el('BUYER', textEl('BUYER_NAME', fitted(plan.buyerName, 50, 'BUYER_NAME', 'catalog', w))) : '',
      el('SUPPLIER', textEl('SUPPLIER_NAME', h.supplierName)),
    ])}<T_NEW_CATALOG>\n`;
  },
  groups: {
    open(plan, w) {
      return `<CATALOG_GROUP_SYSTEM>\n${textEl('GROUP_SYSTEM_ID', plan.rootGroupId)}${textEl('GROUP_SYSTEM_NAME', fitted(plan.catalogName, 50, 'GROUP_SYSTEM_NAME', 'catalog', w))}${rootStructure(plan, fitted(plan.catalogName, 50, 'GROUP_NAME', 'catalog', w))}`;
    },
    structure: catalogStructure(mime, FORM_2005),
    close: '</CATALOG_GROUP_SYSTEM>\n',
  },
  formulas: true,
  product: (plan, view, w) => product(form, plan, view, w),
  mapEntry: (pid, groupId) =>
    el('PRODUCT_TO_CATALOGGROUP_MAP', [textEl('PROD_ID', pid), textEl('CATALOG_GROUP_ID', groupId)], { mode: 'new' }),
  footer: FOOTER,
});

/**
 * BMEcat 2005 (official schema, namespace `2005fd` or, by template, `2005`): HEADER,
 * CATALOG_GROUP_SYSTEM from the category tree, one PRODUCT per master and variant (a variant
 * refers to its master with PRODUCT_REFERENCE type base_product), PRODUCT_TO_CATALOGGROUP_MAP.
 * eCl@ss Advanced trees are written flat (other-feature-blocks.ts), with a report.
 */
export const bmecat2005 = dialect2005('BMEcat', FORM_2005);

/**
 * BMEcat 2005 with the ontology extension (namespace `2005+onto`), as eCl@ss Advanced suppliers
 * deliver it: the 2005 document, whose feature blocks carry the tree whole (FEATURE_GROUP, FID /
 * FPARENT_ID). No schema of its own is published; its tree elements are those BMEcat 2005.1
 * later took in, and the e2e test validates the file against the 2005.1 XSD under that namespace.
 */
export const bmecat2005Onto = dialect2005('BMEcat-2005onto', FORM_ONTO);
