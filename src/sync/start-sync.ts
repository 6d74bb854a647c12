import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { keysetPage } from '../kernel/pagination';
import { jobs, syncConnections, syncRuns } from '../db/schema';
import type { JobMessage } from '../env';
import { conflict, forbidden } from '../kernel/app-error';
import { assertDepartment } from '../db/scope';
import { enqueueJob, ownJobs } from '../jobs/jobs';
import { findConnection, runJobColumns, runOut, type ConnectionRow } from './connections';
import type { StartSyncInput } from './sync.schemas';
import type { SyncParams } from './sync-state';
import { assertPermitted, NOT_PERMITTED } from '../kernel/permissions';
import { assertCatalogInScope, assertChannelInScope } from '../db/product-scope';
import { narrowingScope } from '../db/scope-counts';
import type { Caller } from '../kernel/caller';

/** The queued or running run of this connection, if any (one at a time per connection). */
async function activeRun(db: Database, connectionId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: jobs.id })
    .from(syncRuns)
    .innerJoin(jobs, eq(jobs.id, syncRuns.jobId))
    .where(and(eq(syncRuns.connectionId, connectionId), inArray(jobs.state, ['queued', 'running'])))
    .limit(1);
  return row?.id ?? null;
}

function alreadyActive(jobId: string | null) {
  return conflict(
    `a sync of this connection is already queued or running${jobId ? ` (job ${jobId})` : ''}: wait for it or cancel it`,
  );
}

/**
 * The statements that make "one run per connection" atomic: in the transaction that inserted
 * the new job and its run row, both are removed again when another run of the connection is
 * queued or running. D1 runs a batch as one serialised transaction, so of two racing starts
 * the second always sees the first (a check before the insert alone would let both pass).
 */
function withdrawIfAnotherIsActive(db: Database, connectionId: string, jobId: string) {
  const anotherActive = sql`EXISTS (SELECT 1 FROM ${syncRuns} r JOIN ${jobs} j ON j.id = r.job_id
    WHERE r.connection_id = ${connectionId} AND r.job_id <> ${jobId} AND j.state IN ('queued', 'running'))`;
  return [
    db
      .delete(jobs)
      .where(and(eq(jobs.id, jobId), anotherActive))
      .returning({ id: jobs.id }),
    db
      .delete(syncRuns)
      .where(and(eq(syncRuns.jobId, jobId), sql`NOT EXISTS (SELECT 1 FROM ${jobs} WHERE ${jobs.id} = ${jobId})`)),
  ];
}

/**
 * Queues a run as a job of kind `sync` and records it for GetRuns. The job row and its run
 * row are written before the queue message, so the consumer always finds both. A connection
 * with a run queued or running refuses with 409 naming that job.
 */
export async function queueRun(
  deps: { db: Database; queue: Queue<JobMessage> },
  connection: ConnectionRow,
  run: { userId: string; dryRun: boolean; confirmDeactivations: boolean; baseUrl: string; scopeCategoryIds?: string[] },
): Promise<{ jobId: string }> {
  const running = await activeRun(deps.db, connection.id);
  if (running) throw alreadyActive(running);
  const params: SyncParams = {
    connectionId: connection.id,
    dryRun: run.dryRun,
    confirmDeactivations: run.confirmDeactivations,
    baseUrl: run.baseUrl,
    ...(run.scopeCategoryIds ? { scopeCategoryIds: run.scopeCategoryIds } : {}),
  };
  return enqueueJob(
    deps,
    { companyId: connection.companyId, departmentId: connection.departmentId, userId: run.userId },
    {
      kind: 'sync',
      params: params as unknown as Record<string, unknown>,
      related: (jobId) => [
        deps.db
          .insert(syncRuns)
          .values({ jobId, connectionId: connection.id, companyId: connection.companyId, dryRun: run.dryRun }),
        ...withdrawIfAnotherIsActive(deps.db, connection.id, jobId),
      ],
      admit: async (results) => {
        const withdrawn = results[1] as { id: string }[];
        if (withdrawn.length > 0) throw alreadyActive(await activeRun(deps.db, connection.id));
      },
    },
  );
}

/**
 * A sync publishes its connection's whole catalog, in its channel (docs/teams.md "Syncs"): a
 * member with a product scope needs the catalog in it (403 `WHOLE_CATALOG_ONLY` with category
 * scopes, `NOT_PERMITTED` for another catalog), one with channels the connection's channel (a
 * connection without one publishes every channel's products: 403). `TestConnection` (which
 * pushes the shop's settings and a pending target reset) checks it; `StartSync` runs a member
 * limited to subtrees over them instead (`syncSubtrees`).
 */
export function assertSyncInScope(caller: Caller, connection: Pick<ConnectionRow, 'catalogId' | 'options'>): void {
  assertCatalogInScope(caller, connection.catalogId);
  assertChannelInScope(caller, connection.options.channelId ?? null);
}

/**
 * What `StartSync` publishes for the caller: the whole catalog (null) when the scope allows it
 * (`assertSyncInScope`), or, for a member limited to category subtrees, a run over their
 * subtrees' masters (their roots, as an import's job keeps them) that deactivates nothing
 * (sync-join.ts). A member limited to other catalogs, or to other channels, is refused as before.
 */
export function syncSubtrees(
  caller: Caller,
  connection: Pick<ConnectionRow, 'catalogId' | 'options'>,
): string[] | null {
  assertChannelInScope(caller, connection.options.channelId ?? null);
  const scope = narrowingScope(caller, connection.catalogId);
  if (!scope) return null;
  if (!scope.categoryIds.length) throw forbidden(NOT_PERMITTED);
  return [...scope.categoryIds];
}

/** `Sync/StartSync`: a member of the connection's company whose role may publish runs it (docs/sync.md, docs/teams.md). */
export async function startSync(
  deps: { db: Database; queue: Queue<JobMessage> },
  caller: Caller,
  input: StartSyncInput,
  baseUrl: string,
) {
  assertPermitted(caller, 'publish');
  await assertDepartment(deps.db, caller, input.departmentId);
  const connection = await findConnection(deps.db, caller, input.connectionId, input.departmentId);
  const scopeCategoryIds = syncSubtrees(caller, connection);
  if (connection.publicBaseUrl !== baseUrl) {
    // Scheduled runs sign media URLs with the origin last used by hand (unless PUBLIC_BASE_URL is set).
    await deps.db.update(syncConnections).set({ publicBaseUrl: baseUrl }).where(eq(syncConnections.id, connection.id));
  }
  return queueRun(deps, connection, {
    userId: caller.userId,
    dryRun: input.dryRun,
    confirmDeactivations: input.confirmDeactivations,
    baseUrl,
    ...(scopeCategoryIds ? { scopeCategoryIds } : {}),
  });
}

/** `Sync/GetRuns`: a connection's runs, newest first (job ids are time-ordered UUIDv7). */
export async function listRuns(
  db: Database,
  tenant: Caller,
  input: { connectionId: string; cursor?: string; limit: number },
) {
  await findConnection(db, tenant, input.connectionId);
  const page = await keysetPage(
    input,
    { column: syncRuns.jobId, order: 'desc' },
    (q) =>
      db
        .select({ run: syncRuns, job: runJobColumns })
        .from(syncRuns)
        .innerJoin(jobs, eq(jobs.id, syncRuns.jobId))
        .where(
          and(
            eq(syncRuns.connectionId, input.connectionId),
            eq(syncRuns.companyId, tenant.companyId),
            // a scoped member lists their own runs only (docs/teams.md "Syncs")
            ownJobs(tenant),
            q.after,
          ),
        )
        .orderBy(q.orderBy)
        .limit(q.limit),
    (r) => r.run.jobId,
  );
  return { items: page.items.map((r) => runOut(r.run, r.job)), nextCursor: page.nextCursor };
}
