import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../db/client';
import { keysetPage } from '../kernel/pagination';
import { exportTemplates, historyVersions, users } from '../db/schema';
import { AppError, notFound } from '../kernel/app-error';
import { findElement } from '../db/scope';
import { decodeChanges } from '../records/history-record';
import type { HistoryItemOut } from './history.schemas';
import type { Caller } from '../kernel/caller';

/** Whether the company has this element now (catalog, category, product, variant or export template). */
async function elementExists(db: Database, tenant: Caller, elementId: string): Promise<boolean> {
  try {
    await findElement(db, tenant, elementId);
    return true;
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'not_found') throw err;
  }
  const template = await db.query.exportTemplates.findFirst({
    where: and(eq(exportTemplates.id, elementId), eq(exportTemplates.companyId, tenant.companyId)),
    columns: { id: true },
  });
  return template !== undefined;
}

/**
 * GetHistory: an element's versions, newest first, keyset-paginated on the versionId (UUIDv7)
 * through the (company_id, element_id, id) index. A deleted element keeps its history; an id
 * the company never had is 404, like any other id of another company.
 */
export async function getHistory(
  db: Database,
  tenant: Caller,
  input: { elementId: string; cursor?: string; limit: number },
) {
  const page = await keysetPage(
    input,
    { column: historyVersions.id, order: 'desc' },
    (q) =>
      db
        .select({ version: historyVersions, userName: users.name })
        .from(historyVersions)
        .leftJoin(users, eq(users.id, historyVersions.userId))
        .where(
          and(eq(historyVersions.companyId, tenant.companyId), eq(historyVersions.elementId, input.elementId), q.after),
        )
        .orderBy(q.orderBy)
        .limit(q.limit),
    (r) => r.version.id,
  );
  if (page.items.length === 0 && !input.cursor && !(await elementExists(db, tenant, input.elementId)))
    throw notFound('element');
  return {
    items: page.items.map(({ version, userName }) => historyItemOut(version, userName)),
    nextCursor: page.nextCursor,
  };
}

function historyItemOut(
  v: typeof historyVersions.$inferSelect,
  userName: string | null,
): z.infer<typeof HistoryItemOut> {
  return {
    versionId: v.id,
    at: v.at,
    action: v.action as z.infer<typeof HistoryItemOut>['action'],
    elementKind: v.elementKind as z.infer<typeof HistoryItemOut>['elementKind'],
    user: { userId: v.userId, name: userName },
    surface: v.surface,
    ...(v.clientName ? { clientName: v.clientName } : {}),
    ...(v.jobId ? { jobId: v.jobId } : {}),
    changes: decodeChanges(v.changes),
  };
}
