import type { FeatureBlockInput, StoredFeature, StoredFeatureGroup } from '../../model/feature-block-types';
import { parseLanguage } from '../../kernel/languages';
import { child, children, textOf, type XmlNode } from '../read/xml-node';

const texts = (node: XmlNode | undefined, name: string) =>
  children(node, name)
    .map((n) => n.text.trim())
    .filter((t) => t !== '');

const integerOf = (text: string | null) => (text !== null && /^[+-]?\d+$/.test(text) ? Number(text) : undefined);

/** Sets `key` only when the value is there, so the stored JSON holds no empty parts. */
function put<K extends keyof StoredFeature>(out: StoredFeature, key: K, value: StoredFeature[K] | null | undefined) {
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return;
  out[key] = value;
}

/**
 * Whether a block uses eCl@ss Advanced's form (FTEMPLATE / FT_IDREF instead of FNAME, or
 * FEATURE_GROUPs): its features are a tree the classification model cannot hold, so the block
 * is kept whole as a feature block even when its system is eCl@ss (docs/import.md "Feature systems").
 */
export function isAdvancedBlock(block: XmlNode): boolean {
  const groups = children(block, 'FEATURE_GROUP');
  return groups.length > 0 || children(block, 'FEATURE').some((f) => child(f, 'FTEMPLATE', 'FT_IDREF') !== undefined);
}

/**
 * The names after the first one, by their `lang` (BMEcat 2005: a feature name per language):
 * the first of each language is kept; one without a language that the table knows, or
 * repeating the first name's text, adds nothing.
 */
function furtherNames(nodes: XmlNode[], first: string | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const n of nodes.slice(1)) {
    const code = n.attrs.lang ? parseLanguage(n.attrs.lang) : undefined;
    const text = n.text.trim();
    if (code && text !== '' && text !== first && out[code] === undefined) out[code] = text;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** One FEATURE as written: FNAME or FTEMPLATE/FT_IDREF, FVALUEs or VALUE_IDREFs or VARIANTS, and the rest. */
function featureOf(f: XmlNode): StoredFeature | null {
  const out: StoredFeature = {};
  const template = child(f, 'FTEMPLATE');
  put(out, 'name', textOf(f, 'FNAME'));
  put(out, 'names', furtherNames(children(f, 'FNAME'), out.name));
  put(out, 'ftId', textOf(template, 'FT_ID') ?? textOf(f, 'FT_IDREF'));
  put(out, 'ftName', textOf(template, 'FT_NAME'));
  const values = children(f, 'FVALUE').filter((n) => n.text.trim() !== '');
  put(
    out,
    'values',
    values.map((n) => n.text.trim()),
  );
  // A value per language (FVALUE lang="deu", lang="eng") keeps its language, so it is written back as such.
  const langs = values.map((n) => (n.attrs.lang ? (parseLanguage(n.attrs.lang) ?? '') : ''));
  if (langs.some((l) => l !== '')) out.valueLangs = langs;
  put(out, 'valueIdrefs', texts(f, 'VALUE_IDREF'));
  const variants = child(f, 'VARIANTS');
  if (variants) {
    put(
      out,
      'variants',
      children(variants, 'VARIANT').map((v) => ({
        values: texts(v, 'FVALUE'),
        supplement: textOf(v, 'SUPPLIER_AID_SUPPLEMENT') ?? '',
      })),
    );
    put(out, 'vorder', integerOf(textOf(variants, 'VORDER')));
  }
  put(out, 'unit', textOf(f, 'FUNIT'));
  put(out, 'order', integerOf(textOf(f, 'FORDER')));
  put(out, 'descr', textOf(f, 'FDESCR'));
  put(out, 'details', texts(f, 'FVALUE_DETAILS'));
  put(out, 'valueType', textOf(f, 'FVALUE_TYPE'));
  put(out, 'fid', textOf(f, 'FID'));
  put(out, 'parentId', textOf(f, 'FPARENT_ID'));
  return out.name !== undefined || out.ftId !== undefined ? out : null;
}

/**
 * A block's system and group id as stored, from a file of our own BMEcat export, which wrote
 * them as its schema allows (exports/bmecat/other-feature-blocks.ts): `udf_…` (BMEcat's prefix
 * for user-defined systems) as `udf-…`, because the 2005 and ETIM schemas' `[\w\-\.]` excludes
 * the underscore, is read back as `udf_`; the ETIM profile's `-` for a block without group id
 * (the profile requires one) as none. Other replaced characters cannot be told from a written
 * `-` and stay as read.
 */
function ownExportNames(system: string, groupId: string | null) {
  return {
    system: system.startsWith('udf-') ? `udf_${system.slice(4)}` : system,
    groupId: groupId === '-' ? null : groupId,
  };
}

/** A FEATURE_GROUP's own parts (its features are read by featureBlockOf). */
function groupOf(g: XmlNode): StoredFeatureGroup {
  const out: Partial<StoredFeatureGroup> = {};
  const names = children(g, 'FEATURE_GROUP_NAME').filter((n) => n.text.trim() !== '');
  if (names[0]) out.name = names[0].text.trim();
  const further = furtherNames(names, out.name);
  if (further) out.names = further;
  const descr = textOf(g, 'FEATURE_GROUP_DESCRIPTION');
  if (descr) out.descr = descr;
  const type = g.attrs.featureGroupType?.trim();
  if (type) out.type = type;
  return { id: textOf(g, 'REFERENCE_FEATURE_GROUP_ID') ?? '-', ...out };
}

/**
 * A PRODUCT_FEATURES / ARTICLE_FEATURES block of a system the classification model does not
 * take, kept whole and in order (features without a name or template id are left out and
 * counted): its FEATUREs, then those of each FEATURE_GROUP (eCl@ss Advanced, BMEcat 2005+onto
 * and 2005.1), each pointing at its group by `featureGroup`, with FID / FPARENT_ID as written.
 * Nested FEATUREs (2005.1's sub-features) are flattened after their parent, in its group.
 */
export function featureBlockOf(
  block: XmlNode,
  /** The file is one of our own BMEcat exports: its system names and group ids are read back (ownExportNames). */
  ownExport = false,
): { block: FeatureBlockInput; dropped: number } {
  let dropped = 0;
  const features: StoredFeature[] = [];
  const visit = (f: XmlNode, group: number | undefined) => {
    const feature = featureOf(f);
    if (feature) features.push(group === undefined ? feature : { ...feature, featureGroup: group });
    else dropped++;
    for (const sub of children(f, 'FEATURE')) visit(sub, group);
  };
  for (const f of children(block, 'FEATURE')) visit(f, undefined);
  const featureGroups = children(block, 'FEATURE_GROUP').map((g, index) => {
    for (const f of children(g, 'FEATURE')) visit(f, index);
    return groupOf(g);
  });
  const id2 = child(block, 'REFERENCE_FEATURE_GROUP_ID2');
  const id2Type = id2?.attrs.type?.trim();
  const names = {
    system: textOf(block, 'REFERENCE_FEATURE_SYSTEM_NAME') ?? '',
    groupId: textOf(block, 'REFERENCE_FEATURE_GROUP_ID'),
  };
  return {
    block: {
      ...(ownExport ? ownExportNames(names.system, names.groupId) : names),
      groupId2: textOf(block, 'REFERENCE_FEATURE_GROUP_ID2'),
      ...(id2Type && textOf(block, 'REFERENCE_FEATURE_GROUP_ID2') ? { groupId2Type: id2Type.slice(0, 20) } : {}),
      groupName: textOf(block, 'REFERENCE_FEATURE_GROUP_NAME'),
      features,
      ...(featureGroups.length > 0 ? { featureGroups } : {}),
    },
    dropped,
  };
}
