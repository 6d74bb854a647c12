import type { StoredFeature, StoredFeatureBlock } from '../../model/feature-block-types';
import type { ExportWarnings } from '../export-warnings';
import { ETIM_VALUE_CODE, XCHANGE_NUMBER } from './xchange-codes';

type Json = Record<string, unknown>;

/** EtimFeatureCode of a modelling feature: the schema admits no country codes here (EFNL0001 …). */
const MODELLING_FEATURE_CODE = /^EF([0-9]{6}|I[0-9]{5})$/;

/**
 * The value members of one modelling feature (xChange EtimModellingFeatures item) from its
 * stored values (imports/records/xchange-modelling.ts `modellingValues`); null when xChange has
 * no typed place for it (a text, a feature without value).
 */
export function modellingValue(f: StoredFeature): Json | null {
  const values = f.values ?? [];
  if (f.valueType === 'coordinates') {
    const [x, y, z] = values.map((v) => (XCHANGE_NUMBER.test(v) ? v : undefined));
    return x || y || z ? { EtimValueCoordinateX: x, EtimValueCoordinateY: y, EtimValueCoordinateZ: z } : null;
  }
  if (f.valueType === 'matrix') {
    const pairs: Json[] = [];
    for (let i = 0; i + 1 < values.length; i += 2)
      if (XCHANGE_NUMBER.test(values[i]!) && XCHANGE_NUMBER.test(values[i + 1]!))
        pairs.push({ EtimValueMatrixSource: values[i], EtimValueMatrixResult: values[i + 1] });
    return pairs.length > 0 ? { EtimValueMatrix: pairs } : null;
  }
  const [first, second] = values;
  if (first === undefined) return null;
  if (second !== undefined && XCHANGE_NUMBER.test(first) && XCHANGE_NUMBER.test(second))
    return { EtimValueRangeLower: first, EtimValueRangeUpper: second };
  if (ETIM_VALUE_CODE.test(first)) return { EtimValueCode: first };
  if (first === 'true' || first === 'false') return { EtimValueLogical: first === 'true' };
  if (XCHANGE_NUMBER.test(first)) return { EtimValueNumeric: first };
  return null;
}

const whole = (text: string) => (/^[0-9]{1,9}$/.test(text) ? Number(text) : null);

/**
 * EtimModellingClassCode, EtimModellingClassVersion and EtimModellingPorts of an ETIM-MC block
 * (one port per feature group, its features in stored order). What xChange cannot say is left
 * out and reported: a feature outside a port, a value without typed form, BMEcat's BIM status.
 */
export function modellingClass(block: StoredFeatureBlock, subject: string, w: ExportWarnings): Json {
  if (!block.groupId || !/^MC[0-9]{6}$/.test(block.groupId)) {
    w.add(`ETIM modelling class "${(block.groupId ?? '').slice(0, 20)}" is not an MC code: left out`, subject);
    return {};
  }
  if (block.modelling?.bimStatus)
    w.add('BIM_STATUS of the modelling class left out: ETIM xChange has no place for it', subject);
  const groups = block.featureGroups ?? [];
  const ports = groups.map((g) => ({ group: g, port: whole(g.id), features: [] as Json[] }));
  for (const f of block.features) {
    const port = f.featureGroup === undefined ? undefined : ports[f.featureGroup];
    const name = f.name ?? f.ftId ?? '';
    if (!port || port.port === null) {
      w.add('modelling feature without a port (a whole port code) left out', subject);
      continue;
    }
    const value = modellingValue(f);
    if (!MODELLING_FEATURE_CODE.test(name) || !value) {
      w.add('modelling feature that is no ETIM code with a typed value left out', `${subject} (${name.slice(0, 20)})`);
      continue;
    }
    port.features.push({ EtimFeatureCode: name, ...value });
  }
  const written = ports.filter((p) => p.port !== null);
  return {
    EtimModellingClassCode: block.groupId,
    EtimModellingClassVersion: block.modelling?.version || undefined,
    EtimModellingPorts:
      written.length > 0
        ? written.map((p) => ({
            EtimModellingPortcode: p.port,
            EtimModellingConnectionTypeCode: p.group.connectionType,
            EtimModellingConnectionTypeVersion: p.group.connectionTypeVersion,
            EtimModellingFeatures: p.features.length > 0 ? p.features : undefined,
          }))
        : undefined,
  };
}
