import { dbNow } from '../kernel/clock';
import { and, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { isUniqueViolation, type Database } from '../db/client';
import { newId } from '../kernel/ids';
import { jobs, syncConnections, syncRuns, type SyncConnectionOptions } from '../db/schema';
import { assertAdmin } from '../accounts/admin-only';
import { conflict, notFound } from '../kernel/app-error';
import { assertDepartment, findCatalog } from '../db/scope';
import { encryptSecret } from './secret-box';
import { shopColumns, shopMoved, shopOut } from './connection-shop';
import { checkSyncChannel } from './sync-complete';
import type { AddConnectionInput, ConnectionOut, LastRun, UpdateConnectionInput } from './sync.schemas';
import type { Caller } from '../kernel/caller';

export type ConnectionRow = typeof syncConnections.$inferSelect;

const SCHEDULE_MS = { hourly: 3600_000, daily: 86_400_000 } as const;

/** When a scheduled connection is next due, counted from `from`; null without a schedule. */
export function nextRunAfter(options: SyncConnectionOptions, from: Date): string | null {
  return options.schedule ? new Date(from.getTime() + SCHEDULE_MS[options.schedule]).toISOString() : null;
}

/** A connection of the caller's company, optionally required to be of one department, else 404. */
export async function findConnection(
  db: Database,
  tenant: Caller,
  connectionId: string,
  departmentId?: string,
): Promise<ConnectionRow> {
  const row = await db.query.syncConnections.findFirst({
    where: and(
      eq(syncConnections.id, connectionId),
      eq(syncConnections.companyId, tenant.companyId),
      departmentId ? eq(syncConnections.departmentId, departmentId) : undefined,
    ),
  });
  if (!row) throw notFound('connection');
  return row;
}

async function lastRunOf(db: Database, connectionId: string): Promise<z.infer<typeof LastRun> | null> {
  const [row] = await db
    .select({ run: syncRuns, job: { state: jobs.state, finishedAt: jobs.finishedAt, error: jobs.error } })
    .from(syncRuns)
    .innerJoin(jobs, eq(jobs.id, syncRuns.jobId))
    .where(eq(syncRuns.connectionId, connectionId))
    .orderBy(desc(syncRuns.jobId))
    .limit(1);
  if (!row) return null;
  return runOut(row.run, row.job);
}

export function runOut(
  run: typeof syncRuns.$inferSelect,
  job: { state: (typeof jobs.$inferSelect)['state']; finishedAt: string | null; error: string | null },
) {
  return {
    jobId: run.jobId,
    state: job.state,
    dryRun: run.dryRun,
    createdAt: run.createdAt,
    finishedAt: job.finishedAt,
    error: job.error,
    report: (run.report as z.infer<typeof LastRun>['report']) ?? null,
  };
}

async function connectionOut(db: Database, row: ConnectionRow): Promise<z.infer<typeof ConnectionOut>> {
  const { missing, maxDeactivationPercent, schedule, defaultTaxCode, channelId, onlyComplete } = row.options;
  return {
    connectionId: row.id,
    departmentId: row.departmentId,
    catalogId: row.catalogId,
    name: row.name,
    connectorUrl: row.connectorUrl,
    keyId: row.keyId,
    options: {
      missing,
      maxDeactivationPercent,
      schedule,
      ...(defaultTaxCode ? { defaultTaxCode } : {}),
      ...(channelId ? { channelId } : {}),
      ...(onlyComplete ? { onlyComplete } : {}),
    },
    hasSecret: true,
    shop: shopOut(row),
    nextRunAt: row.nextRunAt,
    lastRun: await lastRunOf(db, row.id),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function duplicateName(err: unknown): never {
  if (isUniqueViolation(err, 'sync_connections.company_id, sync_connections.name'))
    throw conflict('a connection with this name already exists');
  throw err;
}

export async function addConnection(
  db: Database,
  caller: Caller,
  encryptionKey: string | undefined,
  input: AddConnectionInput,
) {
  assertAdmin(caller);
  await assertDepartment(db, caller, input.departmentId);
  await findCatalog(db, caller, input.catalogId, input.departmentId);
  await checkSyncChannel(db, caller.companyId, input.options);
  const id = newId();
  const shop = await shopColumns(encryptionKey, id, input.shop, null);
  const secretCiphertext = await encryptSecret(encryptionKey, id, input.secret);
  await db
    .insert(syncConnections)
    .values({
      id,
      companyId: caller.companyId,
      departmentId: input.departmentId,
      catalogId: input.catalogId,
      name: input.name,
      connectorUrl: input.connectorUrl,
      keyId: input.keyId,
      secretCiphertext,
      options: input.options,
      nextRunAt: nextRunAfter(input.options, new Date()),
      runAsUserId: caller.userId,
      ...shop,
    })
    .catch(duplicateName);
  return connectionOut(db, await findConnection(db, caller, id));
}

/**
 * Replaces a connection's settings. The secret stays unless a new one is given, the shop unless
 * `shop` is given (null removes it with its credentials); a changed URL, key id or shop drops
 * the cached mappings, which belonged to the old connector or shop.
 */
export async function updateConnection(
  db: Database,
  caller: Caller,
  encryptionKey: string | undefined,
  input: UpdateConnectionInput,
) {
  assertAdmin(caller);
  await assertDepartment(db, caller, input.departmentId);
  const current = await findConnection(db, caller, input.connectionId, input.departmentId);
  await findCatalog(db, caller, input.catalogId, input.departmentId);
  await checkSyncChannel(db, caller.companyId, input.options);
  const shop = await shopColumns(encryptionKey, current.id, input.shop, current);
  const sameConnector =
    current.connectorUrl === input.connectorUrl && current.keyId === input.keyId && !shopMoved(current, shop);
  const scheduleChanged = current.options.schedule !== input.options.schedule;
  await db
    .update(syncConnections)
    .set({
      catalogId: input.catalogId,
      name: input.name,
      connectorUrl: input.connectorUrl,
      keyId: input.keyId,
      options: input.options,
      runAsUserId: caller.userId,
      updatedAt: dbNow,
      ...(input.secret ? { secretCiphertext: await encryptSecret(encryptionKey, current.id, input.secret) } : {}),
      ...(scheduleChanged ? { nextRunAt: nextRunAfter(input.options, new Date()) } : {}),
      ...shop,
      ...(sameConnector
        ? {}
        : { mappings: null, mappingsEtag: null, mappingsFetchedAt: null, mappingsMaxBatchRecords: null }),
    })
    .where(and(eq(syncConnections.id, current.id), eq(syncConnections.companyId, caller.companyId)))
    .catch(duplicateName);
  return connectionOut(db, await findConnection(db, caller, current.id));
}

/** Deletes a connection; its past runs stay readable as jobs (GetJob), not through GetRuns. */
export async function deleteConnection(
  db: Database,
  caller: Caller,
  input: { departmentId: string; connectionId: string },
) {
  assertAdmin(caller);
  await assertDepartment(db, caller, input.departmentId);
  const row = await findConnection(db, caller, input.connectionId, input.departmentId);
  await db
    .delete(syncConnections)
    .where(and(eq(syncConnections.id, row.id), eq(syncConnections.companyId, caller.companyId)));
  return { connectionId: row.id, deleted: true as const };
}

/** One connection of the caller's company (404 for another company's). */
export async function getConnection(db: Database, tenant: Caller, input: { connectionId: string }) {
  return connectionOut(db, await findConnection(db, tenant, input.connectionId));
}

export async function listConnections(db: Database, tenant: Caller, input: { departmentId?: string }) {
  if (input.departmentId) await assertDepartment(db, tenant, input.departmentId);
  // A company has a handful of connections: one page, ordered by name.
  const rows = await db.query.syncConnections.findMany({
    where: and(
      eq(syncConnections.companyId, tenant.companyId),
      input.departmentId ? eq(syncConnections.departmentId, input.departmentId) : undefined,
    ),
    orderBy: (t, { asc }) => [asc(t.name)],
    limit: 200,
  });
  return { items: await Promise.all(rows.map((row) => connectionOut(db, row))) };
}
