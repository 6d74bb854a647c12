import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { runBatch, type BatchStatement, type Database } from '../db/client';
import { withCompletenessEventsAtEnd } from '../db/completeness-flush';
import { catalogs, media } from '../db/schema';
import { assertDepartment, findElement } from '../db/scope';
import { historyStatement } from '../records/history-record';
import { mediaEntry } from '../records/snapshot';
import { notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { localizedPath } from '../kernel/languages';
import { bumpRevision, refreshFingerprints } from '../records/sync-record';
import { assertEnabled, readCompanyLanguages } from '../model/company-languages';
import { readTranslations, writeTranslationStatements } from '../model/translation-store';
import { findMedia, mediaOut, refreshAfterLinkChange, staleOnLinkChange } from './media';

export const UpdateMediaDto = z.strictObject({
  departmentId: z.uuid(),
  mediaId: z.uuid(),
  /** The description (BMEcat MIME_DESCR); null or '' clears it (in `language`, removes that translation). */
  description: z.string().max(250).nullable(),
  /** The description's language (an enabled code); absent = the catalog's default, which writes the column. */
  language: z.string().max(8).optional(),
});

/**
 * UpdateMedia: a media entry's description in one language (docs/languages.md), of an uploaded
 * file or a link. The catalog's default language is the entry's own column; another language
 * one translation row. History records the default as part of `media.<id>` and another
 * language as `media.<id>.description@<language>`.
 */
export async function updateMedia(db: Database, tenant: Caller, input: z.infer<typeof UpdateMediaDto>) {
  await assertDepartment(db, tenant, input.departmentId);
  const old = await findMedia(db, tenant, input.mediaId);
  const element = await findElement(db, tenant, old.elementId);
  if (element.departmentId !== input.departmentId) throw notFound('media');
  const [catalog] = await db
    .select({ language: catalogs.language })
    .from(catalogs)
    .where(and(eq(catalogs.id, element.catalogId), eq(catalogs.companyId, tenant.companyId)));
  if (!catalog) throw notFound('media');
  const language = input.language ?? catalog.language;
  if (input.language !== undefined) assertEnabled(await readCompanyLanguages(db, tenant), language, 'language');
  const description = input.description === '' ? null : input.description;
  const statements: BatchStatement[] = [];
  if (language === catalog.language) {
    const next = { ...old, description };
    if (old.description === description) return answer(db, old.id, language, catalog.language);
    statements.push(
      db.update(media).set({ description }).where(eq(media.id, old.id)),
      ...historyStatement(db, tenant, {
        elementId: element.id,
        kind: element.kind,
        place: element,
        before: { [`media.${old.id}`]: mediaEntry(old) },
        after: { [`media.${old.id}`]: mediaEntry(next) },
      }),
    );
  } else {
    const path = localizedPath(`media.${old.id}.description`, language);
    const before = (await readTranslations(db, [old.id], [language])).get(old.id)?.[language]?.description;
    if ((before ?? null) === description) return answer(db, old.id, language, catalog.language);
    statements.push(
      ...writeTranslationStatements(db, old.id, language, { description }),
      ...historyStatement(db, tenant, {
        elementId: element.id,
        kind: element.kind,
        place: element,
        before: before ? { [path]: before } : {},
        after: description ? { [path]: description } : {},
      }),
    );
  }
  if (element.masterId) statements.push(bumpRevision(db, element.masterId));
  statements.push(...staleOnLinkChange(db, tenant.companyId, element, Boolean(old.url)));
  await runBatch(db, withCompletenessEventsAtEnd(db, statements));
  if (element.masterId) await refreshFingerprints(db, tenant.companyId, [element.masterId]);
  await refreshAfterLinkChange(db, tenant.companyId, element, Boolean(old.url));
  return answer(db, old.id, language, catalog.language);
}

/**
 * The entry as stored, with its description in `language`. A description already as requested
 * writes nothing (docs/history.md, "A write that changes nothing") and is answered the same way.
 */
async function answer(db: Database, mediaId: string, language: string, catalogLanguage: string) {
  const row = (await db.query.media.findFirst({ where: eq(media.id, mediaId) }))!;
  const texts = (await readTranslations(db, [mediaId], [language])).get(mediaId)?.[language];
  return {
    ...mediaOut(row),
    description: language === catalogLanguage ? row.description : (texts?.description ?? null),
    language,
  };
}
