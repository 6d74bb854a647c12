import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/client';
import { exportTemplates } from '../db/schema';
import type { JobMessage } from '../env';
import { badRequest, notFound } from '../kernel/app-error';
import { assertChannelInScope, exportSubtrees } from '../db/product-scope';
import { assertDepartment, findCatalog } from '../db/scope';
import { enqueueJob } from '../jobs/jobs';
import { DEFAULT_EXPORT_TYPE, EXPORTERS } from './registry';
import { assertPermitted } from '../kernel/permissions';
import type { Caller } from '../kernel/caller';

export const StartExportDto = z.strictObject({
  departmentId: z.uuid(),
  catalogId: z.uuid(),
  exportType: z.string().min(1).max(50).nullish(),
  templateId: z.uuid().nullish(),
});

/** Validates the request, then queues the export as a background job (docs/design.md section 5). */
export async function startExport(
  /** `origin`: the request's origin, kept for formats that link media by signed URL (like the sync's manual runs). */
  deps: { db: Database; queue: Queue<JobMessage>; origin?: string },
  caller: Caller,
  input: z.infer<typeof StartExportDto>,
) {
  const { db } = deps;
  // Publishing (docs/teams.md): the REST guard and the MCP tool refuse before validation; this is the domain's own check.
  assertPermitted(caller, 'publish');
  await assertDepartment(db, caller, input.departmentId);
  const catalog = await findCatalog(db, caller, input.catalogId, input.departmentId);
  let templateType: string | undefined;
  let templateChannel: string | null = null;
  let templateCategory: string | null = null;
  if (input.templateId) {
    const template = await db.query.exportTemplates.findFirst({
      where: and(eq(exportTemplates.id, input.templateId), eq(exportTemplates.companyId, caller.companyId)),
    });
    if (!template) throw notFound('export template');
    templateType = template.exportType;
    templateChannel = typeof template.options.channelId === 'string' ? template.options.channelId : null;
    templateCategory = typeof template.options.categoryId === 'string' ? template.options.categoryId : null;
    // A template's options were checked for its own format; another format might not accept them.
    if (input.exportType && input.exportType !== templateType) {
      throw badRequest(
        `exportType: the template is for ${templateType}; leave exportType out or pick a template for ${input.exportType}`,
      );
    }
  }
  // A member limited to channels publishes only through a template of one of them (docs/teams.md).
  assertChannelInScope(caller, templateChannel);
  // A member limited to category subtrees exports only them (docs/teams.md): the job keeps their roots.
  const scopeCategoryIds = await exportSubtrees(db, caller, catalog.id, templateCategory);
  const exportType = input.exportType ?? templateType ?? DEFAULT_EXPORT_TYPE;
  if (!Object.hasOwn(EXPORTERS, exportType)) {
    throw badRequest(`exportType: "${exportType}" is not supported; use one of ${Object.keys(EXPORTERS).join(', ')}`);
  }
  return enqueueJob(
    deps,
    { companyId: caller.companyId, departmentId: input.departmentId, userId: caller.userId },
    {
      kind: 'export',
      params: {
        catalogId: catalog.id,
        exportType,
        templateId: input.templateId ?? null,
        mediaBaseUrl: deps.origin ?? null,
        ...(scopeCategoryIds ? { scopeCategoryIds } : {}),
      },
      // a member limited to part of the catalog is not told its size: the run sets the export's own total
      total: scopeCategoryIds ? 0 : catalog.productCount,
    },
  );
}
