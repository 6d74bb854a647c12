import type { FeatureBlockInput, StoredFeature, StoredFeatureGroup } from '../../model/feature-block-types';
import { BIM_STATUSES, MODELLING_SYSTEM } from '../../model/feature-block-types';
import { child, children, textOf, type XmlNode } from '../read/xml-node';
import type { FileWarning } from './record-actions';

const PATH = 'USER_DEFINED_EXTENSIONS/UDX.EDXF.PRODUCT_FEATURES_MC';

const wholeNumber = (text: string | null) => (text && /^[0-9]{1,6}$/.test(text) ? Number(text) : null);

/** The values of one FEATURE_MC: FVALUEs, or coordinates (X, Y, Z) or a matrix as the xChange import stores them. */
function valuesOf(f: XmlNode): Pick<StoredFeature, 'values' | 'valueType'> | null {
  const plain = children(f, 'UDX.EDXF.FVALUE')
    .map((v) => v.text.trim())
    .filter((v) => v !== '');
  if (plain.length > 0) return { values: plain.slice(0, 100) };
  const xyz = ['UDX.EDXF.COORDINATE_X', 'UDX.EDXF.COORDINATE_Y', 'UDX.EDXF.COORDINATE_Z'].map(
    (n) => textOf(f, n) ?? '',
  );
  if (xyz.some((c) => c !== '')) return { values: xyz, valueType: 'coordinates' };
  const matrix = children(child(f, 'UDX.EDXF.MATRIX_VALUES'), 'UDX.EDXF.MATRIX_VALUE').flatMap((m) => {
    const [source, result] = [textOf(m, 'UDX.EDXF.MATRIX_SOURCE_VALUE'), textOf(m, 'UDX.EDXF.MATRIX_RESULT_VALUE')];
    return source && result ? [source, result] : [];
  });
  return matrix.length > 0 ? { values: matrix.slice(0, 100), valueType: 'matrix' } : null;
}

/**
 * The ETIM BMEcat guideline's UDX.EDXF.PRODUCT_FEATURES_MC (the product's ETIM modelling class)
 * as the feature block the xChange import makes of EtimModellingClassCode / Ports: system
 * ETIM-MC, the MC code as group id, its version and BIM status, one feature group per PORTCODE
 * (in the order the file first names it), each FEATURE_MC pointing at its port. What cannot be
 * held is reported; null when the product has none.
 */
export function bmecatModellingBlock(product: XmlNode, warnings: FileWarning[]): FeatureBlockInput | null {
  const mc = child(child(product, 'USER_DEFINED_EXTENSIONS'), 'UDX.EDXF.PRODUCT_FEATURES_MC');
  if (!mc) return null;
  const warn = (message: string, node: XmlNode) =>
    warnings.push({ code: 'modelling_dropped', message, line: node.line, path: PATH });
  const code = textOf(mc, 'UDX.EDXF.REFERENCE_FEATURE_MC_ID');
  if (!code || !/^MC[0-9]{6}$/.test(code)) {
    warn('UDX.EDXF.REFERENCE_FEATURE_MC_ID is not a modelling class code such as MC000023: left out', mc);
    return null;
  }
  const version = wholeNumber(textOf(mc, 'UDX.EDXF.REFERENCE_FEATURE_MC_VERSION'));
  if (version === null) warn('UDX.EDXF.REFERENCE_FEATURE_MC_VERSION is not a whole number: left out', mc);
  const status = textOf(mc, 'UDX.EDXF.BIM_STATUS');
  const bimStatus = BIM_STATUSES.find((s) => s === status);
  if (status && !bimStatus)
    warn(`UDX.EDXF.BIM_STATUS "${status.slice(0, 20)}" is not ready, test or incomplete: left out`, mc);
  const groups: StoredFeatureGroup[] = [];
  const features: StoredFeature[] = [];
  for (const f of children(mc, 'UDX.EDXF.FEATURE_MC')) {
    const port = wholeNumber(textOf(f, 'UDX.EDXF.PORTCODE'));
    const name = textOf(f, 'UDX.EDXF.FNAME');
    const value = valuesOf(f);
    if (port === null || !name || !value || name.length > 250) {
      warn(`UDX.EDXF.FEATURE_MC ${name?.slice(0, 20) ?? ''} without a PORTCODE, FNAME or value left out`, f);
      continue;
    }
    let index = groups.findIndex((g) => g.id === String(port));
    if (index < 0 && groups.length < 1000) index = groups.push({ id: String(port) }) - 1;
    if (index < 0 || features.length >= 1000) {
      warn(`UDX.EDXF.FEATURE_MC ${name}: more than 1000 ports or features, left out`, f);
      continue;
    }
    features.push({ name, ...value, featureGroup: index });
  }
  const modelling = { ...(version !== null ? { version } : {}), ...(bimStatus ? { bimStatus } : {}) };
  return {
    system: MODELLING_SYSTEM,
    groupId: code,
    features,
    ...(groups.length > 0 ? { featureGroups: groups } : {}),
    ...(Object.keys(modelling).length > 0 ? { modelling } : {}),
  };
}
