import { child, children, textOf } from '../imports/read/xml-node';
import type { XmlNode } from '../imports/read/xml-node';
import { checkIxfHeader } from './ixf-header';
import {
  classVersionOf,
  type FeatureType,
  type FormatSpec,
  type Known,
  mustKnow,
  normalizeLanguage,
  type ParsedRows,
  RowReject,
  type RowContext,
  xmlFormatSpec,
} from './release-rows';

/**
 * ETIM releases in ETIM International's XML release format, ETIM IXF (ETIMIXF 1.x to 3.1, any
 * namespace: elements are read by local name). One file: IXF/Header, Units/Unit,
 * Features/Feature, Values/Value, Groups/Group and Classes/Class, in that order, each with Code
 * and Translations/Translation[@language] (Description, Abbreviation for units, Synonyms/Synonym
 * for classes). A Feature has its Type (A, N, R, L or the words Alphanumeric, Numeric, Range,
 * Logical); a Class its Version, Status, GroupCode and Features/Feature (FeatureCode, UnitCode,
 * OrderNumber, and Values/Value with ValueCode and OrderNumber). Every language of the file is
 * loaded at once. The Header's release must not contradict the request (ixf-header.ts). Groups
 * are stored as names of kind G and each class keeps its group. A class feature or class value
 * whose `changeCode` says it was deleted (files "with change codes") is not part of the release.
 * Lifecycle, on classes, features and values: a Status that says deprecated (or expired,
 * withdrawn, obsolete), a Deprecated flag, or a successor (ReplacedBy, Successor, SuccessorCode)
 * marks the entry deprecated, with the successor the upgrade planner follows.
 */
const CODE = { C: /^EC\d{6}$/, F: /^EF\d{6}$/, V: /^EV\d{6}$/, U: /^EU\d{6}$/, G: /^EG\d{6}$/ } as const;
const TYPE_WORDS: Record<string, FeatureType> = {
  A: 'A',
  N: 'N',
  R: 'R',
  L: 'L',
  ALPHANUMERIC: 'A',
  NUMERIC: 'N',
  RANGE: 'R',
  LOGICAL: 'L',
};
const DELETED = new Set(['deleted', 'removed', 'delete']);
const RETIRED = /deprecat|expired|withdrawn|obsolete|retired/i;

function code(node: XmlNode, element: string, kind: keyof typeof CODE): string {
  const value = textOf(node, element)?.toUpperCase();
  if (!value) throw new RowReject(`${node.name} has no ${element}`);
  if (!CODE[kind].test(value)) throw new RowReject(`${element} "${value}" is not an ETIM code (${CODE[kind].source})`);
  return value;
}

/** The Translation elements: language (EN, de-DE, nl-BE ...) and the element itself. */
function translations(node: XmlNode) {
  return children(child(node, 'Translations'), 'Translation').map((t) => {
    const given = t.attrs.language;
    if (!given) throw new RowReject(`${node.name} has a Translation without its language attribute`);
    return { lang: normalizeLanguage(given), node: t };
  });
}

function names(node: XmlNode, kind: 'C' | 'F' | 'V' | 'U' | 'G', code: string) {
  return translations(node).flatMap(({ lang, node: t }) => {
    const name = textOf(t, 'Description');
    return name ? [{ kind, code, lang, name }] : [];
  });
}

function order(node: XmlNode, fallback: number): number {
  const given = textOf(node, 'OrderNumber', 'SortNumber');
  if (given === null) return fallback;
  if (!/^\d{1,9}$/.test(given)) throw new RowReject(`OrderNumber "${given}" is not a whole number`);
  return Number(given);
}

const deleted = (node: XmlNode) => DELETED.has((node.attrs.changeCode ?? '').toLowerCase());

/** Deprecation and successor of a class, feature or value, as far as the entry states them. */
function lifecycle(node: XmlNode, kind: 'C' | 'F' | 'V') {
  const given = textOf(node, 'ReplacedBy', 'Successor', 'SuccessorCode')?.toUpperCase() ?? null;
  if (given !== null && !CODE[kind].test(given))
    throw new RowReject(`successor "${given}" is not an ETIM code (${CODE[kind].source})`);
  const status = textOf(node, 'Status');
  const flag = textOf(node, 'Deprecated')?.toLowerCase();
  const deprecated = given !== null || (status !== null && RETIRED.test(status)) || flag === 'true' || flag === '1';
  return { deprecated, successor: given };
}

function parseClass(node: XmlNode, known: Known): ParsedRows {
  const classCode = code(node, 'Code', 'C');
  const out: Required<Pick<ParsedRows, 'classFeatures' | 'classFeatureValues'>> = {
    classFeatures: [],
    classFeatureValues: [],
  };
  children(child(node, 'Features'), 'Feature').forEach((f, i) => {
    if (deleted(f)) return;
    const featureCode = mustKnow(known, 'F', code(f, 'FeatureCode', 'F'), 'feature');
    const unit = textOf(f, 'UnitCode');
    out.classFeatures.push({
      classCode,
      featureCode,
      sort: order(f, i + 1),
      type: null,
      unitCode: unit === null ? null : mustKnow(known, 'U', unit.toUpperCase(), 'unit'),
      mandatory: null,
      ref: null,
    });
    children(child(f, 'Values'), 'Value').forEach((v, j) => {
      if (deleted(v)) return;
      out.classFeatureValues.push({
        classCode,
        featureCode,
        valueCode: mustKnow(known, 'V', code(v, 'ValueCode', 'V'), 'value'),
        sort: order(v, j + 1),
      });
    });
  });
  const group = textOf(node, 'GroupCode')?.toUpperCase() ?? null;
  if (group !== null && !CODE.G.test(group))
    throw new RowReject(`GroupCode "${group}" is not an ETIM code (${CODE.G.source})`);
  const groupCode = group === null ? null : mustKnow(known, 'G', group, 'group');
  return {
    classes: [
      {
        code: classCode,
        parentCode: null,
        level: null,
        groupCode,
        version: classVersionOf(textOf(node, 'Version'), 'Version'),
        ...lifecycle(node, 'C'),
      },
    ],
    names: names(node, 'C', classCode),
    synonyms: translations(node).flatMap(({ lang, node: t }) =>
      children(child(t, 'Synonyms'), 'Synonym')
        .map((s) => s.text.trim())
        .filter((s) => s !== '')
        .map((synonym) => ({ classCode, lang, synonym })),
    ),
    ...out,
  };
}

function parseNode(node: XmlNode, ctx: RowContext): ParsedRows {
  if (node.name === 'Header') {
    checkIxfHeader(node, ctx.version);
    return {};
  }
  if (node.name === 'Unit') {
    const unitCode = code(node, 'Code', 'U');
    const symbols = translations(node).map(({ lang, node: t }) => ({ lang, symbol: textOf(t, 'Abbreviation') }));
    const symbol = (symbols.find((s) => s.lang.startsWith('en')) ?? symbols[0])?.symbol ?? null;
    return {
      units: [{ code: unitCode, unece: textOf(node, 'UneceCode', 'UNECE'), symbol }],
      names: names(node, 'U', unitCode),
    };
  }
  if (node.name === 'Feature') {
    const featureCode = code(node, 'Code', 'F');
    const given = textOf(node, 'Type');
    const type = given === null ? null : TYPE_WORDS[given.toUpperCase()];
    if (type === undefined) throw new RowReject(`Type "${given}" is not one of A, N, R, L`);
    return {
      features: [{ code: featureCode, type, ...lifecycle(node, 'F') }],
      names: names(node, 'F', featureCode),
    };
  }
  if (node.name === 'Value') {
    const valueCode = code(node, 'Code', 'V');
    return { values: [{ code: valueCode, ...lifecycle(node, 'V') }], names: names(node, 'V', valueCode) };
  }
  if (node.name === 'Group') {
    const groupCode = code(node, 'Code', 'G');
    const groupNames = names(node, 'G', groupCode);
    if (groupNames.length === 0) throw new RowReject(`Group ${groupCode} has no Translation with a Description`);
    return { names: groupNames };
  }
  return parseClass(node, ctx.known);
}

export const ETIM_IXF_FORMAT: FormatSpec = xmlFormatSpec('not an entry of an ETIM IXF file', parseNode);
