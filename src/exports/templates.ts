import { dbNow } from '../kernel/clock';
import { and, eq, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { isUniqueViolation, type Database } from '../db/client';
import { clientId, newId, unusableId } from '../kernel/ids';
import { keysetPage } from '../kernel/pagination';
import { categories, channels, exportTemplates } from '../db/schema';
import { badRequest, conflict, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { historyStatement } from '../records/history-record';
import { pickFields, TEMPLATE_FIELDS, type Snapshot } from '../records/snapshot';
import { checkOptionsForFormat, isBmecatFormat, TemplateOptions } from './bmecat/template-options';
import { EXPORTERS } from './registry';
import { LANGUAGE_CODE } from '../kernel/code-rules';

/** Request body of AddTemplate and UpdateTemplate (UpdateTemplate requires templateId and replaces the whole template). */
export const ExportTemplateDto = z.strictObject({
  templateId: clientId().nullish(),
  name: z.string().trim().min(1, 'name must not be empty').max(100),
  exportType: z.string().min(1).max(50),
  /** ISO 639-2 code of the texts (LANGUAGE); default: deu. */
  language: z.string().regex(LANGUAGE_CODE, 'language must be an ISO 639-2 code such as deu or eng').nullish(),
  options: TemplateOptions.nullish(),
});
type ExportTemplateInput = z.infer<typeof ExportTemplateDto>;

export const ExportTemplateOut = z.object({
  templateId: z.string(),
  name: z.string(),
  exportType: z.string(),
  language: z.string(),
  options: TemplateOptions,
  createdAt: z.string(),
  updatedAt: z.string(),
});

type TemplateRow = typeof exportTemplates.$inferSelect;

/** The API shape of a stored template. */
export function templateOut(row: TemplateRow): z.infer<typeof ExportTemplateOut> {
  return {
    templateId: row.id,
    name: row.name,
    exportType: row.exportType,
    language: row.language,
    options: row.options as z.infer<typeof TemplateOptions>,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Checks a template against its format and the company's data; returns the row values to store. */
async function checkTemplate(db: Database, tenant: Caller, input: ExportTemplateInput) {
  if (!Object.hasOwn(EXPORTERS, input.exportType)) {
    throw badRequest(
      `exportType: "${input.exportType}" is not supported; use one of ${Object.keys(EXPORTERS).join(', ')}`,
    );
  }
  const language = input.language ?? 'deu';
  const options = input.options ?? {};
  if (isBmecatFormat(input.exportType)) {
    checkOptionsForFormat(input.exportType, language, options);
  } else {
    // The other formats take the channel they feed, whose review gates them (docs/review.md), and
    // a category subset (the products placed in that subtree; a category-scoped member's export, docs/teams.md).
    const other = Object.keys(options).filter((key) => key !== 'channelId' && key !== 'categoryId');
    if (other.length > 0)
      throw badRequest(
        `options: exportType ${input.exportType} takes only channelId and categoryId, not ${other.join(', ')}`,
      );
  }
  if (options.categoryId) {
    const category = await db.query.categories.findFirst({
      where: and(eq(categories.id, options.categoryId), eq(categories.companyId, tenant.companyId)),
      columns: { id: true },
    });
    if (!category) throw notFound('category');
  }
  if (options.onlyComplete && !options.channelId)
    throw badRequest('options.onlyComplete: name the channel whose requirements decide (options.channelId)');
  if (options.channelId) {
    const channel = await db.query.channels.findFirst({
      where: and(eq(channels.channelId, options.channelId), eq(channels.companyId, tenant.companyId)),
      columns: { id: true },
    });
    if (!channel) throw badRequest(`options.channelId: ${options.channelId} is not a channel of your company`);
  }
  const clash = await db.query.exportTemplates.findFirst({
    where: and(
      eq(exportTemplates.companyId, tenant.companyId),
      eq(exportTemplates.name, input.name),
      input.templateId ? ne(exportTemplates.id, input.templateId) : undefined,
    ),
    columns: { id: true },
  });
  if (clash) throw conflict(`a template named "${input.name}" already exists`);
  return { name: input.name, exportType: input.exportType, language, options };
}

/** A template of the caller's company, else 404 (another company's template does not exist for the caller). */
export async function findTemplate(db: Database, tenant: Caller, templateId: string): Promise<TemplateRow> {
  const row = await db.query.exportTemplates.findFirst({
    where: and(eq(exportTemplates.id, templateId), eq(exportTemplates.companyId, tenant.companyId)),
  });
  if (!row) throw notFound('export template');
  return row;
}

/** AddTemplate: checks the template against its format and stores it. */
export async function addTemplate(db: Database, tenant: Caller, input: ExportTemplateInput) {
  const values = await checkTemplate(db, tenant, input);
  const id = input.templateId ?? newId();
  try {
    // A taken id (of any company) fails the insert and rolls the history entry back with it.
    const [rows] = await db.batch([
      db
        .insert(exportTemplates)
        .values({ id, companyId: tenant.companyId, ...values })
        .returning(),
      ...historyStatement(db, tenant, {
        elementId: id,
        kind: 'template',
        before: null,
        after: pickFields(values as Snapshot, TEMPLATE_FIELDS),
      }),
    ]);
    return templateOut(rows[0]!);
  } catch (err) {
    if (isUniqueViolation(err, 'export_templates.id')) throw unusableId('templateId');
    throw err;
  }
}

/** Replaces a template's name, format, language and options. Queued exports read it when they start. */
export async function updateTemplate(db: Database, tenant: Caller, input: ExportTemplateInput) {
  if (!input.templateId) throw badRequest('templateId is required');
  const existing = await findTemplate(db, tenant, input.templateId);
  const values = await checkTemplate(db, tenant, input);
  const [rows] = await db.batch([
    db
      .update(exportTemplates)
      .set({ ...values, updatedAt: dbNow })
      .where(eq(exportTemplates.id, existing.id))
      .returning(),
    ...historyStatement(db, tenant, {
      elementId: existing.id,
      kind: 'template',
      before: pickFields(existing, TEMPLATE_FIELDS),
      after: pickFields(values as Snapshot, TEMPLATE_FIELDS),
    }),
  ]);
  return templateOut(rows[0]!);
}

/** GetTemplate. */
export async function getTemplate(db: Database, tenant: Caller, templateId: string) {
  return templateOut(await findTemplate(db, tenant, templateId));
}

/** GetTemplates: the company's templates in creation order, keyset-paginated. */
export async function listTemplates(db: Database, tenant: Caller, input: { cursor?: string; limit: number }) {
  const page = await keysetPage(
    input,
    { column: exportTemplates.id, order: 'asc' },
    (q) =>
      db
        .select()
        .from(exportTemplates)
        .where(and(eq(exportTemplates.companyId, tenant.companyId), q.after))
        .orderBy(q.orderBy)
        .limit(q.limit),
    (r) => r.id,
  );
  return { items: page.items.map(templateOut), nextCursor: page.nextCursor };
}

/** DeleteTemplate. An export that names it and has not started fails with "export template no longer exists"; a running one finishes with its plan. */
export async function deleteTemplate(db: Database, tenant: Caller, templateId: string) {
  const existing = await findTemplate(db, tenant, templateId);
  await db.batch([
    db.delete(exportTemplates).where(eq(exportTemplates.id, existing.id)),
    ...historyStatement(db, tenant, {
      elementId: existing.id,
      kind: 'template',
      before: pickFields(existing, TEMPLATE_FIELDS),
      after: null,
    }),
  ]);
  return { templateId: existing.id, deleted: true as const };
}
