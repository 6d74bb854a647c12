import type { ExportWarnings } from '../export-warnings';
import { CURRENCIES_2005, UNITS_2005 } from './code-lists';
import { parentGroupId, type Dialect } from './dialect';
import type { FeatureBlock } from './feature-blocks';
import { fitted, headerValues, mimeType2005, orderUnit, productDetails2005 } from './fields';
import type { BmecatPlan } from './plan';
import type { ProductView } from './product-view';
import { el, textEl } from './xml-text';

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

function currencyOf(plan: BmecatPlan, w: ExportWarnings): string | null {
  if (CURRENCIES_2005.has(plan.currency)) return plan.currency;
  w.add(
    `currency ${plan.currency} is not in the BMEcat 2005 currency list: CURRENCY and PRICE_CURRENCY left out`,
    'catalog',
  );
  return null;
}

function features(block: FeatureBlock): string {
  return el('PRODUCT_FEATURES', [
    textEl('REFERENCE_FEATURE_SYSTEM_NAME', block.system),
    textEl('REFERENCE_FEATURE_GROUP_ID', block.classCode),
    ...block.features.map((f) =>
      el('FEATURE', [textEl('FNAME', f.name), ...f.values.map((v) => textEl('FVALUE', v)), textEl('FUNIT', f.unit)]),
    ),
  ]);
}

function price(plan: BmecatPlan, view: ProductView, w: ExportWarnings): string {
  // 2005 has a price type for "no price": a product without list price is on request.
  const currency = currencyOf(plan, w);
  const productPrice = view.price
    ? el('PRODUCT_PRICE', [textEl('PRICE_AMOUNT', view.price), textEl('PRICE_CURRENCY', currency)], {
        price_type: plan.priceType,
      })
    : el('PRODUCT_PRICE', [], { price_type: 'on_request' });
  return el('PRODUCT_PRICE_DETAILS', productPrice);
}

function mime(view: ProductView, w: ExportWarnings): string {
  const entries = view.media.map((m, i) => {
    const source = fitted(m.fileName, 255, 'MIME_SOURCE', view.subject, w);
    if (!source) return '';
    return el('MIME', [
      textEl('MIME_TYPE', mimeType2005(m.contentType)),
      textEl('MIME_SOURCE', source),
      textEl('MIME_DESCR', fitted(m.description, 250, 'MIME_DESCR', view.subject, w)),
      textEl('MIME_PURPOSE', PURPOSES.has(m.purpose) ? m.purpose : 'others'),
      textEl('MIME_ORDER', i + 1),
    ]);
  });
  return el('MIME_INFO', entries, undefined, false);
}

function product(plan: BmecatPlan, view: ProductView, w: ExportWarnings): string {
  const unit = orderUnit(view, UNITS_2005, w);
  return el(
    'PRODUCT',
    [
      textEl('SUPPLIER_PID', view.pid),
      productDetails2005(view, w),
      ...view.blocks.map(features),
      el('PRODUCT_ORDER_DETAILS', [
        textEl('ORDER_UNIT', unit),
        textEl('CONTENT_UNIT', unit),
        textEl('NO_CU_PER_OU', 1),
        textEl('PRICE_QUANTITY', view.priceQuantity),
      ]),
      price(plan, view, w),
      mime(view, w),
      view.masterPid ? el('PRODUCT_REFERENCE', textEl('PROD_ID_TO', view.masterPid), { type: 'base_product' }) : '',
    ],
    { mode: 'new' },
  );
}

/**
 * BMEcat 2005 (official schema, namespace `2005fd` or, by template, `2005`): HEADER,
 * CATALOG_GROUP_SYSTEM from the category tree, one PRODUCT per master and variant (a variant
 * refers to its master with PRODUCT_REFERENCE type base_product), PRODUCT_TO_CATALOGGROUP_MAP.
 */
export const bmecat2005: Dialect = {
  format: 'BMEcat',
  header(plan, w) {
    const h = headerValues(plan, w, { mimeRoot: 250 });
    return `<?xml version="1.0" encoding="UTF-8"?>\n<BMECAT version="2005" xmlns="${plan.namespace}">\n${el('HEADER', [
      textEl('GENERATOR_INFO', 'PIM Service BMEcat export'),
      el('CATALOG', [
        textEl('LANGUAGE', plan.language, { default: 'true' }),
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
      return `<CATALOG_GROUP_SYSTEM>\n${textEl('GROUP_SYSTEM_ID', plan.rootGroupId)}${textEl('GROUP_SYSTEM_NAME', fitted(plan.catalogName, 50, 'GROUP_SYSTEM_NAME', 'catalog', w))}${el(
        'CATALOG_STRUCTURE',
        [
          textEl('GROUP_ID', plan.rootGroupId),
          textEl('GROUP_NAME', fitted(plan.catalogName, 50, 'GROUP_NAME', 'catalog', w)),
          textEl('PARENT_ID', '0'),
        ],
        { type: 'root' },
      )}`;
    },
    structure(plan, row, w) {
      return el(
        'CATALOG_STRUCTURE',
        [
          textEl('GROUP_ID', row.id),
          textEl('GROUP_NAME', fitted(row.name, 50, 'GROUP_NAME', row.name.slice(0, 40), w) ?? row.id),
          textEl('GROUP_DESCRIPTION', fitted(row.description, 250, 'GROUP_DESCRIPTION', row.name.slice(0, 40), w)),
          textEl('PARENT_ID', parentGroupId(plan, row)),
          textEl('GROUP_ORDER', row.sort_order),
        ],
        { type: row.has_children ? 'node' : 'leaf' },
      );
    },
    close: '</CATALOG_GROUP_SYSTEM>\n',
  },
  product,
  mapEntry: (pid, groupId) =>
    el('PRODUCT_TO_CATALOGGROUP_MAP', [textEl('PROD_ID', pid), textEl('CATALOG_GROUP_ID', groupId)], { mode: 'new' }),
  footer: '</T_NEW_CATALOG>\n</BMECAT>\n',
};
