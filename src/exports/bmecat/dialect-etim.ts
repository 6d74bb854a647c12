import type { ExportWarnings } from '../export-warnings';
import { CURRENCIES_ETIM, UNITS_ETIM } from './code-lists';
import type { Dialect } from './dialect';
import { currencyIn, FOOTER, featureBlock, orderDetails } from './dialect-parts';
import { ATTRIBUTE_SYSTEM, reportEtimFileUnits } from './feature-blocks';
import { fitted, GENERATOR_INFO, headerValues, orderUnit, productDetails2005 } from './fields';
import type { BmecatPlan } from './plan';
import { languageElements } from './localized-out';
import type { ProductView } from './product-view';
import { el, textEl } from './xml-text';
import { priceBlocks } from './price-blocks';
import { ETIM_REFERENCE_TYPES, referenceElements } from './references-out';
import { etimKeptUdx, mimeSource } from './media-out';
import { FORM_ETIM } from './block-form';
import { otherFeatureBlocks } from './other-feature-blocks';
import { modellingUdx } from './modelling-out';
import { MODELLING_SYSTEM } from '../../model/feature-block-types';
import { ETIM_DYNAMIC_DATE, ETIM_DYNAMIC_UDX, isEtimDynamic } from '../../model/class-version';

const ETIM_NAMESPACE = 'https://www.etim-international.com/bmecat/50';

/** UDX.EDXF.MIME_CODE: MD01 is the product picture; other documents are MD99 (others). */
const IMAGE_PURPOSES = new Set(['normal', 'detail', 'thumbnail']);

const currencyOf = currencyIn(CURRENCIES_ETIM, "ETIM guideline's");

/** REFERENCE_FEATURE_GROUP_ID of the attribute block (the profile requires one; attributes have no class). */
const ATTRIBUTE_GROUP = 'ATTRIBUTES';

// The guideline derives units from the ETIM model, so ETIM features carry no FUNIT.
const features = featureBlock({
  element: 'PRODUCT_FEATURES',
  groupIdWithoutClass: ATTRIBUTE_GROUP,
  withUnit: (block) => block.group !== 'ETIM',
});

/**
 * The guideline requires at least one PRODUCT_FEATURES block; an unclassified product without
 * attributes gets an empty one. The modelling class is no PRODUCT_FEATURES block: it is
 * written as UDX.EDXF.PRODUCT_FEATURES_MC (modellingElements).
 */
function featureBlocks(view: ProductView, w: ExportWarnings): string {
  if (!view.blocks.some((b) => b.group === 'ETIM')) w.add('product without ETIM classification', view.subject);
  const blocks = view.otherBlocks.filter((b) => b.system !== MODELLING_SYSTEM);
  const others = otherFeatureBlocks(blocks, FORM_ETIM, view.subject, w);
  if (view.blocks.length === 0 && others.length === 0)
    return features({ system: ATTRIBUTE_SYSTEM, group: null, classCode: null, features: [] });
  for (const b of view.blocks) reportEtimFileUnits(b, 'the ETIM guideline', view.subject, w);
  return [...view.blocks.map(features), ...others].join('');
}

function price(plan: BmecatPlan, view: ProductView, w: ExportWarnings): string {
  const list = priceBlocks(
    {
      details: 'PRODUCT_PRICE_DETAILS',
      price: 'PRODUCT_PRICE',
      types: /^(net_customer|net_list|nrp)$/,
      currencies: CURRENCIES_ETIM,
      defaultStart: plan.snapshot.slice(0, 10),
      schemaName: 'ETIM guideline',
      base: { at: 'block', units: UNITS_ETIM },
      flags: null,
      formula: false,
    },
    view,
    w,
  );
  if (list !== '') return list;
  if (!view.price)
    w.add('product without price: PRICE_AMOUNT written as 0 (the guideline requires an amount)', view.subject);
  return el('PRODUCT_PRICE_DETAILS', [
    el('DATETIME', textEl('DATE', plan.snapshot.slice(0, 10)), { type: 'valid_start_date' }),
    el('PRODUCT_PRICE', [textEl('PRICE_AMOUNT', view.price ?? '0'), textEl('PRICE_CURRENCY', currencyOf(plan, w))], {
      price_type: plan.priceType,
    }),
  ]);
}

function mime(view: ProductView, w: ExportWarnings): string {
  const entries = view.media.map((m, i) => {
    const source = mimeSource(m, 512, 'UDX.EDXF.MIME_SOURCE', view.subject, w);
    if (!source) return '';
    return el('UDX.EDXF.MIME', [
      textEl('UDX.EDXF.MIME_SOURCE', source),
      textEl(
        'UDX.EDXF.MIME_CODE',
        m.mimeCode && /^MD\d\d$/.test(m.mimeCode)
          ? m.mimeCode
          : IMAGE_PURPOSES.has(m.purpose) && m.contentType.startsWith('image/')
            ? 'MD01'
            : 'MD99',
      ),
      textEl('UDX.EDXF.MIME_FILENAME', fitted(m.fileName, 250, 'UDX.EDXF.MIME_FILENAME', view.subject, w)),
      textEl('UDX.EDXF.MIME_DESIGNATION', fitted(m.description, 250, 'UDX.EDXF.MIME_DESIGNATION', view.subject, w)),
      textEl('UDX.EDXF.MIME_ALT', fitted(m.alt, 80, 'UDX.EDXF.MIME_ALT', view.subject, w)),
      // An attachment's dates (kernel/media-attachment.ts): the guideline has them, xChange too.
      textEl('UDX.EDXF.MIME_ISSUE_DATE', m.attachment?.issueDate ?? null),
      textEl('UDX.EDXF.MIME_EXPIRY_DATE', m.attachment?.expiryDate ?? null),
      textEl('UDX.EDXF.MIME_ORDER', i + 1),
    ]);
  });
  return el('UDX.EDXF.MIME_INFO', entries, undefined, false);
}

/** The product's modelling class as UDX.EDXF.PRODUCT_FEATURES_MC (the schema allows one). */
function modellingElements(view: ProductView, w: ExportWarnings): { name: string; xml: string }[] {
  const blocks = view.otherBlocks.filter((b) => b.system === MODELLING_SYSTEM);
  if (blocks.length > 1) w.add('more than one ETIM modelling class: the first written', view.subject);
  const xml = blocks[0] ? modellingUdx(blocks[0], view.subject, w) : '';
  return xml ? [{ name: 'UDX.EDXF.PRODUCT_FEATURES_MC', xml }] : [];
}

/**
 * UDX.EDXF.PRODUCT_ETIM_DYNAMIC with the release date of the product's ETIM class when it is of
 * the DYNAMIC release and has one (migration 0082; model/class-version.ts): the guideline's place
 * for it. It takes the place of one kept as verbatim UDX from a BMEcat import. The class version
 * has no element in the guideline: only ETIM xChange writes it.
 */
function etimDynamicElements(view: ProductView): { name: string; xml: string }[] {
  const date = view.blocks.find(
    (b) => b.group === 'ETIM' && b.dynamicReleaseDate && isEtimDynamic(b.system),
  )?.dynamicReleaseDate;
  if (!date) return [];
  return [{ name: ETIM_DYNAMIC_UDX, xml: el(ETIM_DYNAMIC_UDX, textEl(ETIM_DYNAMIC_DATE, date)) }];
}

function product(plan: BmecatPlan, view: ProductView, w: ExportWarnings): string {
  const unit = orderUnit(view, UNITS_ETIM, w);
  return el(
    'PRODUCT',
    [
      textEl('SUPPLIER_PID', view.pid),
      productDetails2005(plan, view, w),
      featureBlocks(view, w),
      orderDetails('PRODUCT_ORDER_DETAILS', unit, view, { units: UNITS_ETIM, wholeQuantities: false }, w),
      price(plan, view, w),
      el(
        'USER_DEFINED_EXTENSIONS',
        mime(view, w) +
          etimKeptUdx(view.udx, view.subject, w, [...modellingElements(view, w), ...etimDynamicElements(view)]),
      ),
      view.masterPid ? el('PRODUCT_REFERENCE', textEl('PROD_ID_TO', view.masterPid), { type: 'base_product' }) : '',
      ...referenceElements(view, 'PRODUCT_REFERENCE', w, ETIM_REFERENCE_TYPES),
    ],
    { mode: 'new' },
  );
}

/**
 * The ETIM BMEcat Guideline 5.0 profile (bmecat_etim_50.xsd): BMEcat 2005 restricted to what
 * ETIM wholesalers ingest. No category tree and no group map (the profile has neither); every
 * product carries at least one PRODUCT_FEATURES block, a dated price, media in UDX.EDXF.MIME_INFO,
 * and a variant refers to its master with PRODUCT_REFERENCE type base_product.
 */
export const bmecatEtim: Dialect = {
  format: 'BMEcat-ETIM',
  header(plan, w) {
    const h = headerValues(plan, w, { mimeRoot: 250 });
    return `<?xml version="1.0" encoding="UTF-8"?>\n<BMECAT version="2005" xmlns="${ETIM_NAMESPACE}">\n${el('HEADER', [
      textEl('GENERATOR_INFO', GENERATOR_INFO),
      el('CATALOG', [
        ...languageElements(plan),
        textEl('CATALOG_ID', h.catalogId),
        textEl('CATALOG_VERSION', h.catalogVersion),
        textEl('CATALOG_NAME', h.catalogName ?? h.catalogId),
        el('DATETIME', textEl('DATE', h.generatedAt.slice(0, 10)), { type: 'generation_date' }),
        textEl('CURRENCY', currencyOf(plan, w)),
        textEl('MIME_ROOT', h.mimeRoot),
      ]),
      el('BUYER', textEl('BUYER_NAME', fitted(plan.buyerName ?? 'All customers', 50, 'BUYER_NAME', 'catalog', w))),
      el('SUPPLIER', textEl('SUPPLIER_NAME', h.supplierName)),
      el('USER_DEFINED_EXTENSIONS', textEl('UDX.EDXF.VERSION', '5.0')),
    ])}<T_NEW_CATALOG>\n`;
  },
  groups: null,
  product,
  mapEntry: null,
  footer: FOOTER,
};
