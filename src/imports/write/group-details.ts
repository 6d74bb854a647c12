import { and, eq, sql } from 'drizzle-orm';
import { runBatch, type BatchStatement, type Database } from '../../db/client';
import { chunkByJsonSize, jsonList } from '../../db/json-rows';
import { categories, importGroups } from '../../db/schema';
import { translationRowsStatements, type TranslationRow } from '../../model/translation-store';
import type { FileGroup } from '../records/bmecat-records';
import { DRY_RUN_PREFIX } from './import-staging';
import { OUTSIDE_CATEGORY } from './import-categories';

/**
 * Writes what the groups phase did not to the categories the file's groups became, once the
 * category of each group is known: the GROUP_NAME / GROUP_DESCRIPTION / KEYWORD of the file's
 * further languages (docs/import.md "Languages"; import_groups has one name) and the group's
 * data (docs/import.md "Category data": KEYWORDs, FEATUREs, USER_DEFINED_EXTENSIONS). The
 * products pass reads the groups again and hands them here in batches. Idempotent (upserts and
 * plain updates), so a retried slice writes the same rows; a dry run writes nothing. A scoped
 * member's groups whose category lies outside their subtrees are left out and returned.
 */
export async function writeGroupDetails(
  db: Database,
  scope: { companyId: string; jobId: string; inside?: ReadonlySet<string> },
  groups: Pick<FileGroup, 'groupId' | 'translations' | 'data'>[],
): Promise<string[]> {
  const wanted = groups.filter((g) => g.translations || g.data);
  if (wanted.length === 0) return [];
  const rows = await db
    .select({ groupId: importGroups.groupId, categoryId: importGroups.categoryId })
    .from(importGroups)
    .where(
      and(
        eq(importGroups.jobId, scope.jobId),
        sql`${importGroups.groupId} IN ${jsonList(wanted.map((g) => g.groupId))}`,
      ),
    );
  const categoryOf = new Map(rows.map((r) => [r.groupId, r.categoryId]));
  const out: TranslationRow[] = [];
  const data: [string, string | null, string | null, string | null][] = [];
  // a scoped member's group matched to an existing category outside the subtrees changes nothing of it
  const outside: string[] = [];
  for (const g of wanted) {
    const categoryId = categoryOf.get(g.groupId);
    if (!categoryId || categoryId.startsWith(DRY_RUN_PREFIX) || categoryId === OUTSIDE_CATEGORY) continue;
    if (scope.inside && !scope.inside.has(categoryId)) {
      outside.push(g.groupId);
      continue;
    }
    for (const [lang, fields] of Object.entries(g.translations ?? {}))
      for (const [field, value] of Object.entries(fields))
        if (value) out.push({ elementId: categoryId, field, lang, value });
    if (g.data)
      data.push([categoryId, g.data.keywords, g.data.features ? JSON.stringify(g.data.features) : null, g.data.udx]);
  }
  await runBatch(db, [...translationRowsStatements(db, out), ...groupDataStatements(db, scope.companyId, data)]);
  return outside;
}

/**
 * One UPDATE per chunk of categories (a full-range file has thousands of groups with data):
 * each part a group carries replaces the category's, a part it does not carry stays as it is.
 */
function groupDataStatements(
  db: Database,
  companyId: string,
  rows: [string, string | null, string | null, string | null][],
): BatchStatement[] {
  return chunkByJsonSize(rows).map((json) =>
    db
      .update(categories)
      .set({
        keywords: sql`coalesce(g.keywords, ${categories.keywords})`,
        features: sql`coalesce(g.features, ${categories.features})`,
        udx: sql`coalesce(g.udx, ${categories.udx})`,
      })
      // LIMIT -1 keeps the list a table SQLite loops over, looking each category up by its key.
      .from(
        sql`(SELECT json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS keywords, json_extract(value, '$[2]') AS features, json_extract(value, '$[3]') AS udx FROM json_each(${json}) LIMIT -1) AS g`,
      )
      .where(and(sql`${categories.id} = g.id`, eq(categories.companyId, companyId))),
  );
}
