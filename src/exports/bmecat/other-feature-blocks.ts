import type { StoredFeature, StoredFeatureBlock } from '../../model/feature-block-types';
import type { ExportWarnings } from '../export-warnings';
import { systemName } from './feature-blocks';
import { el, fitText, textEl } from './xml-text';

/**
 * What a dialect's schema lets a feature block of another system carry (checked against
 * schemas/bmecat/xsd/): 2005 has FTEMPLATE / FT_IDREF / VALUE_IDREF, REFERENCE_FEATURE_GROUP_ID2
 * and repeated FDESCR / FVALUE_DETAILS; 1.2 one FDESCR and FVALUE_DETAILS and unique FNAMEs and
 * FVALUEs; the ETIM guideline only FNAME, FVALUE, FUNIT, FVALUE_DETAILS and a required group id.
 * FID / FPARENT_ID exist only in 2005.1 / 2005.2, which no export writes: the tree is flattened.
 */
export interface BlockForm {
  element: 'PRODUCT_FEATURES' | 'ARTICLE_FEATURES';
  templates: boolean;
  groupId2: boolean;
  variants: boolean;
  orderAndDescr: boolean;
  repeatedDetails: boolean;
  uniqueNames: boolean;
  groupIdRequired: boolean;
  /** 2005 and the ETIM guideline restrict system names to `[\w\-\.]` (no `_`); 1.2 takes any text up to 50. */
  systemPattern: boolean;
  /** FNAME repeats with `lang` (2005, the ETIM guideline); 1.2 has one FNAME per feature. */
  namesByLanguage: boolean;
}

export const FORM_2005: BlockForm = {
  element: 'PRODUCT_FEATURES',
  templates: true,
  groupId2: true,
  variants: true,
  orderAndDescr: true,
  repeatedDetails: true,
  uniqueNames: false,
  groupIdRequired: false,
  systemPattern: true,
  namesByLanguage: true,
};
export const FORM_12: BlockForm = {
  ...FORM_2005,
  element: 'ARTICLE_FEATURES',
  templates: false,
  groupId2: false,
  repeatedDetails: false,
  uniqueNames: true,
  systemPattern: false,
  namesByLanguage: false,
};
export const FORM_ETIM: BlockForm = {
  ...FORM_2005,
  templates: false,
  groupId2: false,
  variants: false,
  orderAndDescr: false,
  groupIdRequired: true,
};

type Fit = (value: string | null | undefined, max: number, what: string) => string | null;

function fitter(subject: string, warnings: ExportWarnings): Fit {
  return (value, max, what) => {
    const f = fitText(value, max);
    if (f.truncated) warnings.add(`feature block: ${what} cut to ${max} characters`, subject);
    return f.text;
  };
}

function values(list: string[] | undefined, fit: Fit, distinct: boolean): string[] {
  const out: string[] = [];
  for (const v of list ?? []) {
    const text = fit(v, 60, 'FVALUE');
    if (text && !(distinct && out.includes(text))) out.push(text);
  }
  return out;
}

/** The feature's names in further languages, one FNAME with `lang` each, where the schema repeats FNAME. */
function furtherNames(f: StoredFeature, form: BlockForm, fit: Fit, lost: Set<string>): string {
  const names = Object.entries(f.names ?? {});
  if (names.length === 0) return '';
  if (!form.namesByLanguage) {
    lost.add('FNAME in further languages left out (the schema has one FNAME)');
    return '';
  }
  return names.map(([lang, text]) => textEl('FNAME', fit(text, 60, 'FNAME'), { lang })).join('');
}

function feature(f: StoredFeature, form: BlockForm, fit: Fit, lost: Set<string>): { name: string; xml: string } | null {
  const fname = fit(f.name, 60, 'FNAME');
  let head: string;
  let name: string;
  if (fname) {
    head = textEl('FNAME', fname) + furtherNames(f, form, fit, lost);
    name = fname;
  } else if (form.templates) {
    const id = fit(f.ftId, 60, 'FT_ID')!;
    const ftName = fit(f.ftName, 80, 'FT_NAME');
    head = ftName ? el('FTEMPLATE', [textEl('FT_ID', id), textEl('FT_NAME', ftName)]) : textEl('FT_IDREF', id);
    name = id;
  } else {
    // No FTEMPLATE in this schema: the template's name (or id) stands in as FNAME.
    name = fit(f.ftName ?? f.ftId, 60, 'FNAME')!;
    head = textEl('FNAME', name);
    lost.add('FT_ID written as FNAME');
  }
  const plain = values(f.values, fit, form.uniqueNames);
  const idrefs = form.templates ? values(f.valueIdrefs, fit, false) : [];
  if (!form.templates && f.valueIdrefs?.length && plain.length === 0) plain.push(...values(f.valueIdrefs, fit, true));
  let body = '';
  if (plain.length > 0) body = plain.map((v) => textEl('FVALUE', v)).join('');
  else if (idrefs.length > 0) body = idrefs.map((v) => textEl('VALUE_IDREF', v)).join('');
  else if (form.variants && f.variants?.length) {
    const variants = f.variants.flatMap((v) => {
      const vs = values(v.values, fit, form.uniqueNames);
      const supplement = fit(v.supplement, 50, 'SUPPLIER_AID_SUPPLEMENT');
      return vs.length > 0 && supplement
        ? [
            el('VARIANT', [
              ...vs.slice(0, form.templates ? vs.length : 1).map((x) => textEl('FVALUE', x)),
              textEl('SUPPLIER_AID_SUPPLEMENT', supplement),
            ]),
          ]
        : [];
    });
    if (variants.length > 0) body = el('VARIANTS', [...variants, textEl('VORDER', f.vorder ?? 1)]);
  }
  if (body === '') {
    // Every schema requires a value; the value's description is the nearest the file has.
    const detail = fit(f.details?.[0], 60, 'FVALUE');
    if (!detail) {
      lost.add('feature without a value left out');
      return null;
    }
    body = textEl('FVALUE', detail);
    lost.add('feature without FVALUE written with its FVALUE_DETAILS as FVALUE');
  }
  if (f.fid || f.parentId) lost.add('FID / FPARENT_ID left out (the schema has no feature tree)');
  if (f.valueType) lost.add('FVALUE_TYPE left out');
  const details = (f.details ?? []).map((d) => fit(d, 250, 'FVALUE_DETAILS')).filter((d): d is string => !!d);
  return {
    name,
    xml: el('FEATURE', [
      head,
      body,
      textEl('FUNIT', fit(f.unit, 20, 'FUNIT')),
      form.orderAndDescr ? textEl('FORDER', f.order) : '',
      form.orderAndDescr ? textEl('FDESCR', fit(f.descr, 250, 'FDESCR')) : '',
      ...(form.repeatedDetails ? details : details.slice(0, 1)).map((d) => textEl('FVALUE_DETAILS', d)),
    ]),
  };
}

/**
 * A category's FEATUREs (CATALOG_STRUCTURE has no place for them in any dialect's schema, so
 * they are written only with udxVerbatim, catalog-structure.ts) in `form`'s rules, in order.
 */
export function featureElements(
  features: readonly StoredFeature[],
  form: BlockForm,
  subject: string,
  warnings: ExportWarnings,
): string {
  const fit = fitter(subject, warnings);
  const lost = new Set<string>();
  const out = features.flatMap((f) => feature(f, form, fit, lost)?.xml ?? []).join('');
  for (const reason of lost) warnings.add(`group features: ${reason}`, subject);
  return out;
}

/**
 * The feature blocks of other systems (UNSPSC, udf_*, eCl@ss Advanced …) as `form` can write
 * them, in their stored order, after the classification blocks. What the schema cannot
 * express is written in the nearest valid form or left out, with an export warning; the file
 * stays valid.
 */
export function otherFeatureBlocks(
  blocks: readonly StoredFeatureBlock[] | undefined,
  form: BlockForm,
  subject: string,
  warnings: ExportWarnings,
): string[] {
  const fit = fitter(subject, warnings);
  return (blocks ?? []).map((block) => {
    const lost = new Set<string>();
    const features: string[] = [];
    const names = new Set<string>();
    for (const f of block.features) {
      const out = feature(f, form, fit, lost);
      if (!out) continue;
      if (form.uniqueNames && names.has(out.name)) {
        lost.add('repeated FNAME left out (the schema requires unique names)');
        continue;
      }
      names.add(out.name);
      features.push(out.xml);
    }
    let groupId = fit(block.groupId, 60, 'REFERENCE_FEATURE_GROUP_ID');
    let groupName = groupId ? null : fit(block.groupName, 60, 'REFERENCE_FEATURE_GROUP_NAME');
    if (groupId && block.groupName)
      lost.add('REFERENCE_FEATURE_GROUP_NAME left out (the schema allows the id or the name)');
    if (form.groupIdRequired && !groupId) {
      groupId = groupName ?? '-';
      groupName = null;
    }
    if (block.groupId2 && !form.groupId2) lost.add('REFERENCE_FEATURE_GROUP_ID2 left out');
    const system =
      block.system === ''
        ? form.groupIdRequired
          ? 'UNKNOWN'
          : null
        : form.systemPattern
          ? systemName(block.system, subject, warnings)
          : fit(block.system, 50, 'REFERENCE_FEATURE_SYSTEM_NAME');
    for (const reason of lost) warnings.add(`feature block ${block.system || '(unnamed)'}: ${reason}`, subject);
    return el(form.element, [
      textEl('REFERENCE_FEATURE_SYSTEM_NAME', system),
      textEl('REFERENCE_FEATURE_GROUP_ID', groupId),
      textEl('REFERENCE_FEATURE_GROUP_NAME', groupName),
      form.groupId2
        ? textEl('REFERENCE_FEATURE_GROUP_ID2', fit(block.groupId2, 60, 'REFERENCE_FEATURE_GROUP_ID2'))
        : '',
      ...features,
    ]);
  });
}
