import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';

/** One feature of one class in a loaded release: what a value of it is checked against. */
export interface ReleaseFeatureDef {
  release: string;
  classCode: string;
  code: string;
  name: string | null;
  /** A alphanumeric, N numeric, R range, L logical: the class's type, else the feature's. */
  type: 'A' | 'N' | 'R' | 'L';
  /** The unit a value is stored in: its UN/ECE code where the release gives one, else the release's unit code. */
  unit: string | null;
  /** Every spelling of the unit a value may end with (symbol, UN/ECE code, release code). */
  unitAliases: string[];
  deprecated: boolean;
  successor: string | null;
  sort: number;
}

/**
 * The rows of the loaded releases a classification names, for its classes: read in the same
 * batch as the rest of a write's context, so checking against a release costs no round trip.
 * A release that is not loaded (never, failed, still loading) is absent from `releases`.
 */
export interface ReleaseRefs {
  releases: string[];
  /** `version`: the class's own version where the release gives one (ETIM; migration 0042). */
  classes: {
    release: string;
    code: string;
    name: string | null;
    deprecated: boolean;
    successor: string | null;
    version: number | null;
  }[];
  features: ReleaseFeatureDef[];
  values: { release: string; classCode: string; featureCode: string; code: string }[];
}

export const NO_RELEASE_REFS: ReleaseRefs = { releases: [], classes: [], features: [], values: [] };

/** The loaded releases among `names` (a subquery of names): id and `SYSTEM-version`. */
const loaded = (names: SQL) => sql`(SELECT id, system || '-' || version AS name FROM classification_releases
  WHERE status = 'loaded' AND system || '-' || version IN ${names}) r`;

/** The name of a release entity in English, else the first language by code: one name for reads that take no language. */
const nameOf = (kind: 'C' | 'F', code: SQL) =>
  sql<
    string | null
  >`(SELECT n.name FROM release_names n WHERE n.release_id = r.id AND n.kind = ${kind} AND n.code = ${code}
    ORDER BY n.lang = 'en' DESC, n.lang LIMIT 1)`;

/**
 * Four statements for a batch: the loaded releases among `names`, and their classes, class
 * features (with type, unit, names) and allowed values for the classes in `classCodes`. Both
 * arguments are subqueries (`(SELECT value FROM json_each(?))` or a union with stored rows).
 */
export function releaseRefStatements(db: Database, names: SQL, classCodes: SQL) {
  return [
    db.select({ name: sql<string>`r.name` }).from(loaded(names)),
    db
      .select({
        release: sql<string>`r.name`,
        code: sql<string>`c.code`,
        name: nameOf('C', sql`c.code`),
        deprecated: sql<number>`c.deprecated`,
        successor: sql<string | null>`c.successor`,
        version: sql<number | null>`c.version`,
      })
      .from(sql`${loaded(names)} JOIN release_classes c ON c.release_id = r.id AND c.code IN ${classCodes}`),
    db
      .select({
        release: sql<string>`r.name`,
        classCode: sql<string>`cf.class_code`,
        code: sql<string>`f.code`,
        name: nameOf('F', sql`f.code`),
        type: sql<'A' | 'N' | 'R' | 'L'>`coalesce(cf.type, f.type, 'A')`,
        unit: sql<string | null>`coalesce(u.unece, u.code, cf.unit_code, f.unit_code)`,
        unitAliases: sql<string>`json_array(u.symbol, u.unece, u.code)`,
        deprecated: sql<number>`f.deprecated`,
        successor: sql<string | null>`f.successor`,
        sort: sql<number>`cf.sort`,
      })
      .from(
        sql`${loaded(names)} JOIN release_class_features cf ON cf.release_id = r.id AND cf.class_code IN ${classCodes}
          JOIN release_features f ON f.release_id = r.id AND f.code = cf.feature_code
          LEFT JOIN release_units u ON u.release_id = r.id AND u.code = coalesce(cf.unit_code, f.unit_code)`,
      ),
    db
      .select({
        release: sql<string>`r.name`,
        classCode: sql<string>`v.class_code`,
        featureCode: sql<string>`v.feature_code`,
        code: sql<string>`v.value_code`,
      })
      .from(
        sql`${loaded(names)} JOIN release_class_feature_values v ON v.release_id = r.id AND v.class_code IN ${classCodes}`,
      ),
  ] as const;
}

type Rows = {
  [K in keyof ReturnType<typeof releaseRefStatements>]: Awaited<ReturnType<typeof releaseRefStatements>[K]>;
};

/** The batch results of releaseRefStatements as ReleaseRefs. */
export function releaseRefsFrom(rows: readonly unknown[]): ReleaseRefs {
  const [releases, classes, features, values] = rows as unknown as Rows;
  return {
    releases: releases.map((r) => r.name),
    classes: classes.map((c) => ({ ...c, deprecated: Boolean(c.deprecated) })),
    features: features.map((f) => ({
      ...f,
      deprecated: Boolean(f.deprecated),
      unitAliases: (JSON.parse(f.unitAliases) as (string | null)[]).filter((a): a is string => Boolean(a)),
    })),
    values,
  };
}

/** Reads the refs of explicit release names and class codes in one batch (the upsert's cache). */
export async function readReleaseRefs(db: Database, names: string[], classCodes: string[]): Promise<ReleaseRefs> {
  if (names.length === 0 || classCodes.length === 0) return NO_RELEASE_REFS;
  const json = (list: string[]) => sql`(SELECT value FROM json_each(${JSON.stringify([...new Set(list)])}))`;
  const [a, b, c, d] = releaseRefStatements(db, json(names), json(classCodes));
  return releaseRefsFrom(await db.batch([a, b, c, d]));
}
