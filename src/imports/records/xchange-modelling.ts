import type { FeatureBlockInput, StoredFeature, StoredFeatureGroup } from '../../model/feature-block-types';
import { MODELLING_SYSTEM } from '../../model/feature-block-types';
import type { FileWarning } from './record-actions';

type Json = Record<string, any>;

const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const num = (v: unknown): string | null =>
  typeof v === 'number' && Number.isFinite(v) ? String(v) : typeof v === 'string' ? str(v) : null;

/** The members of an xChange modelling feature the block keeps (EtimModellingFeatures items of the V2.0 schema). */
const MODELLING_FEATURE_KEYS = new Set([
  'EtimFeatureCode',
  'EtimValueCode',
  'EtimValueNumeric',
  'EtimValueRangeLower',
  'EtimValueRangeUpper',
  'EtimValueLogical',
  'EtimValueCoordinateX',
  'EtimValueCoordinateY',
  'EtimValueCoordinateZ',
  'EtimValueMatrix',
]);
const PORT_KEYS = new Set([
  'EtimModellingPortcode',
  'EtimModellingConnectionTypeCode',
  'EtimModellingConnectionTypeVersion',
  'EtimModellingFeatures',
]);

/**
 * The stored values of one modelling feature (xChange or ETIM BMEcat FEATURE_MC), as a feature
 * block keeps them: an EV code, `true`/`false`, a number, a range as two values (as BMEcat's
 * two FVALUEs); coordinates as `valueType: 'coordinates'` with X, Y, Z ('' for one not given);
 * a matrix as `valueType: 'matrix'` with source and result values in turn. Null: no value.
 */
export function modellingValues(f: Json): Pick<StoredFeature, 'values' | 'valueType'> | null {
  if (typeof f.EtimValueCode === 'string' && f.EtimValueCode.trim()) return { values: [f.EtimValueCode.trim()] };
  if (typeof f.EtimValueLogical === 'boolean') return { values: [String(f.EtimValueLogical)] };
  const [lower, upper] = [str(f.EtimValueRangeLower), str(f.EtimValueRangeUpper)];
  if (lower && upper) return { values: [lower, upper] };
  const single = str(f.EtimValueNumeric) ?? lower ?? upper;
  if (single) return { values: [single] };
  const xyz = [f.EtimValueCoordinateX, f.EtimValueCoordinateY, f.EtimValueCoordinateZ].map((c) => num(c) ?? '');
  if (xyz.some((c) => c !== '')) return { values: xyz, valueType: 'coordinates' };
  const matrix = list(f.EtimValueMatrix).flatMap((m) => {
    const [source, result] = [num(m.EtimValueMatrixSource), num(m.EtimValueMatrixResult)];
    return source && result ? [source, result] : [];
  });
  if (matrix.length > 0) return { values: matrix, valueType: 'matrix' };
  return null;
}

const positiveInt = (v: unknown, min: number): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v >= min ? v : null;

/**
 * The modelling class of one xChange EtimClassification entry (EtimModellingClassCode, its
 * version and EtimModellingPorts) as a feature block of system ETIM-MC: one feature group per
 * port (its port code, connection type and version), each port's features pointing at it.
 * What it cannot hold is reported naming the field, never dropped silently. Null without one.
 */
export function xchangeModellingBlock(entry: Json, at: string, warnings: FileWarning[]): FeatureBlockInput | null {
  const warn = (message: string, path: string) => warnings.push({ code: 'modelling_dropped', message, line: 0, path });
  const code = str(entry.EtimModellingClassCode);
  const ports = list(entry.EtimModellingPorts);
  if (!code) {
    if (ports.length > 0 || entry.EtimModellingClassVersion !== undefined)
      warn('EtimModellingPorts without EtimModellingClassCode: left out', at);
    return null;
  }
  if (!/^MC[0-9]{6}$/.test(code)) {
    warn(`EtimModellingClassCode "${code.slice(0, 20)}" is not a modelling class code such as MC000023: left out`, at);
    return null;
  }
  const given = positiveInt(entry.EtimModellingClassVersion, 1);
  const version = given !== null && given <= 999999 ? given : null;
  if (entry.EtimModellingClassVersion !== undefined && version === null)
    warn(`EtimModellingClassVersion of ${code} is not a whole number from 1: left out`, at);
  const groups: StoredFeatureGroup[] = [];
  const features: StoredFeature[] = [];
  ports.forEach((port, pi) => {
    const where = `${at}.EtimModellingPorts[${pi}]`;
    const portCode = positiveInt(port.EtimModellingPortcode, 0);
    for (const key of Object.keys(port)) if (!PORT_KEYS.has(key)) warn(`${key} of a modelling port is not kept`, where);
    if (portCode === null) {
      warn('EtimModellingPortcode is missing or not a whole number: the port and its features left out', where);
      return;
    }
    if (groups.length >= 1000) {
      warn('more than 1000 modelling ports: the port left out', where);
      return;
    }
    const connection = str(port.EtimModellingConnectionTypeCode);
    const connectionOk = connection !== null && /^CT[0-9]{6}$/.test(connection);
    if (connection && !connectionOk)
      warn(
        `EtimModellingConnectionTypeCode "${connection.slice(0, 20)}" is not a code such as CT000001: left out`,
        where,
      );
    const connectionVersion = positiveInt(port.EtimModellingConnectionTypeVersion, 1);
    if (
      port.EtimModellingConnectionTypeVersion !== undefined &&
      (connectionVersion === null || connectionVersion > 999)
    )
      warn('EtimModellingConnectionTypeVersion is not a whole number from 1 to 999: left out', where);
    const index = groups.length;
    groups.push({
      id: String(portCode),
      ...(connectionOk ? { connectionType: connection } : {}),
      ...(connectionVersion !== null && connectionVersion <= 999 ? { connectionTypeVersion: connectionVersion } : {}),
    });
    list(port.EtimModellingFeatures).forEach((f, fi) => {
      const path = `${where}.EtimModellingFeatures[${fi}]`;
      const name = str(f.EtimFeatureCode);
      const value = modellingValues(f);
      for (const key of Object.keys(f))
        if (!MODELLING_FEATURE_KEYS.has(key)) warn(`${key} of modelling feature ${name ?? '?'} is not kept`, path);
      if (!name || !value) {
        warn(`modelling feature ${name ?? 'without EtimFeatureCode'} has no value: left out`, path);
        return;
      }
      if (features.length >= 1000) {
        warn(`modelling feature ${name}: more than 1000 in one modelling class, left out`, path);
        return;
      }
      features.push({ name, ...value, featureGroup: index });
    });
  });
  return {
    system: MODELLING_SYSTEM,
    groupId: code,
    features,
    ...(groups.length > 0 ? { featureGroups: groups } : {}),
    ...(version !== null ? { modelling: { version } } : {}),
  };
}
