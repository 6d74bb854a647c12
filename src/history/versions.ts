import { and, desc, eq, gt, lt } from 'drizzle-orm';
import type { Database } from '../db/client';
import { historyVersions } from '../db/schema';
import { notFound } from '../kernel/app-error';
import { decodeChanges } from '../records/history-record';
import { withChanges, type Snapshot } from '../records/snapshot';

type VersionRow = typeof historyVersions.$inferSelect;

const PAGE = 200;

/** One version of an element of the company, else 404 (another company's version does not exist). */
export async function findVersion(
  db: Database,
  companyId: string,
  elementId: string,
  versionId: string,
): Promise<VersionRow> {
  const row = await db.query.historyVersions.findFirst({
    where: and(
      eq(historyVersions.id, versionId),
      eq(historyVersions.companyId, companyId),
      eq(historyVersions.elementId, elementId),
    ),
  });
  if (!row) throw notFound('version');
  return row;
}

/**
 * The element's state right after version `versionId`: the current snapshot with every later
 * version undone, newest first (each change's `before` put back). Later versions are read in
 * keyset pages of the (company_id, element_id, id) index, so memory stays bounded by the
 * snapshot, not by the number of versions.
 */
export async function stateAfter(
  db: Database,
  companyId: string,
  elementId: string,
  current: Snapshot,
  versionId: string,
): Promise<Snapshot> {
  let state = current;
  let before: string | undefined;
  for (;;) {
    const rows = await db
      .select({ id: historyVersions.id, changes: historyVersions.changes })
      .from(historyVersions)
      .where(
        and(
          eq(historyVersions.companyId, companyId),
          eq(historyVersions.elementId, elementId),
          gt(historyVersions.id, versionId),
          before ? lt(historyVersions.id, before) : undefined,
        ),
      )
      .orderBy(desc(historyVersions.id))
      .limit(PAGE);
    for (const row of rows) {
      const undo: Snapshot = {};
      for (const change of decodeChanges(row.changes)) undo[change.path] = change.before;
      state = withChanges(state, undo);
    }
    if (rows.length < PAGE) return state;
    before = rows.at(-1)!.id;
  }
}
