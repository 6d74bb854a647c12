import type { ExportWarnings } from '../export-warnings';
import { CURRENCIES_2005, UNITS_2005 } from './code-lists';
import type { Dialect } from './dialect';
import { catalogStructure, rootStructure } from './catalog-structure';
import { currencyIn, FOOTER, featureBlock, mimeInfo, orderDetails } from './dialect-parts';
import { fitted, GENERATOR_INFO, headerValues, keywordList, orderUnit, shortDescription, statusOf } from './fields';
import type { BmecatPlan } from './plan';
import type { ProductView } from './product-view';
import { el, textEl } from './xml-text';
import { priceBlocks, type PriceDialect } from './price-blocks';
import { referenceElements } from './references-out';
import { udx2005 } from './media-out';
import { FORM_12 } from './block-form';
import { otherFeatureBlocks } from './other-feature-blocks';
import { headerFlags12 } from './catalog-flags';

const NAMESPACE_12 = 'http://www.bmecat.org/XMLSchema/1.2/bmecat_new_catalog';

/** 1.2 knows fewer MIME_PURPOSEs than 2005; the rest become `others`. */
const PURPOSES = new Set(['thumbnail', 'normal', 'detail', 'data_sheet', 'logo', 'others']);

/** 1.2 has no "on request" price type and requires PRICE_AMOUNT: a user-defined type marks the placeholder 0. */
const NO_PRICE_TYPE_12 = 'udp_onrequest';

const currencyOf = currencyIn(CURRENCIES_2005, 'BMEcat 1.2');
const features = featureBlock({ element: 'ARTICLE_FEATURES' });
const mime = mimeInfo({
  sourceMax: 250,
  altMax: 50,
  mimeType: (contentType, view, w) => fitted(contentType, 30, 'MIME_TYPE', view.subject, w),
  purposes: PURPOSES,
});

const PRICES: PriceDialect = {
  details: 'ARTICLE_PRICE_DETAILS',
  price: 'ARTICLE_PRICE',
  // 1.2 requires PRICE_AMOUNT and has no on_request type: a price on request is written as
  // udp_onrequest (amount 0 when it has none), which the import reads back as on_request.
  types: /^(gros_list|net_customer|net_customer_exp|net_list|nrp|udp_[\p{L}\p{N}]{1,16})$/u,
  onRequest: NO_PRICE_TYPE_12,
  currencies: CURRENCIES_2005,
  schemaName: 'BMEcat 1.2',
  flags: null,
  formula: false,
  base: null,
};

function price(plan: BmecatPlan, view: ProductView, w: ExportWarnings): string {
  const list = priceBlocks({ ...PRICES, headerFlags: plan.catalogFlags }, view, w);
  if (list !== '') return list;
  if (!view.price)
    w.add(`article without price: PRICE_AMOUNT written as 0 with price_type ${NO_PRICE_TYPE_12}`, view.subject);
  const type = view.price ? plan.priceType : NO_PRICE_TYPE_12;
  return el(
    'ARTICLE_PRICE_DETAILS',
    el('ARTICLE_PRICE', [textEl('PRICE_AMOUNT', view.price ?? '0'), textEl('PRICE_CURRENCY', currencyOf(plan, w))], {
      price_type: type,
    }),
  );
}

function article(plan: BmecatPlan, view: ProductView, w: ExportWarnings): string {
  const status = statusOf(view, 'old_article');
  const unit = orderUnit(view, UNITS_2005, w);
  return el(
    'ARTICLE',
    [
      textEl('SUPPLIER_AID', view.pid),
      el('ARTICLE_DETAILS', [
        textEl('DESCRIPTION_SHORT', shortDescription(view, 80, w)),
        textEl('DESCRIPTION_LONG', fitted(view.description, 64000, 'DESCRIPTION_LONG', view.subject, w)),
        textEl('EAN', view.gtin),
        textEl('MANUFACTURER_AID', fitted(view.manufacturerPid, 50, 'MANUFACTURER_AID', view.subject, w)),
        textEl('MANUFACTURER_NAME', fitted(view.manufacturerName, 50, 'MANUFACTURER_NAME', view.subject, w)),
        textEl('DELIVERY_TIME', view.deliveryTimeDays),
        ...keywordList(view, 50, w).map((k) => textEl('KEYWORD', k)),
        status ? textEl('ARTICLE_STATUS', status.text, { type: status.type }) : '',
      ]),
      ...view.blocks.map(features),
      ...otherFeatureBlocks(view.otherBlocks, FORM_12, view.subject, w),
      orderDetails('ARTICLE_ORDER_DETAILS', unit, view, { units: UNITS_2005, wholeQuantities: true }, w),
      price(plan, view, w),
      mime(view, w),
      udx2005(view.udx, plan.udxVerbatim, view.subject, w),
      // 1.2 has no base_product reference; `others` with the master's id is the customary stand-in.
      view.masterPid ? el('ARTICLE_REFERENCE', textEl('ART_ID_TO', view.masterPid), { type: 'others' }) : '',
      ...referenceElements(view, 'ARTICLE_REFERENCE', w),
    ],
    { mode: 'new' },
  );
}

/**
 * BMEcat 1.2 (XSD variant, namespace bmecat_new_catalog) for older recipients: ARTICLEs instead
 * of PRODUCTs, the same group system and map (ARTICLE_TO_CATALOGGROUP_MAP). The 1.2 schema
 * checks keys, so SUPPLIER_AIDs are unique and every map entry names an article and a group
 * of the same file; KEYWORDs, FNAMEs and FVALUEs are unique where the schema demands it.
 */
export const bmecat12: Dialect = {
  format: 'BMEcat12',
  header(plan, w) {
    const h = headerValues(plan, w, { mimeRoot: 100 });
    const [date, time] = h.generatedAt.split('T') as [string, string];
    return `<?xml version="1.0" encoding="UTF-8"?>\n<BMECAT version="1.2" xmlns="${NAMESPACE_12}">\n${el('HEADER', [
      textEl('GENERATOR_INFO', GENERATOR_INFO),
      el('CATALOG', [
        textEl('LANGUAGE', plan.language),
        textEl('CATALOG_ID', h.catalogId),
        textEl('CATALOG_VERSION', h.catalogVersion),
        textEl('CATALOG_NAME', h.catalogName),
        el('DATETIME', [textEl('DATE', date), textEl('TIME', time.slice(0, 8)), textEl('TIMEZONE', '+00:00')], {
          type: 'generation_date',
        }),
        textEl('CURRENCY', currencyOf(plan, w)),
        textEl('MIME_ROOT', h.mimeRoot),
        // 1.2's only place for PRICE_FLAG: said of every price of the file.
        ...headerFlags12(plan.catalogFlags, w),
      ]),
      plan.buyerName ? el('BUYER', textEl('BUYER_NAME', fitted(plan.buyerName, 50, 'BUYER_NAME', 'catalog', w))) : '',
      el('SUPPLIER', textEl('SUPPLIER_NAME', h.supplierName)),
    ])}<T_NEW_CATALOG>\n`;
  },
  groups: {
    open(plan, w) {
      const name = fitted(plan.catalogName, 50, 'GROUP_NAME', 'catalog', w);
      return `<CATALOG_GROUP_SYSTEM>\n${textEl('GROUP_SYSTEM_ID', plan.rootGroupId)}${textEl('GROUP_SYSTEM_NAME', name)}${rootStructure(plan, name ?? plan.rootGroupId)}`;
    },
    structure: catalogStructure(mime, FORM_12),
    close: '</CATALOG_GROUP_SYSTEM>\n',
  },
  product: article,
  mapEntry: (pid, groupId) =>
    el('ARTICLE_TO_CATALOGGROUP_MAP', [textEl('ART_ID', pid), textEl('CATALOG_GROUP_ID', groupId)]),
  footer: FOOTER,
};
