import { and, asc, eq, inArray } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { jsonList } from '../db/json-rows';
import { releaseClassFeatures, releaseClassFeatureValues, releaseFeatures, releaseUnits } from '../db/schema';
import { AppError } from '../http/app-error';
import {
  assertQuery,
  classesOf,
  codesWithPrefix,
  findLoadedRelease,
  ftsPrefixQuery,
  Language,
  namesOf,
  pickName,
  ReleaseName,
} from './release-queries';

export const SearchReleaseClassesQuery = z.strictObject({
  release: ReleaseName,
  /** A code prefix, or words of a name or synonym in any language of the release (each word a prefix). */
  q: z.string().min(1).max(100),
  /** The language of the names in the answer (default: the release's first). */
  lang: Language.optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

const ClassHit = z.object({
  code: z.string(),
  name: z.string().nullable(),
  lang: z.string().nullable(),
  parentCode: z.string().nullable(),
  deprecated: z.boolean(),
  successor: z.string().nullable(),
});
export const SearchReleaseClassesOut = z.object({ release: z.string(), items: z.array(ClassHit) });

/**
 * Class search over one loaded release (docs/classification-releases.md): classes whose code
 * starts with `q` first (primary key range), then those whose name or synonym in any language
 * has words starting with the words of `q` (FTS5, best match first). The release is an indexed
 * token of the search rows, so a search reads one release only.
 */
export async function searchReleaseClasses(db: Database, input: z.infer<typeof SearchReleaseClassesQuery>) {
  const release = await findLoadedRelease(db, input.release);
  const q = assertQuery(input.q);
  const codes: string[] = [];
  const add = (list: string[]) => {
    for (const code of list) if (!codes.includes(code) && codes.length < input.limit) codes.push(code);
  };
  if (/^[\p{L}\p{N}._-]+$/u.test(q)) {
    add(await codesWithPrefix(db, release.id, q, input.limit));
    if (q.toUpperCase() !== q) add(await codesWithPrefix(db, release.id, q.toUpperCase(), input.limit));
  }
  const words = ftsPrefixQuery(q);
  if (codes.length < input.limit && words) {
    const rows = await db.all<{ code: string }>(sql`
      SELECT code FROM release_class_search WHERE release_class_search MATCH ${`rel:r${release.id} AND text:(${words})`}
      ORDER BY rank LIMIT ${input.limit * 4}`);
    add(rows.map((r) => r.code));
  }
  const [names, classes] = await Promise.all([namesOf(db, release.id, 'C', codes), classesOf(db, release.id, codes)]);
  const languages = release.languages ?? [];
  return {
    release: input.release,
    items: codes.map((code) => {
      const name = pickName(names.get(code) ?? [], input.lang, languages);
      const row = classes.get(code);
      return {
        code,
        name: name?.name ?? null,
        lang: name?.lang ?? null,
        parentCode: row?.parentCode ?? null,
        deprecated: row?.deprecated ?? false,
        successor: row?.successor ?? null,
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
  const unitCodes = [...new Set(rows.flatMap((r) => (r.cf.unitCode ? [r.cf.unitCode] : [])))];
  const units =
    unitCodes.length === 0
      ? []
      : await db
          .select()
          .from(releaseUnits)
          .where(and(eq(releaseUnits.releaseId, id), inArray(releaseUnits.code, jsonList(unitCodes))));
  const [classNames, featureNames, valueNames, unitNames] = await Promise.all([
    namesOf(db, id, 'C', [cls.code]),
    namesOf(
      db,
      id,
      'F',
      rows.map((r) => r.f.code),
    ),
    namesOf(db, id, 'V', [...new Set(values.map((v) => v.valueCode))]),
    namesOf(db, id, 'U', unitCodes),
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
    },
    features: rows.map(({ cf, f }) => {
      const unit = cf.unitCode ? units.find((u) => u.code === cf.unitCode) : undefined;
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
