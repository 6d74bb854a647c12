import { children } from '../imports/read/xml-node';
import type { XmlNode } from '../imports/read/xml-node';
import { mustKnow, normalizeLanguage, type ParsedRows, RowReject, type RowContext } from './release-rows';

/**
 * The class code under which a feature template's own value list (FEATURE_TEMPLATE/FT_VALUES)
 * is written while loading: no class has it. Finalize gives the list to every class feature of
 * that template that has no list of its own, then deletes these rows (release-finalize.ts).
 */
export const TEMPLATE_LIST = '';

/**
 * A BMEcat 2005 FT_VALUES list (in a FEATURE_TEMPLATE or a CLASSIFICATION_GROUP_FEATURE_TEMPLATE):
 * each FT_VALUE names an earlier ALLOWED_VALUE by VALUE_IDREF, or carries the value inline as
 * VALUE_SIMPLE (language-neutral) or VALUE_TEXT (one per `lang`), with an optional VALUE_ID and
 * VALUE_ORDER. An inline value becomes a value of the release: its code is VALUE_ID, else the
 * value itself as a supplier writes it in FVALUE (VALUE_SIMPLE, else the text in the file's
 * language, else the first text), its names the texts in every language. VALUE_RANGE (a range,
 * not a list entry) is passed over.
 */
export function ftValues(
  list: XmlNode | undefined,
  classCode: string,
  featureCode: string,
  ctx: RowContext,
): Required<Pick<ParsedRows, 'values' | 'names' | 'classFeatureValues'>> {
  const out: Required<Pick<ParsedRows, 'values' | 'names' | 'classFeatureValues'>> = {
    values: [],
    names: [],
    classFeatureValues: [],
  };
  const seen = new Set<string>();
  children(list, 'FT_VALUE').forEach((v, i) => {
    const text = (name: string) => children(v, name)[0]?.text.trim() || null;
    const order = text('VALUE_ORDER');
    if (order !== null && !/^\d{1,9}$/.test(order)) throw new RowReject(`VALUE_ORDER "${order}" is not a whole number`);
    const sort = order === null ? i + 1 : Number(order);
    const ref = text('VALUE_IDREF');
    let code: string;
    if (ref !== null) code = mustKnow(ctx.known, 'V', ref, 'value');
    else {
      const simple = text('VALUE_SIMPLE');
      const texts = children(v, 'VALUE_TEXT')
        .map((t) => ({ lang: t.attrs.lang ? normalizeLanguage(t.attrs.lang) : ctx.lang, name: t.text.trim() }))
        .filter((t) => t.name !== '');
      if (simple === null && texts.length === 0) {
        if (children(v, 'VALUE_RANGE').length > 0) return;
        throw new RowReject(`FT_VALUE of ${featureCode} has no VALUE_IDREF, VALUE_SIMPLE or VALUE_TEXT`);
      }
      code = text('VALUE_ID') ?? simple ?? (texts.find((t) => t.lang === ctx.lang) ?? texts[0])!.name;
      out.values.push({ code, deprecated: false, successor: null });
      const names = simple !== null && texts.length === 0 ? [{ lang: ctx.lang, name: simple }] : texts;
      for (const n of names) out.names.push({ kind: 'V', code, ...n });
    }
    if (seen.has(code)) return;
    seen.add(code);
    out.classFeatureValues.push({ classCode, featureCode, valueCode: code, sort });
  });
  return out;
}
