import { and, asc, eq, inArray } from 'drizzle-orm';
import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { jsonList } from '../db/json-rows';
import { releaseClassFeatures, releaseClassFeatureValues, releaseFeatures, releaseUnits } from '../db/schema';
import { AppError } from '../kernel/app-error';
import {
  assertQuery,
  classesOf,
  findLoadedRelease,
  ftsPrefixQuery,
  Language,
  namesOf,
  pickName,
  ReleaseName,
  splitRelease,
} from './release-queries';

export const SearchReleaseClassesQuery = z.strictObject({
  release: ReleaseName,
  /** A code prefix, or words of a name or synonym in any language of the release (each word a prefix). */
  q: z.string().min(1).max(100),
  /** The language of the names in the answer (default: the release's first). */
  lang: Language.optional(),
  /** Only classes of this group (ETIM IXF `EG...` groups). */
  group: z
    .string()
    .regex(/^[0-9A-Za-z._-]{1,40}$/, 'group is a group code, e.g. EG000017')
    .optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

const ClassHit = z.object({
  code: z.string(),
  name: z.string().nullable(),
  lang: z.string().nullable(),
  parentCode: z.string().nullable(),
  deprecated: z.boolean(),
  successor: z.string().nullable(),
  /** The class's group where the release has groups (ETIM IXF), with its name in `lang`; else null. */
  group: z.object({ code: z.string(), name: z.string().nullable() }).nullable(),
});
export const SearchReleaseClassesOut = z.object({ release: z.string(), items: z.array(ClassHit) });

interface SearchRow {
  rid: number;
  languages: string | null;
  code: string | null;
  grp: number | null;
  score: number | null;
  parent: string | null;
  deprecated: number | null;
  successor: string | null;
  groupCode: string | null;
  groupName: string | null;
  lang: string | null;
  name: string | null;
}

/** Only the classes of `group` (no condition without one). */
const inGroup = (column: SQL, group: string | undefined) => (group ? sql` AND ${column} = ${group}` : sql``);

/** Classes whose code starts with `prefix`: the primary key's range (`\uffff` ends the range). */
const codePrefix = (prefix: string, limit: number, group?: string) => sql`SELECT code, 0 AS grp, 0.0 AS score
  FROM release_classes WHERE release_id = (SELECT id FROM r) AND code >= ${prefix} AND code < ${`${prefix}\uffff`}
  ${inGroup(sql`group_code`, group)} ORDER BY code LIMIT ${limit}`;

/**
 * Class search over one loaded release (docs/classification-releases.md): classes whose code
 * starts with `q` first (primary key range), then those whose name or synonym in any language
 * has words starting with the words of `q` (FTS5, best match first). The release is an indexed
 * token of the search rows, so a search reads one release only. One statement: release lookup,
 * both searches and the hits' names and lifecycle, so a search is one round trip to D1.
 */
export async function searchReleaseClasses(db: Database, input: z.infer<typeof SearchReleaseClassesQuery>) {
  const { system, version } = splitRelease(input.release);
  const q = assertQuery(input.q);
  const limit = input.limit;
  const parts: SQL[] = [];
  if (/^[\p{L}\p{N}._-]+$/u.test(q)) {
    parts.push(codePrefix(q, limit, input.group));
    if (q.toUpperCase() !== q) parts.push(codePrefix(q.toUpperCase(), limit, input.group));
  }
  const words = ftsPrefixQuery(q);
  if (words)
    parts.push(sql`SELECT s.code AS code, 1 AS grp, min(s.rank) AS score FROM release_class_search s
      ${input.group ? sql`JOIN release_classes g ON g.release_id = (SELECT id FROM r) AND g.code = s.code` : sql``}
      WHERE s.release_class_search MATCH ('rel:r' || (SELECT id FROM r) || ' AND text:(' || ${words} || ')')
      ${inGroup(sql`g.group_code`, input.group)} GROUP BY s.code ORDER BY score LIMIT ${limit}`);
  const hits =
    parts.length > 0
      ? sql.join(
          parts.map((p) => sql`SELECT * FROM (${p})`),
          sql` UNION ALL `,
        )
      : sql`SELECT NULL AS code, 0 AS grp, 0.0 AS score WHERE 0`;
  const rows = await db.all<SearchRow>(sql`
    WITH r AS (SELECT id, languages FROM classification_releases WHERE system = ${system} AND version = ${version} AND status = 'loaded'),
    h AS (SELECT code, min(grp) AS grp, min(score) AS score FROM (${hits}) GROUP BY code)
    SELECT r.id AS rid, r.languages AS languages, h.code AS code, h.grp AS grp, h.score AS score,
      c.parent_code AS parent, c.deprecated AS deprecated, c.successor AS successor, c.group_code AS groupCode,
      (SELECT gn.name FROM release_names gn WHERE gn.release_id = r.id AND gn.kind = 'G' AND gn.code = c.group_code
        ORDER BY gn.lang = ${input.lang ?? ''} DESC, gn.lang LIKE 'en%' DESC, gn.lang LIMIT 1) AS groupName,
      n.lang AS lang, n.name AS name
    FROM r LEFT JOIN h ON 1
      LEFT JOIN release_classes c ON c.release_id = r.id AND c.code = h.code
      LEFT JOIN release_names n ON n.release_id = r.id AND n.kind = 'C' AND n.code = h.code`);
  if (rows.length === 0) throw new AppError('not_found', `release ${input.release} is not loaded`);
  const languages = JSON.parse(rows[0]!.languages ?? '[]') as string[];
  const byCode = new Map<string, { row: SearchRow; names: { lang: string; name: string }[] }>();
  for (const row of rows) {
    if (row.code === null) continue;
    const hit = byCode.get(row.code) ?? { row, names: [] };
    if (row.lang !== null && row.name !== null) hit.names.push({ lang: row.lang, name: row.name });
    byCode.set(row.code, hit);
  }
  const ordered = [...byCode.values()]
    .sort(
      (a, b) =>
        a.row.grp! - b.row.grp! ||
        (a.row.grp === 0 ? (a.row.code! < b.row.code! ? -1 : 1) : a.row.score! - b.row.score!),
    )
    .slice(0, limit);
  return {
    release: input.release,
    items: ordered.map(({ row, names }) => {
      const name = pickName(names, input.lang, languages);
      return {
        code: row.code!,
        name: name?.name ?? null,
        lang: name?.lang ?? null,
        parentCode: row.parent,
        deprecated: row.deprecated === 1,
        successor: row.successor,
        group: row.groupCode === null ? null : { code: row.groupCode, name: row.groupName },
      };
    }),
  };
}

export const ReleaseClassFeaturesQuery = z.strictObject({
  release: ReleaseName,
  classCode: z.string().min(1).max(40),
  lang: Language.optional(),
});

const Named = { code: z.string(), name: z.string().nullable() };
export const ReleaseClassFeaturesOut = z.object({
  release: z.string(),
  class: ClassHit,
  features: z.array(
    z.object({
      ...Named,
      /** A alphanumeric, N numeric, R range, L logical. */
      type: z.enum(['A', 'N', 'R', 'L']),
      sort: z.number().int(),
      mandatory: z.boolean().nullable(),
      unit: z.object({ ...Named, symbol: z.string().nullable(), unece: z.string().nullable() }).nullable(),
      /** The allowed values (alphanumeric features with a value list); empty for free input. */
      values: z.array(z.object(Named)),
      deprecated: z.boolean(),
      successor: z.string().nullable(),
    }),
  ),
});

/** A class of a loaded release with its features in order: type, unit, mandatory, allowed values, names in `lang`. */
export async function getReleaseClassFeatures(db: Database, input: z.infer<typeof ReleaseClassFeaturesQuery>) {
  const release = await findLoadedRelease(db, input.release);
  const id = release.id;
  const cls = (await classesOf(db, id, [input.classCode])).get(input.classCode);
  if (!cls) throw new AppError('not_found', `class ${input.classCode} is not in release ${input.release}`);
  const rows = await db
    .select({ cf: releaseClassFeatures, f: releaseFeatures })
    .from(releaseClassFeatures)
    .innerJoin(
      releaseFeatures,
      and(eq(releaseFeatures.releaseId, id), eq(releaseFeatures.code, releaseClassFeatures.featureCode)),
    )
    .where(and(eq(releaseClassFeatures.releaseId, id), eq(releaseClassFeatures.classCode, cls.code)))
    .orderBy(asc(releaseClassFeatures.sort), asc(releaseClassFeatures.featureCode));
  const values = await db
    .select()
    .from(releaseClassFeatureValues)
    .where(and(eq(releaseClassFeatureValues.releaseId, id), eq(releaseClassFeatureValues.classCode, cls.code)))
    .orderBy(asc(releaseClassFeatureValues.sort));
  const unitOf = (r: (typeof rows)[number]) => r.cf.unitCode ?? r.f.unitCode;
  const unitCodes = [...new Set(rows.flatMap((r) => (unitOf(r) ? [unitOf(r)!] : [])))];
  const units =
    unitCodes.length === 0
      ? []
      : await db
          .select()
          .from(releaseUnits)
          .where(and(eq(releaseUnits.releaseId, id), inArray(releaseUnits.code, jsonList(unitCodes))));
  const [classNames, featureNames, valueNames, unitNames, groupNames] = await Promise.all([
    namesOf(db, id, 'C', [cls.code]),
    namesOf(
      db,
      id,
      'F',
      rows.map((r) => r.f.code),
    ),
    namesOf(db, id, 'V', [...new Set(values.map((v) => v.valueCode))]),
    namesOf(db, id, 'U', unitCodes),
    namesOf(db, id, 'G', cls.groupCode ? [cls.groupCode] : []),
  ]);
  const languages = release.languages ?? [];
  const nameOf = (map: Map<string, { lang: string; name: string }[]>, code: string) =>
    pickName(map.get(code) ?? [], input.lang, languages);
  const className = nameOf(classNames, cls.code);
  return {
    release: input.release,
    class: {
      code: cls.code,
      name: className?.name ?? null,
      lang: className?.lang ?? null,
      parentCode: cls.parentCode,
      deprecated: cls.deprecated,
      successor: cls.successor,
      group: cls.groupCode ? { code: cls.groupCode, name: nameOf(groupNames, cls.groupCode)?.name ?? null } : null,
    },
    features: rows.map(({ cf, f }) => {
      const unitCode = cf.unitCode ?? f.unitCode;
      const unit = unitCode ? units.find((u) => u.code === unitCode) : undefined;
      return {
        code: f.code,
        name: nameOf(featureNames, f.code)?.name ?? null,
        type: cf.type ?? f.type ?? 'A',
        sort: cf.sort,
        mandatory: cf.mandatory,
        unit: unit
          ? {
              code: unit.code,
              name: nameOf(unitNames, unit.code)?.name ?? null,
              symbol: unit.symbol,
              unece: unit.unece,
            }
          : null,
        values: values
          .filter((v) => v.featureCode === f.code)
          .map((v) => ({ code: v.valueCode, name: nameOf(valueNames, v.valueCode)?.name ?? null })),
        deprecated: f.deprecated,
        successor: f.successor,
      };
    }),
  };
}
