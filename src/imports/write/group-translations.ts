import { and, eq, sql } from 'drizzle-orm';
import { runBatch, type Database } from '../../db/client';
import { jsonList } from '../../db/json-rows';
import { importGroups } from '../../db/schema';
import { translationRowsStatements, type TranslationRow } from '../../model/translation-store';
import type { FileGroup } from '../records/bmecat-records';
import { DRY_RUN_PREFIX } from './import-staging';

/**
 * Writes the GROUP_NAME / GROUP_DESCRIPTION of the file's further languages to the categories
 * its groups became (docs/import.md "Languages"). The groups phase made the categories from
 * the staged groups (default language only: import_groups has one name); the products pass
 * reads the groups again and writes their other languages here, once the category of each
 * group is known. Idempotent (upserts), so a retried slice writes the same rows; a dry run
 * writes nothing.
 */
export async function writeGroupTranslations(
  db: Database,
  jobId: string,
  groups: Pick<FileGroup, 'groupId' | 'translations'>[],
): Promise<void> {
  const wanted = groups.filter((g) => g.translations);
  if (wanted.length === 0) return;
  const rows = await db
    .select({ groupId: importGroups.groupId, categoryId: importGroups.categoryId })
    .from(importGroups)
    .where(
      and(eq(importGroups.jobId, jobId), sql`${importGroups.groupId} IN ${jsonList(wanted.map((g) => g.groupId))}`),
    );
  const categoryOf = new Map(rows.map((r) => [r.groupId, r.categoryId]));
  const out: TranslationRow[] = [];
  for (const g of wanted) {
    const categoryId = categoryOf.get(g.groupId);
    if (!categoryId || categoryId.startsWith(DRY_RUN_PREFIX)) continue;
    for (const [lang, fields] of Object.entries(g.translations!))
      for (const [field, value] of Object.entries(fields))
        if (value) out.push({ elementId: categoryId, field, lang, value });
  }
  await runBatch(db, translationRowsStatements(db, out));
}
