import type { FeatureBlockInput, StoredFeature } from '../../model/feature-block-types';
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
 * Whether a block uses eCl@ss Advanced's form (FTEMPLATE / FT_IDREF instead of FNAME): its
 * features are a tree the classification model cannot hold, so the block is kept whole as a
 * feature block even when its system is eCl@ss (docs/import.md "Feature systems").
 */
export function isAdvancedBlock(block: XmlNode): boolean {
  return children(block, 'FEATURE').some((f) => child(f, 'FTEMPLATE', 'FT_IDREF') !== undefined);
}

/**
 * The FNAMEs after the first one, by their `lang` (BMEcat 2005: a feature name per language):
 * the first of each language is kept; one without a language that the table knows, or
 * repeating the first name's text, adds nothing.
 */
function furtherNames(f: XmlNode, first: string | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const n of children(f, 'FNAME').slice(1)) {
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
  put(out, 'names', furtherNames(f, out.name));
  put(out, 'ftId', textOf(template, 'FT_ID') ?? textOf(f, 'FT_IDREF'));
  put(out, 'ftName', textOf(template, 'FT_NAME'));
  put(out, 'values', texts(f, 'FVALUE'));
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

/**
 * A PRODUCT_FEATURES / ARTICLE_FEATURES block of a system the classification model does not
 * take, kept whole and in order (features without a name or template id are left out and
 * counted). Nested FEATUREs (2005.1's sub-features) are flattened after their parent.
 */
export function featureBlockOf(
  block: XmlNode,
  /** The file is one of our own BMEcat exports: its system names and group ids are read back (ownExportNames). */
  ownExport = false,
): { block: FeatureBlockInput; dropped: number } {
  let dropped = 0;
  const features: StoredFeature[] = [];
  const visit = (f: XmlNode) => {
    const feature = featureOf(f);
    if (feature) features.push(feature);
    else dropped++;
    for (const sub of children(f, 'FEATURE')) visit(sub);
  };
  for (const f of children(block, 'FEATURE')) visit(f);
  const names = {
    system: textOf(block, 'REFERENCE_FEATURE_SYSTEM_NAME') ?? '',
    groupId: textOf(block, 'REFERENCE_FEATURE_GROUP_ID'),
  };
  return {
    block: {
      ...(ownExport ? ownExportNames(names.system, names.groupId) : names),
      groupId2: textOf(block, 'REFERENCE_FEATURE_GROUP_ID2'),
      groupName: textOf(block, 'REFERENCE_FEATURE_GROUP_NAME'),
      features,
    },
    dropped,
  };
}
