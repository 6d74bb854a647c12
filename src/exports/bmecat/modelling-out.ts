import type { StoredFeatureBlock } from '../../model/feature-block-types';
import type { ExportWarnings } from '../export-warnings';
import { el, fitText, textEl } from './xml-text';

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** One FEATURE_MC's value elements: FVALUEs, COORDINATE_X/Y/Z or MATRIX_VALUES (bmecat_etim_50.xsd); '' for none. */
function valueElements(values: string[], valueType: string | undefined): string {
  if (valueType === 'coordinates') {
    const names = ['UDX.EDXF.COORDINATE_X', 'UDX.EDXF.COORDINATE_Y', 'UDX.EDXF.COORDINATE_Z'];
    return values
      .slice(0, 3)
      .map((v, i) => (NUMBER.test(v) ? textEl(names[i]!, v) : ''))
      .join('');
  }
  if (valueType === 'matrix') {
    const pairs: string[] = [];
    for (let i = 0; i + 1 < values.length; i += 2)
      if (NUMBER.test(values[i]!) && NUMBER.test(values[i + 1]!))
        pairs.push(
          el('UDX.EDXF.MATRIX_VALUE', [
            textEl('UDX.EDXF.MATRIX_SOURCE_VALUE', values[i]),
            textEl('UDX.EDXF.MATRIX_RESULT_VALUE', values[i + 1]),
          ]),
        );
    return pairs.length > 0 ? el('UDX.EDXF.MATRIX_VALUES', pairs) : '';
  }
  return values
    .map((v) => fitText(v, 60).text)
    .filter((v): v is string => !!v)
    .map((v) => textEl('UDX.EDXF.FVALUE', v))
    .join('');
}

/**
 * An ETIM-MC block as the ETIM BMEcat guideline 5.0 writes a modelling class:
 * UDX.EDXF.PRODUCT_FEATURES_MC with REFERENCE_FEATURE_MC_ID / _VERSION, BIM_STATUS and one
 * FEATURE_MC per feature with its port's PORTCODE. The guideline has no connection types (an
 * xChange port's): reported. The version and at least one FEATURE_MC are required: without
 * them the class is left out, reported.
 */
export function modellingUdx(block: StoredFeatureBlock, subject: string, w: ExportWarnings): string {
  const code = block.groupId ?? '';
  const version = block.modelling?.version;
  if (!/^MC[0-9]{6}$/.test(code) || version === undefined) {
    w.add('ETIM modelling class without an MC code or version (the guideline requires both) left out', subject);
    return '';
  }
  const groups = block.featureGroups ?? [];
  if (groups.some((g) => g.connectionType || g.connectionTypeVersion))
    w.add('connection types of modelling ports left out: the ETIM BMEcat guideline has no place for them', subject);
  const features = block.features.flatMap((f) => {
    const port = f.featureGroup === undefined ? undefined : groups[f.featureGroup];
    const name = fitText(f.name ?? f.ftId ?? '', 60).text;
    const values = valueElements(f.values ?? [], f.valueType);
    if (!port || !/^[0-9]{1,9}$/.test(port.id) || !name || values === '') {
      w.add('modelling feature without a port, code or value left out', subject);
      return [];
    }
    return [el('UDX.EDXF.FEATURE_MC', [textEl('UDX.EDXF.PORTCODE', port.id), textEl('UDX.EDXF.FNAME', name), values])];
  });
  if (features.length === 0) {
    w.add('ETIM modelling class without features (the guideline requires one) left out', subject);
    return '';
  }
  return el('UDX.EDXF.PRODUCT_FEATURES_MC', [
    textEl('UDX.EDXF.REFERENCE_FEATURE_MC_ID', code),
    textEl('UDX.EDXF.REFERENCE_FEATURE_MC_VERSION', version),
    textEl('UDX.EDXF.BIM_STATUS', block.modelling?.bimStatus),
    ...features,
  ]);
}
