import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { BatchStatement, Database } from '../db/client';
import { chunkByJsonSize, jsonList } from '../db/json-rows';
import { translations } from '../db/schema';

/**
 * Reading and writing translations (docs/languages.md): the element's own columns hold its
 * catalog's default language, every other language of a localizable field is one row of
 * `translations`. These are the only statements on that table, so its shape has one home.
 */

/** The localizable fields of each kind of element, by their API names (values.* and details.* besides). */
export const LOCALIZABLE_FIELDS = {
  product: ['name', 'description', 'keywords'],
  variant: ['name', 'description', 'keywords'],
  category: ['name', 'description', 'keywords'],
  media: ['description'],
} as const;

export type LocalizableKind = keyof typeof LOCALIZABLE_FIELDS;

/** Field name to text, of one element in one language. */
export type FieldTexts = Record<string, string>;
/** Language to its field texts, of one element. */
export type ElementTranslations = Record<string, FieldTexts>;

/** The translation field of a text attribute's value. */
export const attributeField = (code: string) => `values.${code}`;
/** The translation field of a feature value's free text (BMEcat FVALUE_DETAILS). */
export const detailsField = (group: string, code: string) => `details.${group}.${code}`;

/**
 * A classification feature without value, as the ETIM BMEcat guideline writes it (FVALUE `-`);
 * the reason is its details text in the catalog's language (FVALUE_DETAILS), one of
 * REASONS_NO_VALUE, which is xChange's ReasonNoValue. Both imports store it so; both exports
 * write it back in their form.
 */
export const NO_FEATURE_VALUE = '-';
/** ReasonNoValue of ETIM xChange (MV, NA, UN), FVALUE_DETAILS of a `-` in the ETIM BMEcat guideline. */
export const REASONS_NO_VALUE = ['MV', 'NA', 'UN'] as const;

/**
 * The translations of many elements, optionally only of some languages, in one statement:
 * `elementId -> language -> field -> text`. Elements without any are absent.
 */
export async function readTranslations(
  db: Database,
  elementIds: readonly string[],
  languages?: readonly string[],
): Promise<Map<string, ElementTranslations>> {
  const out = new Map<string, ElementTranslations>();
  if (elementIds.length === 0 || languages?.length === 0) return out;
  const rows = await db
    .select()
    .from(translations)
    .where(
      and(
        sql`${translations.elementId} IN ${jsonList(elementIds)}`,
        languages ? sql`${translations.lang} IN ${jsonList(languages)}` : undefined,
      ),
    );
  for (const row of rows) {
    const element = out.get(row.elementId) ?? {};
    const fields = element[row.lang] ?? {};
    fields[row.field] = row.value;
    element[row.lang] = fields;
    out.set(row.elementId, element);
  }
  return out;
}

/**
 * The translations of the elements in the SQL sets `elementSets` (e.g. `(SELECT ...)`), for a
 * read batch: one row per element with its texts packed as a JSON list of [lang, field, value]
 * (`groupedTranslations` unpacks it). One row per element instead of one per text: the export
 * of a catalog in three languages read four times as many rows here as products, and turning
 * D1's rows into objects was its largest cost (docs/benchmarks.md "Exports").
 */
export function translationsOfStatement(db: Database, ...elementSets: SQL[]) {
  return db
    .select({
      elementId: translations.elementId,
      texts: sql<string>`json_group_array(json_array(${translations.lang}, ${translations.field}, ${translations.value}))`,
    })
    .from(translations)
    .where(
      sql.join(
        elementSets.map((set) => sql`${translations.elementId} IN ${set}`),
        sql` OR `,
      ),
    )
    .groupBy(translations.elementId);
}

const byLanguageThenField = (a: string[], b: string[]) =>
  a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : a[1]! < b[1]! ? -1 : a[1]! > b[1]! ? 1 : 0;

/**
 * The rows of `translationsOfStatement` as `elementId -> language -> field -> text`, each
 * element's languages and fields in code order, whatever order SQL gave them in: sync
 * fingerprints hash these objects, so the same texts must always make the same object.
 */
export function groupedTranslations(rows: readonly { elementId: string; texts: string }[]) {
  const out = new Map<string, ElementTranslations>();
  for (const row of rows) {
    const texts = (JSON.parse(row.texts) as [string, string, string][]).sort(byLanguageThenField);
    const element: ElementTranslations = {};
    for (const [lang, field, value] of texts) (element[lang] ??= {})[field] = value;
    out.set(row.elementId, element);
  }
  return out;
}

/**
 * The statements that make one element's texts in one language what `fields` says: a text
 * is written (upsert), a null removes that translation, a field left out is left alone. No
 * other language's row is touched.
 */
export function writeTranslationStatements(
  db: Database,
  elementId: string,
  language: string,
  fields: Record<string, string | null>,
): BatchStatement[] {
  const statements: BatchStatement[] = [];
  const removed = Object.keys(fields).filter((f) => fields[f] === null || fields[f] === '');
  const written = Object.entries(fields).filter((e): e is [string, string] => e[1] !== null && e[1] !== '');
  if (written.length > 0)
    statements.push(
      db
        .insert(translations)
        .values(written.map(([field, value]) => ({ elementId, field, lang: language, value })))
        .onConflictDoUpdate({
          target: [translations.elementId, translations.field, translations.lang],
          set: { value: sql`excluded.value` },
        }),
    );
  if (removed.length > 0)
    statements.push(
      db
        .delete(translations)
        .where(
          and(
            eq(translations.elementId, elementId),
            eq(translations.lang, language),
            inArray(translations.field, removed),
          ),
        ),
    );
  return statements;
}

/** Removes every translation of one field of one element (e.g. an attribute value that was cleared). */
export const clearFieldStatement = (db: Database, elementId: string, field: string): BatchStatement =>
  db.delete(translations).where(and(eq(translations.elementId, elementId), eq(translations.field, field)));

/** One element's stored text of one field in one language, as SQL (what a guarded write checks and history records). */
export const translationValueSql = (elementId: string, field: string, language: string) =>
  sql`(SELECT ${translations.value} FROM ${translations} WHERE ${translations.elementId} = ${elementId} AND ${translations.field} = ${field} AND ${translations.lang} = ${language})`;

/** One element's texts in one language: SetValue reads them in its read batch. */
export const elementLanguageStatement = (db: Database, elementId: string, language: string) =>
  db
    .select({ field: translations.field, value: translations.value })
    .from(translations)
    .where(and(eq(translations.elementId, elementId), eq(translations.lang, language)));
/** One translation to write (a text) or remove (null), of any element and language. */
export interface TranslationRow {
  elementId: string;
  field: string;
  lang: string;
  value: string | null;
}

/**
 * The statements that write many elements' translations at once (an upsert's or import's
 * batch): the texts in one upsert and the removals in one delete per ~256 KB of rows, carried
 * as one JSON parameter each, so a batch of 500 products in three languages stays a few
 * statements instead of one per product and language (writeTranslationStatements' shape).
 */
export function translationRowsStatements(db: Database, rows: readonly TranslationRow[]): BatchStatement[] {
  const statements: BatchStatement[] = [];
  const written = rows
    .filter((r) => r.value !== null && r.value !== '')
    .map((r) => [r.elementId, r.field, r.lang, r.value]);
  const removed = rows.filter((r) => r.value === null || r.value === '').map((r) => [r.elementId, r.field, r.lang]);
  const pick = sql.raw(`json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]')`);
  for (const json of chunkByJsonSize(written))
    statements.push(
      db
        .insert(translations)
        .select(sql`SELECT ${pick}, json_extract(value, '$[3]') FROM json_each(${json}) WHERE true`)
        .onConflictDoUpdate({
          target: [translations.elementId, translations.field, translations.lang],
          set: { value: sql`excluded.value` },
        }),
    );
  for (const json of chunkByJsonSize(removed))
    statements.push(
      db
        .delete(translations)
        .where(
          sql`(${translations.elementId}, ${translations.field}, ${translations.lang}) IN (SELECT ${pick} FROM json_each(${json}))`,
        ),
    );
  return statements;
}

/**
 * Whether the element `elementId` (an SQL column or value) has a text in one of `languages`:
 * a key-prefix probe of the primary key per element, never a walk of the table.
 */
export const hasTranslationIn = (elementId: SQL, languages: readonly string[]): SQL =>
  sql`EXISTS (SELECT 1 FROM ${translations} WHERE ${translations.elementId} = ${elementId} AND ${translations.lang} IN ${jsonList(languages)})`;
