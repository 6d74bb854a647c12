import { child, children, textOf } from '../imports/read/xml-node';
import type { XmlNode } from '../imports/read/xml-node';
import { ftValues, TEMPLATE_LIST } from './bmecat-ft-values';
import {
  type FeatureType,
  type FormatSpec,
  mustKnow,
  normalizeLanguage,
  type ParsedRows,
  RowReject,
  type RowContext,
  xmlFormatSpec,
} from './release-rows';

/**
 * The feature system of a BMEcat 2005 file (CLASSIFICATION_SYSTEM): UNITS/UNIT (UNIT_ID,
 * UNIT_NAME, UNIT_SHORTNAME, UNIT_CODE), ALLOWED_VALUES/ALLOWED_VALUE (ALLOWED_VALUE_ID,
 * ALLOWED_VALUE_NAME), FEATURE_TEMPLATES/FEATURE_TEMPLATE (FT_ID, FT_NAME, FT_DATATYPE,
 * FT_UNIT_IDREF) and CLASSIFICATION_GROUPS/CLASSIFICATION_GROUP (CLASSIFICATION_GROUP_ID,
 * _NAME, _PARENT_ID, _SYNONYMS, and its CLASSIFICATION_GROUP_FEATURE_TEMPLATEs with FT_IDREF,
 * FT_MANDATORY, FT_DATATYPE, FT_UNIT_IDREF, FT_ORDER and FT_ALLOWED_VALUES/ALLOWED_VALUE_IDREF).
 * Value lists inline as FT_VALUES/FT_VALUE, in a feature template (every class using it gets
 * the list unless it has its own) or a class's feature template: bmecat-ft-values.ts.
 * Names carry BMEcat's `lang` attribute (ISO 639-2, e.g. deu); without it, the file's language.
 */
function dataType(given: string | null): FeatureType | null {
  if (given === null) return null;
  const type = given.toLowerCase();
  if (type === 'boolean') return 'L';
  if (['integer', 'float', 'decimal', 'number', 'double', 'int'].includes(type)) return 'N';
  if (type === 'range') return 'R';
  return 'A';
}

/** The first descendant named `name` (the feature template nests its type in FEATURE_CONTENT). */
function deep(node: XmlNode, name: string): XmlNode | undefined {
  for (const c of node.children) {
    if (c.name === name) return c;
    const hit = deep(c, name);
    if (hit) return hit;
  }
  return undefined;
}

const deepText = (node: XmlNode, name: string) => deep(node, name)?.text.trim() || null;

function names(node: XmlNode, element: string, ctx: RowContext) {
  return children(node, element)
    .map((n) => ({ lang: n.attrs.lang ? normalizeLanguage(n.attrs.lang) : ctx.lang, name: n.text.trim() }))
    .filter((n) => n.name !== '');
}

function idOf(node: XmlNode, element: string): string {
  const id = textOf(node, element);
  if (!id) throw new RowReject(`${node.name} has no ${element}`);
  return id;
}

const entity = { deprecated: false, successor: null };

function parseNode(node: XmlNode, ctx: RowContext): ParsedRows {
  if (node.name === 'UNIT') {
    const code = idOf(node, 'UNIT_ID');
    return {
      units: [{ code, unece: textOf(node, 'UNIT_CODE'), symbol: textOf(node, 'UNIT_SHORTNAME') }],
      names: names(node, 'UNIT_NAME', ctx).map((n) => ({ kind: 'U' as const, code, ...n })),
    };
  }
  if (node.name === 'ALLOWED_VALUE') {
    const code = idOf(node, 'ALLOWED_VALUE_ID');
    return {
      values: [{ code, ...entity }],
      names: names(node, 'ALLOWED_VALUE_NAME', ctx).map((n) => ({ kind: 'V' as const, code, ...n })),
    };
  }
  if (node.name === 'FEATURE_TEMPLATE') {
    const code = idOf(node, 'FT_ID');
    const unit = deepText(node, 'FT_UNIT_IDREF');
    const list = ftValues(deep(node, 'FT_VALUES'), TEMPLATE_LIST, code, ctx);
    return {
      ...list,
      features: [
        {
          code,
          type: dataType(deepText(node, 'FT_DATATYPE')),
          unitCode: unit === null ? null : mustKnow(ctx.known, 'U', unit, 'unit'),
          ...entity,
        },
      ],
      names: [...names(node, 'FT_NAME', ctx).map((n) => ({ kind: 'F' as const, code, ...n })), ...list.names],
    };
  }
  const code = idOf(node, 'CLASSIFICATION_GROUP_ID');
  const level = Number(node.attrs.level);
  const out: Required<Pick<ParsedRows, 'classFeatures' | 'classFeatureValues' | 'values' | 'names'>> = {
    classFeatures: [],
    classFeatureValues: [],
    values: [],
    names: [],
  };
  const templates = children(
    child(node, 'CLASSIFICATION_GROUP_FEATURE_TEMPLATES'),
    'CLASSIFICATION_GROUP_FEATURE_TEMPLATE',
  );
  templates.forEach((t, i) => {
    const featureCode = mustKnow(ctx.known, 'F', idOf(t, 'FT_IDREF'), 'feature');
    const unit = textOf(t, 'FT_UNIT_IDREF');
    const order = textOf(t, 'FT_ORDER');
    const mandatory = textOf(t, 'FT_MANDATORY');
    out.classFeatures.push({
      classCode: code,
      featureCode,
      sort: order !== null && /^\d+$/.test(order) ? Number(order) : i + 1,
      type: dataType(textOf(t, 'FT_DATATYPE')),
      unitCode: unit === null ? null : mustKnow(ctx.known, 'U', unit, 'unit'),
      mandatory: mandatory === null ? null : mandatory === 'true',
      ref: null,
    });
    children(child(t, 'FT_ALLOWED_VALUES'), 'ALLOWED_VALUE_IDREF').forEach((v, j) => {
      out.classFeatureValues.push({
        classCode: code,
        featureCode,
        valueCode: mustKnow(ctx.known, 'V', v.text.trim(), 'value'),
        sort: j + 1,
      });
    });
    const inline = ftValues(child(t, 'FT_VALUES'), code, featureCode, ctx);
    out.classFeatureValues.push(...inline.classFeatureValues);
    out.values.push(...inline.values);
    out.names.push(...inline.names);
  });
  return {
    classes: [
      {
        code,
        parentCode: textOf(node, 'CLASSIFICATION_GROUP_PARENT_ID'),
        level: Number.isInteger(level) && level > 0 ? level : null,
        ...entity,
      },
    ],
    synonyms: children(child(node, 'CLASSIFICATION_GROUP_SYNONYMS'), 'SYNONYM')
      .map((s) => ({
        classCode: code,
        lang: s.attrs.lang ? normalizeLanguage(s.attrs.lang) : ctx.lang,
        synonym: s.text.trim(),
      }))
      .filter((s) => s.synonym !== ''),
    ...out,
    names: [
      ...names(node, 'CLASSIFICATION_GROUP_NAME', ctx).map((n) => ({ kind: 'C' as const, code, ...n })),
      ...out.names,
    ],
  };
}

export const BMECAT_FEATURE_SYSTEM_FORMAT: FormatSpec = xmlFormatSpec(
  'not an element of a BMEcat feature system',
  parseNode,
);
