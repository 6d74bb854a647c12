import {
  booleanCell,
  type FeatureType,
  type FormatSpec,
  integerCell,
  mustKnow,
  nameRow,
  optional,
  required,
  RowReject,
} from './release-rows';

/**
 * proficl@ss releases as published: "Einzeldateien csv" (single files), German, ISO-8859-1,
 * `;`, CRLF. Einheiten, Klassen (with Parent_ID and Hierarchieebene), Merkmale (Datentyp
 * alphanumerisch / numerisch / logisch), Werte, KlassenMerkmale_rel (KlasseMerkmal_Nr, unit,
 * Sortier_Nr, Mussmerkmal) and KlassenMerkmaleWerte_rel (values by KlasseMerkmal_Nr); older
 * releases add Schlagworte and KlassenSchlagworte_rel, loaded as the classes' synonyms.
 */
const DATA_TYPES: Record<string, FeatureType> = {
  alphanumerisch: 'A',
  numerisch: 'N',
  logisch: 'L',
  bereich: 'R',
  numerischbereich: 'R',
};

/** The value order column carries the language in its name (Sortier_Nr_Wert_de). */
const sortOf = (cells: Record<string, string>) => {
  const column = Object.keys(cells).find((c) => c.startsWith('Sortier_Nr'));
  return column ? integerCell(cells, column, 0) : 0;
};

const entity = { deprecated: false, successor: null };

export const PROFICLASS_FORMAT: FormatSpec = {
  defaultLanguage: 'de',
  roles: [
    {
      role: 'units',
      identify: ['Einheit_ID', 'Einheitcode'],
      parse: (cells, ctx) => {
        const code = required(cells, 'Einheit_ID');
        return {
          units: [{ code, unece: optional(cells, 'Einheitcode'), symbol: optional(cells, 'Einheitkurzbezeichnung') }],
          names: nameRow('U', code, ctx.lang, optional(cells, 'Einheitbezeichnung')),
        };
      },
    },
    {
      role: 'classes',
      identify: ['Klasse_ID', 'Klassenbezeichnung'],
      parse: (cells, ctx) => {
        const code = required(cells, 'Klasse_ID');
        const level = optional(cells, 'Hierarchieebene');
        return {
          classes: [
            {
              code,
              parentCode: optional(cells, 'Parent_ID'),
              level: level === null ? null : integerCell(cells, 'Hierarchieebene'),
              ...entity,
            },
          ],
          names: nameRow('C', code, ctx.lang, required(cells, 'Klassenbezeichnung')),
        };
      },
    },
    {
      role: 'features',
      identify: ['Merkmal_ID', 'Merkmalbezeichnung'],
      parse: (cells, ctx) => {
        const code = required(cells, 'Merkmal_ID');
        const given = required(cells, 'Datentyp');
        const type = DATA_TYPES[given.toLowerCase().replace(/[^a-z]/g, '')];
        if (!type) throw new RowReject(`Datentyp "${given}" is not one of ${Object.keys(DATA_TYPES).join(', ')}`);
        return {
          features: [{ code, type, ...entity }],
          names: nameRow('F', code, ctx.lang, required(cells, 'Merkmalbezeichnung')),
        };
      },
    },
    {
      role: 'values',
      identify: ['Wert_ID', 'Wertbezeichnung'],
      parse: (cells, ctx) => {
        const code = required(cells, 'Wert_ID');
        return {
          values: [{ code, ...entity }],
          names: nameRow('V', code, ctx.lang, required(cells, 'Wertbezeichnung')),
        };
      },
    },
    {
      role: 'keywords',
      identify: ['Schlagwort_ID', 'Schlagwortbezeichnung'],
      parse: (cells, ctx) => ({
        names: nameRow('K', required(cells, 'Schlagwort_ID'), ctx.lang, required(cells, 'Schlagwortbezeichnung')),
      }),
    },
    {
      role: 'synonyms',
      identify: ['Klasse_ID', 'Schlagwort_ID'],
      parse: (cells, ctx) => {
        const classCode = mustKnow(ctx.known, 'C', required(cells, 'Klasse_ID'), 'class');
        const keyword = required(cells, 'Schlagwort_ID');
        const synonym = ctx.known.keyword(keyword);
        if (synonym === undefined) throw new RowReject(`keyword ${keyword} is not in the release's keyword file`);
        return { synonyms: [{ classCode, lang: ctx.lang, synonym }] };
      },
    },
    {
      role: 'classFeatures',
      identify: ['KlasseMerkmal_Nr', 'Klasse_ID', 'Merkmal_ID'],
      parse: (cells, ctx) => {
        const unit = optional(cells, 'Einheit_ID');
        return {
          classFeatures: [
            {
              classCode: mustKnow(ctx.known, 'C', required(cells, 'Klasse_ID'), 'class'),
              featureCode: mustKnow(ctx.known, 'F', required(cells, 'Merkmal_ID'), 'feature'),
              sort: integerCell(cells, 'Sortier_Nr', 0),
              type: null,
              unitCode: unit === null ? null : mustKnow(ctx.known, 'U', unit, 'unit'),
              mandatory: booleanCell(cells, 'Mussmerkmal'),
              ref: integerCell(cells, 'KlasseMerkmal_Nr'),
            },
          ],
        };
      },
    },
    {
      role: 'classFeatureValues',
      identify: ['KlasseMerkmal_Nr', 'Wert_ID'],
      parse: (cells, ctx) => {
        const ref = integerCell(cells, 'KlasseMerkmal_Nr');
        const pair = ctx.known.classFeature(ref);
        if (!pair) throw new RowReject(`KlasseMerkmal_Nr ${ref} is not in the release's class-feature file`);
        const valueCode = mustKnow(ctx.known, 'V', required(cells, 'Wert_ID'), 'value');
        return { classFeatureValues: [{ classCode: pair[0], featureCode: pair[1], valueCode, sort: sortOf(cells) }] };
      },
    },
  ],
};
