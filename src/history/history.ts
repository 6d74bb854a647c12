import { and, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../db/client';
import { keysetPage } from '../kernel/pagination';
import { exportTemplates, historyVersions, users } from '../db/schema';
import { AppError, notFound } from '../kernel/app-error';
import { findElement } from '../db/scope';
import { decodeChanges } from '../records/history-record';
import type { HistoryItemOut } from './history.schemas';
import type { Caller, ProductScope } from '../kernel/caller';
import { goneProductInScopeSql } from '../db/product-scope';

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
 * A member with a product scope reads the history of an element gone (the guard judged it by
 * nothing) only when it was a product or variant in their scope, as the changes feed judges it
 * (`goneProductInScopeSql`: its recorded catalog, a master's recorded placements, a variant's
 * master), or a catalog, category or template (the tree is not hidden); one outside is 404, as
 * an id never had.
 */
async function assertDeletedInScope(db: Database, tenant: Caller, scope: ProductScope, elementId: string) {
  const [row] = await db.all<{ kind: string; inside: number }>(sql`SELECT h.element_kind AS kind,
      ${goneProductInScopeSql(scope, tenant.companyId, sql`${elementId}`)} AS inside
    FROM history_versions h WHERE h.company_id = ${tenant.companyId} AND h.element_id = ${elementId}
    ORDER BY h.id DESC LIMIT 1`);
  if (!row || ['catalog', 'category', 'template'].includes(row.kind)) return;
  if (Number(row.inside) === 1) return;
  throw notFound('element');
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
  if (tenant.productScope && !(await elementExists(db, tenant, input.elementId)))
    await assertDeletedInScope(db, tenant, tenant.productScope, input.elementId);
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
