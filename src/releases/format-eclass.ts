import {
  type FeatureType,
  type FormatSpec,
  integerCell,
  languageOf,
  mustKnow,
  nameRow,
  optional,
  required,
  RowReject,
  type RowContext,
} from './release-rows';

/**
 * eCl@ss "Basic CSV" releases (eClassA_B_CC_xy.csv & co.; `;`, UTF-8, one set of files per
 * language; layout as eCl@ss documents it): classes (CC: CodedName, PreferredName, Level,
 * IrdiCC), properties (PR: IrdiPR, PreferredName, DataType, IrdiUN), values (VA: IrdiVA,
 * PreferredName), units (UN: IrdiUN, ShortName, ECECode), class-property relations (CC_PR:
 * ClassCodedName, IrdiPR), suggested values (CC_PR_VA_suggested_incl_constraint: IrdiCC,
 * IrdiPR, IrdiVA) and keywords/synonyms of classes (KWSY rows whose TypeOfTargetSE is CC).
 * Codes as BMEcat files write them: classes by their 8-digit coded name, properties, values
 * and units by IRDI. The basic CSV carries no deprecation (eCl@ss: only its XML does); the
 * restricted value lists (PR_VA, per property, not per class) are not loaded.
 */
const NUMERIC = /^(INTEGER|REAL|RATIONAL)(_MEASURE|_COUNT|_CURRENCY)?$/;

function dataType(given: string): FeatureType {
  const type = given.toUpperCase();
  if (type === 'BOOLEAN') return 'L';
  if (NUMERIC.test(type)) return 'N';
  return 'A';
}

const lang = (cells: Record<string, string>, ctx: RowContext) =>
  languageOf({ LANGUAGE: cells.ISOLanguageCode ?? '' }, ctx);

const classOfIrdi = (ctx: RowContext, irdi: string) => {
  const code = ctx.known.classOfIrdi(irdi);
  if (code === undefined) throw new RowReject(`class ${irdi} is not in the release's class file`);
  return code;
};

const entity = { deprecated: false, successor: null };

export const ECLASS_FORMAT: FormatSpec = {
  defaultLanguage: 'en',
  roles: [
    {
      role: 'units',
      identify: ['IrdiUN', 'ShortName'],
      parse: (cells, ctx) => {
        const code = required(cells, 'IrdiUN');
        const name = optional(cells, 'PreferredName') ?? optional(cells, 'StructuredNaming');
        return {
          units: [{ code, unece: optional(cells, 'ECECode'), symbol: optional(cells, 'ShortName') }],
          names: nameRow('U', code, ctx.lang, name),
        };
      },
    },
    {
      role: 'classes',
      identify: ['IdCC', 'CodedName', 'PreferredName'],
      parse: (cells, ctx) => {
        const code = required(cells, 'CodedName');
        if (!/^\d{8}$/.test(code)) throw new RowReject(`CodedName "${code}" is not an 8-digit eCl@ss class code`);
        const level = integerCell(cells, 'Level', 0) || null;
        // The hierarchy is in the code: two digits per level (27-14-11-90 under 27-14-11-00).
        const parentCode = level && level > 1 ? `${code.slice(0, (level - 1) * 2)}${'0'.repeat(10 - level * 2)}` : null;
        return {
          classes: [{ code, parentCode, level, irdi: optional(cells, 'IrdiCC'), ...entity }],
          names: nameRow('C', code, lang(cells, ctx), required(cells, 'PreferredName')),
        };
      },
    },
    {
      role: 'features',
      identify: ['IdPR', 'IrdiPR', 'DataType'],
      parse: (cells, ctx) => {
        const code = required(cells, 'IrdiPR');
        return {
          features: [
            { code, type: dataType(required(cells, 'DataType')), unitCode: optional(cells, 'IrdiUN'), ...entity },
          ],
          names: nameRow('F', code, lang(cells, ctx), required(cells, 'PreferredName')),
        };
      },
    },
    {
      role: 'values',
      identify: ['IdVA', 'IrdiVA'],
      parse: (cells, ctx) => {
        const code = required(cells, 'IrdiVA');
        return {
          values: [{ code, ...entity }],
          names: nameRow('V', code, lang(cells, ctx), required(cells, 'PreferredName')),
        };
      },
    },
    {
      role: 'synonyms',
      identify: ['IrdiTarget', 'TypeOfTargetSE'],
      parse: (cells, ctx) => {
        if (cells.TypeOfTargetSE !== 'CC') return {};
        const synonym = cells['KeywordValue/SynonymValue'] ?? cells.KeywordValue ?? cells.SynonymValue ?? '';
        if (!synonym) throw new RowReject('KeywordValue/SynonymValue is empty');
        return {
          synonyms: [{ classCode: classOfIrdi(ctx, required(cells, 'IrdiTarget')), lang: lang(cells, ctx), synonym }],
        };
      },
    },
    {
      role: 'classFeatures',
      identify: ['ClassCodedName', 'IrdiPR'],
      parse: (cells, ctx) => ({
        classFeatures: [
          {
            classCode: mustKnow(ctx.known, 'C', required(cells, 'ClassCodedName'), 'class'),
            featureCode: mustKnow(ctx.known, 'F', required(cells, 'IrdiPR'), 'feature'),
            // No order column: the file's order (the row's place) is the order.
            sort: ctx.row,
            type: null,
            unitCode: null,
            mandatory: null,
            ref: null,
          },
        ],
      }),
    },
    {
      role: 'classFeatureValues',
      identify: ['IrdiCC', 'IrdiPR', 'IrdiVA'],
      parse: (cells, ctx) => ({
        classFeatureValues: [
          {
            classCode: classOfIrdi(ctx, required(cells, 'IrdiCC')),
            featureCode: mustKnow(ctx.known, 'F', required(cells, 'IrdiPR'), 'feature'),
            valueCode: mustKnow(ctx.known, 'V', required(cells, 'IrdiVA'), 'value'),
            sort: ctx.row,
          },
        ],
      }),
    },
  ],
};
