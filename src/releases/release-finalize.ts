import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { runBatch, type Database } from '../db/client';
import {
  classificationReleases,
  releaseClasses,
  releaseClassFeatures,
  releaseClassFeatureValues,
  releaseFeatures,
  releaseNames,
  releaseSynonyms,
  releaseUnits,
  releaseValues,
} from '../db/schema';
import type { JobRow } from '../jobs/jobs';
import type { ReleaseCheckpoint } from './release-checkpoint';
import { saveReleaseCheckpoint } from './release-checkpoint';
import { ReleaseFileError } from './release-errors';
import { TEMPLATE_LIST } from './bmecat-ft-values';
import type { Role } from './release-rows';

/** How many rows each role's file put into the release, for comparing with the rows read. */
const STORED: Record<Role, (id: number) => ReturnType<typeof sql<number>>> = {
  featureSystem: (id) =>
    sql<number>`(SELECT count(*) FROM ${releaseClasses} WHERE ${releaseClasses.releaseId} = ${id})`,
  units: (id) => sql<number>`(SELECT count(*) FROM ${releaseUnits} WHERE ${releaseUnits.releaseId} = ${id})`,
  classes: (id) => sql<number>`(SELECT count(*) FROM ${releaseClasses} WHERE ${releaseClasses.releaseId} = ${id})`,
  features: (id) => sql<number>`(SELECT count(*) FROM ${releaseFeatures} WHERE ${releaseFeatures.releaseId} = ${id})`,
  values: (id) => sql<number>`(SELECT count(*) FROM ${releaseValues} WHERE ${releaseValues.releaseId} = ${id})`,
  keywords: (id) =>
    sql<number>`(SELECT count(*) FROM ${releaseNames} WHERE ${releaseNames.releaseId} = ${id} AND ${releaseNames.kind} = 'K')`,
  synonyms: (id) => sql<number>`(SELECT count(*) FROM ${releaseSynonyms} WHERE ${releaseSynonyms.releaseId} = ${id})`,
  classFeatures: (id) =>
    sql<number>`(SELECT count(*) FROM ${releaseClassFeatures} WHERE ${releaseClassFeatures.releaseId} = ${id})`,
  classFeatureValues: (id) =>
    sql<number>`(SELECT count(*) FROM ${releaseClassFeatureValues} WHERE ${releaseClassFeatureValues.releaseId} = ${id})`,
};

const COUNTED: Role[] = ['classes', 'features', 'values', 'units', 'synonyms', 'classFeatures', 'classFeatureValues'];

/**
 * What needs the whole release: every parent class exists; ETIM features get the type their
 * classes give them; the class search index is built; then, in one transaction, the release
 * becomes `loaded` and the one it replaces (same system and version) `replaced`.
 */
export async function finalizeRelease(
  jobDb: Database,
  job: JobRow,
  cp: ReleaseCheckpoint,
  /** The cell being written (release-cells.ts); the job's own by default. */
  db: Database = jobDb,
): Promise<ReleaseCheckpoint> {
  const id = cp.releaseId;
  const [orphan] = await db.all<{ code: string; parent: string }>(sql`
    SELECT c.code AS code, c.parent_code AS parent FROM release_classes c
    WHERE c.release_id = ${id} AND c.parent_code IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM release_classes p WHERE p.release_id = c.release_id AND p.code = c.parent_code)
    LIMIT 1`);
  if (orphan) {
    const file = cp.files.find((f) => f.role === 'classes' || f.role === 'featureSystem');
    throw new ReleaseFileError(
      file?.name ?? 'classes',
      0,
      `class ${orphan.code} names parent ${orphan.parent}, which is not a class of the release`,
    );
  }
  await expandTemplateLists(db, id);
  const counts: Record<string, number> = {};
  const [row] = await db
    .select(
      Object.fromEntries(COUNTED.map((role) => [role, STORED[role](id)])) as Record<
        Role,
        ReturnType<typeof sql<number>>
      >,
    )
    .from(classificationReleases)
    .where(eq(classificationReleases.id, id));
  for (const role of COUNTED) counts[role] = Number((row as Record<string, number>)[role]);
  const stored: Record<string, number> = {};
  for (const file of cp.files)
    if (file.role !== 'featureSystem' && cp.files.filter((f) => f.role === file.role).length === 1) {
      const [one] = await db.all<{ n: number }>(sql`SELECT ${STORED[file.role](id)} AS n`);
      stored[file.name] = Number(one?.n ?? 0);
    }
  // The release's main language (most class names) first: names fall back to it.
  const languages = (
    await db.all<{ lang: string }>(
      sql`SELECT lang FROM release_names WHERE release_id = ${id} AND kind = 'C' GROUP BY lang ORDER BY count(*) DESC, lang`,
    )
  ).map((r) => r.lang);
  const release = (await db.query.classificationReleases.findFirst({ where: eq(classificationReleases.id, id) }))!;
  const next: ReleaseCheckpoint = { ...cp, phase: 'purge', seq: cp.seq + 1, stored };
  // Idempotent steps on the release nobody reads yet: a finalize run again after a crash repeats them.
  // ETIM gives a feature's type per class: the feature's own is the one most of its classes use.
  // One aggregate pass (a correlated subquery per feature scanned the class-feature map 15,000 times at ETIM size).
  await db.run(sql`UPDATE release_features SET type = t.type FROM (
      SELECT feature_code, type FROM (
        SELECT feature_code, type, row_number() OVER (PARTITION BY feature_code ORDER BY count(*) DESC, type) AS rn
        FROM release_class_features WHERE release_id = ${id} AND type IS NOT NULL GROUP BY feature_code, type)
      WHERE rn = 1) AS t
    WHERE release_features.release_id = ${id} AND release_features.code = t.feature_code AND release_features.type IS NULL`);
  await db.run(sql`UPDATE release_features SET type = 'A' WHERE release_id = ${id} AND type IS NULL`);
  await db.run(sql`DELETE FROM release_class_search WHERE rel = ${`r${id}`}`);
  await db.run(sql`INSERT INTO release_class_search (rel, code, lang, text)
    SELECT ${`r${id}`}, code, lang, group_concat(t, ' ') FROM (
      SELECT code, lang, name AS t FROM release_names WHERE release_id = ${id} AND kind = 'C'
      UNION ALL SELECT class_code, lang, synonym FROM release_synonyms WHERE release_id = ${id}
    ) GROUP BY code, lang`);
  // The flip, in one transaction with the checkpoint: readers see the old release or the new one.
  // In another cell the flip commits first, then the checkpoint: a flip run again changes nothing.
  const save = saveReleaseCheckpoint(jobDb, job.id, cp.seq, next);
  const flip = [
    db
      .update(classificationReleases)
      .set({ status: 'replaced' })
      .where(
        and(
          eq(classificationReleases.system, release.system),
          eq(classificationReleases.version, release.version),
          eq(classificationReleases.status, 'loaded'),
          ne(classificationReleases.id, id),
        ),
      ),
    db
      .update(classificationReleases)
      .set({ status: 'loaded', counts, languages, loadedAt: new Date().toISOString() })
      .where(eq(classificationReleases.id, id)),
  ] as const;
  if (db === jobDb) await runBatch(db, [...save, ...flip]);
  else {
    await runBatch(db, [...flip]);
    await runBatch(jobDb, save);
  }
  return next;
}

/**
 * A feature template's own value list (BMEcat FEATURE_TEMPLATE/FT_VALUES, written under the
 * class code TEMPLATE_LIST) becomes the list of every class feature of that template without a
 * list of its own; then those rows go. Idempotent: run again, it finds nothing left to give.
 */
async function expandTemplateLists(db: Database, id: number): Promise<void> {
  await db.run(sql`INSERT OR IGNORE INTO release_class_feature_values (release_id, class_code, feature_code, value_code, sort)
    SELECT cf.release_id, cf.class_code, t.feature_code, t.value_code, t.sort
    FROM release_class_feature_values t
    JOIN release_class_features cf ON cf.release_id = t.release_id AND cf.feature_code = t.feature_code
    WHERE t.release_id = ${id} AND t.class_code = ${TEMPLATE_LIST}
      AND NOT EXISTS (SELECT 1 FROM release_class_feature_values own WHERE own.release_id = cf.release_id
        AND own.class_code = cf.class_code AND own.feature_code = cf.feature_code)`);
  await db.run(
    sql`DELETE FROM release_class_feature_values WHERE release_id = ${id} AND class_code = ${TEMPLATE_LIST}`,
  );
}

/** Rows deleted per statement: a bounded transaction however large the release. */
const PURGE_CHUNK = 5000;

const PURGED = [
  ['release_class_feature_values', 'class_code, feature_code, value_code'],
  ['release_class_features', 'class_code, feature_code'],
  ['release_synonyms', 'class_code, lang, synonym'],
  ['release_names', 'kind, code, lang'],
  ['release_classes', 'code'],
  ['release_features', 'code'],
  ['release_values', 'code'],
  ['release_units', 'code'],
] as const;

/**
 * Deletes the rows of releases that are `replaced` or `failed`, a chunk per statement, then
 * their search rows. Safe to repeat and to interrupt: what is left is deleted next time.
 */
export async function purgeReleases(db: Database): Promise<void> {
  const gone = await db
    .select({ id: classificationReleases.id })
    .from(classificationReleases)
    .where(inArray(classificationReleases.status, ['replaced', 'failed']));
  for (const { id } of gone) {
    for (const [table, key] of PURGED) {
      for (;;) {
        const result = await db.run(
          sql.raw(
            `DELETE FROM ${table} WHERE release_id = ${id} AND (${key}) IN (SELECT ${key} FROM ${table} WHERE release_id = ${id} LIMIT ${PURGE_CHUNK})`,
          ),
        );
        if ((result.meta?.changes ?? 0) < PURGE_CHUNK) break;
      }
    }
    await db.run(sql`DELETE FROM release_class_search WHERE rel = ${`r${id}`}`);
  }
}
