import type { StoredFeature, StoredFeatureGroup } from '../../model/feature-block-types';
import type { ExportWarnings } from '../export-warnings';
import type { BlockForm } from './block-form';
import { el, fitText, textEl } from './xml-text';

/** Fits a text to a schema limit, reporting a cut; null for an empty text. */
export type Fit = (value: string | null | undefined, max: number, what: string) => string | null;

export function fitter(subject: string, warnings: ExportWarnings): Fit {
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

/** The FVALUEs with their `lang` where the feature has one and the schema carries it (FVALUE is dtMLSTRING in 2005). */
function plainValues(f: StoredFeature, form: BlockForm, fit: Fit, lost: Set<string>): string[] {
  if (!f.valueLangs?.some((l) => l !== ''))
    return values(f.values, fit, form.uniqueNames).map((v) => textEl('FVALUE', v));
  if (!form.valueLangs) {
    lost.add('the language of FVALUEs left out (the schema has none)');
    return values(f.values, fit, form.uniqueNames).map((v) => textEl('FVALUE', v));
  }
  return (f.values ?? []).flatMap((v, i) => {
    const text = fit(v, 60, 'FVALUE');
    const lang = f.valueLangs?.[i];
    return text ? [textEl('FVALUE', text, lang ? { lang } : undefined)] : [];
  });
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

/**
 * FNAME, or FTEMPLATE / FT_IDREF where the schema has templates. A feature of a FEATURE_GROUP
 * written flat (`flatGroup`) carries the group as its template's FT_GROUP_NAME: the schema's
 * own place for the group a feature template belongs to.
 */
function headOf(
  f: StoredFeature,
  form: BlockForm,
  fit: Fit,
  lost: Set<string>,
  flatGroup: StoredFeatureGroup | undefined,
): { name: string; head: string } {
  const fname = fit(f.name, 60, 'FNAME');
  if (fname) {
    if (flatGroup) lost.add('the FEATURE_GROUP of a feature with FNAME left out');
    return { name: fname, head: textEl('FNAME', fname) + furtherNames(f, form, fit, lost) };
  }
  const id = fit(f.ftId, 60, 'FT_ID')!;
  if (form.templates) {
    const ftName = fit(f.ftName, 80, 'FT_NAME');
    if (!ftName) {
      if (flatGroup) lost.add('the FEATURE_GROUP of a feature with FT_IDREF left out');
      return { name: id, head: textEl('FT_IDREF', id) };
    }
    const group = flatGroup ? fit(flatGroup.name ?? flatGroup.id, 80, 'FT_GROUP_NAME') : null;
    return {
      name: id,
      head: el('FTEMPLATE', [textEl('FT_ID', id), textEl('FT_NAME', ftName), textEl('FT_GROUP_NAME', group)]),
    };
  }
  // No FTEMPLATE in this schema: the template's name (or id) stands in as FNAME.
  const name = fit(f.ftName ?? f.ftId, 60, 'FNAME')!;
  lost.add('FT_ID written as FNAME');
  if (flatGroup) lost.add('the FEATURE_GROUP of a feature left out (the schema has no templates)');
  return { name, head: textEl('FNAME', name) };
}

function variantsOf(f: StoredFeature, form: BlockForm, fit: Fit): string {
  const variants = (f.variants ?? []).flatMap((v) => {
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
  return variants.length > 0 ? el('VARIANTS', [...variants, textEl('VORDER', f.vorder ?? 1)]) : '';
}

/**
 * One FEATURE as `form` can write it, or null when it has no value at all. What the schema
 * cannot hold is added to `lost` (reported once per block); `flatGroup` is the FEATURE_GROUP of
 * a feature written flat (a schema without FEATURE_GROUP).
 */
export function featureOut(
  f: StoredFeature,
  form: BlockForm,
  fit: Fit,
  lost: Set<string>,
  flatGroup?: StoredFeatureGroup,
): { name: string; xml: string } | null {
  const { name, head } = headOf(f, form, fit, lost, flatGroup);
  const plain = plainValues(f, form, fit, lost);
  const idrefs = form.templates ? values(f.valueIdrefs, fit, false) : [];
  if (!form.templates && f.valueIdrefs?.length && plain.length === 0)
    plain.push(...values(f.valueIdrefs, fit, true).map((v) => textEl('FVALUE', v)));
  let body = '';
  if (plain.length > 0) body = plain.join('');
  else if (idrefs.length > 0) body = idrefs.map((v) => textEl('VALUE_IDREF', v)).join('');
  else if (form.variants && f.variants?.length) body = variantsOf(f, form, fit);
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
  if ((f.fid || f.parentId) && !form.tree) lost.add('FID / FPARENT_ID left out (the schema has no feature tree)');
  if (f.valueType) lost.add('FVALUE_TYPE left out');
  // FVALUEs have no position: a coordinate without Y (X, '', Z) reads back as X and Y.
  if (f.valueType === 'coordinates' && f.values?.some((v) => v === ''))
    lost.add(`coordinate ${name}: its empty part left out (X, Y, Z written as FVALUEs without position)`);
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
      form.tree ? textEl('FID', fit(f.fid, 250, 'FID')) : '',
      form.tree ? textEl('FPARENT_ID', fit(f.parentId, 250, 'FPARENT_ID')) : '',
    ]),
  };
}
