import { and, asc, eq, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import {
  classificationClasses,
  classificationClassFeatures,
  classificationFeatures,
  classificationFeatureValues,
} from '../db/schema';
import { notFound } from '../kernel/app-error';
import { GroupCode } from './classification.schemas';

export const SearchClassesQuery = z.strictObject({
  group: GroupCode.default('ETIM'),
  /** A class code (prefix, e.g. EC0000) or words of its name; empty lists the first classes by code. */
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const ClassFeaturesQuery = z.strictObject({
  group: GroupCode.default('ETIM'),
  classCode: z.string().min(1).max(40),
});

const ClassEntry = z.object({ group: GroupCode, system: z.string(), code: z.string(), name: z.string() });
export const ClassSearchOut = z.object({ items: z.array(ClassEntry) });

export const ClassFeaturesOut = ClassEntry.extend({
  features: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      /** ETIM data types: A alphanumeric (one of `values`), N numeric, R range "min..max", L logical. */
      type: z.enum(['A', 'N', 'R', 'L']),
      unit: z.string().nullable(),
      /** The allowed value codes with labels; empty unless type is A. */
      values: z.array(z.object({ code: z.string(), name: z.string() })),
    }),
  ),
});

/**
 * Classes of one system whose code starts with, or whose name contains, the query (reference
 * data is small). Plain string functions rather than LIKE: D1 refuses LIKE patterns over 50
 * bytes, which 13 emoji already are, and nothing here needs wildcards.
 */
export async function searchClasses(db: Database, input: z.infer<typeof SearchClassesQuery>) {
  const q = input.q ?? '';
  const items = await db
    .select({
      group: classificationClasses.group,
      system: classificationClasses.system,
      code: classificationClasses.code,
      name: classificationClasses.name,
    })
    .from(classificationClasses)
    .where(
      and(
        eq(classificationClasses.group, input.group),
        q
          ? or(
              sql`substr(upper(${classificationClasses.code}), 1, length(${q})) = upper(${q})`,
              sql`instr(lower(${classificationClasses.name}), lower(${q})) > 0`,
            )
          : undefined,
      ),
    )
    .orderBy(asc(classificationClasses.code))
    .limit(input.limit);
  return { items };
}

/** A class with its features in reference order, each with type, unit and allowed values. */
export async function getClassFeatures(db: Database, input: z.infer<typeof ClassFeaturesQuery>) {
  const cls = await db.query.classificationClasses.findFirst({
    where: and(eq(classificationClasses.group, input.group), eq(classificationClasses.code, input.classCode)),
  });
  if (!cls) throw notFound(`${input.group} class ${input.classCode}`);
  const features = await db
    .select({
      code: classificationFeatures.code,
      name: classificationFeatures.name,
      type: classificationFeatures.type,
      unit: classificationFeatures.unit,
    })
    .from(classificationClassFeatures)
    .innerJoin(
      classificationFeatures,
      and(
        eq(classificationFeatures.group, classificationClassFeatures.group),
        eq(classificationFeatures.code, classificationClassFeatures.featureCode),
      ),
    )
    .where(and(eq(classificationClassFeatures.group, cls.group), eq(classificationClassFeatures.classCode, cls.code)))
    .orderBy(asc(classificationClassFeatures.sortOrder), asc(classificationFeatures.code));
  const values = await db
    .select({
      featureCode: classificationFeatureValues.featureCode,
      code: classificationFeatureValues.code,
      name: classificationFeatureValues.name,
    })
    .from(classificationFeatureValues)
    .innerJoin(
      classificationClassFeatures,
      and(
        eq(classificationClassFeatures.group, classificationFeatureValues.group),
        eq(classificationClassFeatures.featureCode, classificationFeatureValues.featureCode),
      ),
    )
    .where(and(eq(classificationClassFeatures.group, cls.group), eq(classificationClassFeatures.classCode, cls.code)))
    .orderBy(asc(classificationFeatureValues.code));
  return {
    group: cls.group,
    system: cls.system,
    code: cls.code,
    name: cls.name,
    features: features.map((f) => ({
      ...f,
      values:
        f.type === 'A' ? values.filter((v) => v.featureCode === f.code).map(({ code, name }) => ({ code, name })) : [],
    })),
  };
}
