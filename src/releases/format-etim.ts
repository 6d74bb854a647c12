import {
  booleanCell,
  classVersionOf,
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
 * ETIM releases in ETIM International's CSV layout (one file per table, `;`, UTF-8 or
 * ISO-8859-1): units (UNITOFMEASID, UNITDESC), classes (ARTCLASSID, ARTCLASSDESC, ARTGROUPID,
 * ARTCLASSVERSION), features (FEATUREID, FEATUREDESC), values (VALUEID, VALUEDESC), class
 * synonyms (ARTCLASSID, CLASSSYNONYM), the class-feature map (ARTCLASSFEATURENR, ARTCLASSID,
 * FEATUREID, FEATURETYPE A/L/N/R, UNITOFMEASID, SORTNR) and the class-feature-value map
 * (ARTCLASSFEATURENR, VALUEID, SORTNR). The names are in the language of the download (the
 * request says which; a LANGUAGE column says it per row); a second language is loaded as a
 * second set of the same files. Not in ETIM's layout but accepted: DEPRECATED and SUCCESSOR
 * columns on classes, features and values (docs/classification-releases.md).
 */
const CODE = { C: /^EC\d{6}$/, F: /^EF\d{6}$/, V: /^EV\d{6}$/, U: /^EU\d{6}$/ } as const;
const TYPES = new Set<FeatureType>(['A', 'N', 'R', 'L']);

function etimCode(cells: Record<string, string>, column: string, kind: keyof typeof CODE): string {
  const code = required(cells, column).toUpperCase();
  if (!CODE[kind].test(code)) throw new RowReject(`${column} "${code}" is not an ETIM code (${CODE[kind].source})`);
  return code;
}

function lifecycle(cells: Record<string, string>) {
  const successor = optional(cells, 'SUCCESSOR');
  return { deprecated: booleanCell(cells, 'DEPRECATED') ?? successor !== null, successor };
}

function featureType(cells: Record<string, string>): FeatureType | null {
  const given = optional(cells, 'FEATURETYPE');
  if (given === null) return null;
  const type = given.toUpperCase() as FeatureType;
  if (!TYPES.has(type)) throw new RowReject(`FEATURETYPE "${given}" is not one of A, L, N, R`);
  return type;
}

const lang = (cells: Record<string, string>, ctx: RowContext) => languageOf(cells, ctx);

export const ETIM_FORMAT: FormatSpec = {
  defaultLanguage: 'en',
  roles: [
    {
      role: 'units',
      identify: ['UNITOFMEASID', 'UNITDESC'],
      parse: (cells, ctx) => {
        const code = etimCode(cells, 'UNITOFMEASID', 'U');
        const symbol = optional(cells, 'UNITABBREV') ?? required(cells, 'UNITDESC');
        return {
          units: [{ code, unece: optional(cells, 'UNECE'), symbol }],
          names: nameRow('U', code, lang(cells, ctx), required(cells, 'UNITDESC')),
        };
      },
    },
    {
      role: 'classes',
      identify: ['ARTCLASSID', 'ARTCLASSDESC'],
      parse: (cells, ctx) => {
        const code = etimCode(cells, 'ARTCLASSID', 'C');
        return {
          classes: [
            {
              code,
              parentCode: null,
              level: null,
              version: classVersionOf(optional(cells, 'ARTCLASSVERSION'), 'ARTCLASSVERSION'),
              ...lifecycle(cells),
            },
          ],
          names: nameRow('C', code, lang(cells, ctx), required(cells, 'ARTCLASSDESC')),
        };
      },
    },
    {
      role: 'features',
      identify: ['FEATUREID', 'FEATUREDESC'],
      parse: (cells, ctx) => {
        const code = etimCode(cells, 'FEATUREID', 'F');
        return {
          features: [{ code, type: featureType(cells), ...lifecycle(cells) }],
          names: nameRow('F', code, lang(cells, ctx), required(cells, 'FEATUREDESC')),
        };
      },
    },
    {
      role: 'values',
      identify: ['VALUEID', 'VALUEDESC'],
      parse: (cells, ctx) => {
        const code = etimCode(cells, 'VALUEID', 'V');
        return {
          values: [{ code, ...lifecycle(cells) }],
          names: nameRow('V', code, lang(cells, ctx), required(cells, 'VALUEDESC')),
        };
      },
    },
    {
      role: 'synonyms',
      identify: ['ARTCLASSID', 'CLASSSYNONYM'],
      parse: (cells, ctx) => ({
        synonyms: [
          {
            classCode: mustKnow(ctx.known, 'C', etimCode(cells, 'ARTCLASSID', 'C'), 'class'),
            lang: lang(cells, ctx),
            synonym: required(cells, 'CLASSSYNONYM'),
          },
        ],
      }),
    },
    {
      role: 'classFeatures',
      identify: ['ARTCLASSFEATURENR', 'ARTCLASSID', 'FEATUREID'],
      parse: (cells, ctx) => {
        const unit = optional(cells, 'UNITOFMEASID');
        return {
          classFeatures: [
            {
              classCode: mustKnow(ctx.known, 'C', etimCode(cells, 'ARTCLASSID', 'C'), 'class'),
              featureCode: mustKnow(ctx.known, 'F', etimCode(cells, 'FEATUREID', 'F'), 'feature'),
              sort: integerCell(cells, 'SORTNR', 0),
              type: featureType(cells),
              unitCode: unit === null ? null : mustKnow(ctx.known, 'U', unit.toUpperCase(), 'unit'),
              mandatory: booleanCell(cells, 'MANDATORY'),
              ref: integerCell(cells, 'ARTCLASSFEATURENR'),
            },
          ],
        };
      },
    },
    {
      role: 'classFeatureValues',
      identify: ['ARTCLASSFEATURENR', 'VALUEID'],
      parse: (cells, ctx) => {
        const ref = integerCell(cells, 'ARTCLASSFEATURENR');
        const pair = ctx.known.classFeature(ref);
        if (!pair) throw new RowReject(`ARTCLASSFEATURENR ${ref} is not in the release's class-feature file`);
        const valueCode = mustKnow(ctx.known, 'V', etimCode(cells, 'VALUEID', 'V'), 'value');
        return {
          classFeatureValues: [
            { classCode: pair[0], featureCode: pair[1], valueCode, sort: integerCell(cells, 'SORTNR', 0) },
          ],
        };
      },
    },
  ],
};
