import { dbNow } from '../kernel/clock';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { isUniqueViolation, runBatch, type BatchStatement, type Database } from '../db/client';
import { newId } from '../kernel/ids';
import { jobs, syncConnections, syncRuns, type SyncConnectionOptions } from '../db/schema';
import { assertAdmin } from '../accounts/admin-only';
import { badRequest, conflict, notFound } from '../kernel/app-error';
import { assertDepartment, findCatalog } from '../db/scope';
import type { Fetcher } from './connector-client';
import { refusedUrlReason } from './protocol/url-guard';
import { decryptSecret, encryptSecret } from './secret-box';
import { shopColumns, shopMoved, shopOut } from './connection-shop';
import { checkSyncChannel } from './sync-complete';
import { dropReset, pendingReset, recordReset, resetNeeded, sendResetNow } from './target-reset';
import type { AddConnectionInput, ConnectionOut, LastRun, UpdateConnectionInput } from './sync.schemas';
import type { Caller } from '../kernel/caller';
import { syncProgressOf } from '../jobs/sync-progress';
import { ownJobs } from '../jobs/jobs';

export type ConnectionRow = typeof syncConnections.$inferSelect;

const SCHEDULE_MS = { hourly: 3600_000, daily: 86_400_000 } as const;

/** When a scheduled connection is next due, counted from `from`; null without a schedule. */
export function nextRunAfter(options: SyncConnectionOptions, from: Date): string | null {
  return options.schedule ? new Date(from.getTime() + SCHEDULE_MS[options.schedule]).toISOString() : null;
}

/**
 * The SSRF rule (protocol/url-guard.ts) for a connector URL the PIM is to call: stored by
 * AddConnection and UpdateConnection, or tested unsaved by TestConnection. A private, loopback,
 * link-local or internal address is a 400 naming the field, before anything is read or stored;
 * `allowPrivate` is the Worker var ALLOW_PRIVATE_TARGETS (local development and tests only).
 */
export function assertConnectorUrl(url: string, allowPrivate: boolean): void {
  const refused = refusedUrlReason(url, allowPrivate);
  if (refused) throw badRequest(`connectorUrl: ${refused}`);
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

/**
 * The job columns a run's answer reads: its state, and where it stands. Of the checkpoint only
 * the batch position and the counts are read (json_extract), not the whole (a dry run's can
 * carry thousands of SKUs); a finished run has none.
 */
export const runJobColumns = {
  state: jobs.state,
  finishedAt: jobs.finishedAt,
  error: jobs.error,
  progressDone: jobs.progressDone,
  progressTotal: jobs.progressTotal,
  batchNo: sql<number | null>`json_extract(${jobs.checkpoint}, '$.batchNo')`,
  counts: sql<string | null>`json_extract(${jobs.checkpoint}, '$.counts')`,
  toSend: sql<number | null>`json_extract(${jobs.checkpoint}, '$.toSend')`,
};

/**
 * The connection's last run; for a member who sees their own work only (a product or channel
 * scope, docs/teams.md "Syncs"), their own last run: another's report lists SKUs (quarantined,
 * a dry run's plan) of products outside their scope.
 */
async function lastRunOf(db: Database, connectionId: string, viewer?: Caller): Promise<z.infer<typeof LastRun> | null> {
  const [row] = await db
    .select({ run: syncRuns, job: runJobColumns })
    .from(syncRuns)
    .innerJoin(jobs, eq(jobs.id, syncRuns.jobId))
    .where(and(eq(syncRuns.connectionId, connectionId), viewer ? ownJobs(viewer) : undefined))
    .orderBy(desc(syncRuns.jobId))
    .limit(1);
  if (!row) return null;
  return runOut(row.run, row.job);
}

type RunJob = {
  state: (typeof jobs.$inferSelect)['state'];
  finishedAt: string | null;
  error: string | null;
  progressDone: number;
  progressTotal: number;
  batchNo: number | null;
  counts: string | null;
  toSend: number | null;
};

export function runOut(run: typeof syncRuns.$inferSelect, job: RunJob) {
  const checkpoint =
    job.batchNo === null
      ? null
      : { batchNo: job.batchNo, counts: JSON.parse(job.counts ?? '{}'), toSend: job.toSend ?? undefined };
  const shop = syncProgressOf(checkpoint, run.report);
  return {
    jobId: run.jobId,
    state: job.state,
    dryRun: run.dryRun,
    createdAt: run.createdAt,
    finishedAt: job.finishedAt,
    error: job.error,
    report: (run.report as z.infer<typeof LastRun>['report']) ?? null,
    progress: { done: job.progressDone, total: job.progressTotal, ...shop },
  };
}

async function connectionOut(
  db: Database,
  row: ConnectionRow,
  viewer?: Caller,
): Promise<z.infer<typeof ConnectionOut>> {
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
    targetResetPending: (await pendingReset(db, row)) !== null,
    nextRunAt: row.nextRunAt,
    lastRun: await lastRunOf(db, row.id, viewer),
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
  allowPrivate = false,
) {
  assertAdmin(caller);
  assertConnectorUrl(input.connectorUrl, allowPrivate);
  await assertDepartment(db, caller, input.departmentId);
  await findCatalog(db, caller, input.catalogId, input.departmentId);
  await checkSyncChannel(db, caller.companyId, input.options);
  const id = newId();
  const shop = await shopColumns(encryptionKey, id, input.shop, null);
  const secretCiphertext = await encryptSecret(encryptionKey, id, input.secret);
  const key = { companyId: caller.companyId, connectorUrl: input.connectorUrl, keyId: input.keyId };
  const insert = db.insert(syncConnections).values({
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
  });
  // A shop for a key with a pending reset replaces it: the run sends PUT /target.
  await runBatch(db, shop.shop ? [insert, dropReset(db, key)] : [insert]).catch(duplicateName);
  return connectionOut(db, await findConnection(db, caller, id));
}

/** What a write that may reset a connector's target needs besides the db (target-reset.ts). */
export interface ConnectionDeps {
  db: Database;
  encryptionKey: string | undefined;
  fetcher: Fetcher;
  /** The Worker var ALLOW_PRIVATE_TARGETS: a connector URL on a private address may be stored. */
  allowPrivate?: boolean;
}

/**
 * Replaces a connection's settings. The secret stays unless a new one is given, the shop unless
 * `shop` is given (null removes it with its credentials); a changed URL, key id or shop drops
 * the cached mappings, which belonged to the old connector or shop. Taking the shop away from
 * the connector key (shop null, another URL or key) records a reset of that key's target in the
 * same batch and sends DELETE /target right after (target-reset.ts).
 */
export async function updateConnection(deps: ConnectionDeps, caller: Caller, input: UpdateConnectionInput) {
  const { db, encryptionKey } = deps;
  assertAdmin(caller);
  assertConnectorUrl(input.connectorUrl, deps.allowPrivate ?? false);
  await assertDepartment(db, caller, input.departmentId);
  const current = await findConnection(db, caller, input.connectionId, input.departmentId);
  await findCatalog(db, caller, input.catalogId, input.departmentId);
  await checkSyncChannel(db, caller.companyId, input.options);
  const shop = await shopColumns(encryptionKey, current.id, input.shop, current);
  const sameKey = current.connectorUrl === input.connectorUrl && current.keyId === input.keyId;
  const sameConnector = sameKey && !shopMoved(current, shop);
  const scheduleChanged = current.options.schedule !== input.options.schedule;
  const shopAfter = shop.shop === undefined ? current.shop : shop.shop;
  const reset = (shopAfter === null || !sameKey) && (await resetNeeded(db, current));
  const secretCiphertext = input.secret ? await encryptSecret(encryptionKey, current.id, input.secret) : null;
  const statements: BatchStatement[] = [
    db
      .update(syncConnections)
      .set({
        catalogId: input.catalogId,
        name: input.name,
        connectorUrl: input.connectorUrl,
        keyId: input.keyId,
        options: input.options,
        runAsUserId: caller.userId,
        updatedAt: dbNow,
        ...(secretCiphertext ? { secretCiphertext } : {}),
        ...(scheduleChanged ? { nextRunAt: nextRunAfter(input.options, new Date()) } : {}),
        ...shop,
        ...(sameConnector
          ? {}
          : { mappings: null, mappingsEtag: null, mappingsFetchedAt: null, mappingsMaxBatchRecords: null }),
      })
      .where(and(eq(syncConnections.id, current.id), eq(syncConnections.companyId, caller.companyId))),
  ];
  if (reset) statements.push(recordReset(db, current));
  if (shopAfter) statements.push(dropReset(db, { ...current, connectorUrl: input.connectorUrl, keyId: input.keyId }));
  await runBatch(db, statements).catch(duplicateName);
  // The old key's secret: a new one given for the same key is what its connector holds now.
  if (reset) await resetNow(deps, current, sameKey && input.secret ? input.secret : null);
  return connectionOut(db, await findConnection(db, caller, current.id));
}

/** Sends a just-recorded reset (target-reset.ts); a secret that cannot be decrypted leaves it pending. */
async function resetNow(deps: ConnectionDeps, row: ConnectionRow, secret: string | null): Promise<boolean> {
  let known: string;
  try {
    known = secret ?? (await decryptSecret(deps.encryptionKey, row.id, row.secretCiphertext));
  } catch {
    return true;
  }
  return sendResetNow(deps, row, { connectorUrl: row.connectorUrl, keyId: row.keyId, secret: known });
}

/**
 * Deletes a connection; its past runs stay readable as jobs (GetJob), not through GetRuns. A
 * connection with a shop resets its key's target as an update removing the shop does;
 * `targetResetPending` says the connector was not reached and gets it before the key's next run.
 */
export async function deleteConnection(
  deps: ConnectionDeps,
  caller: Caller,
  input: { departmentId: string; connectionId: string },
) {
  const { db } = deps;
  assertAdmin(caller);
  await assertDepartment(db, caller, input.departmentId);
  const row = await findConnection(db, caller, input.connectionId, input.departmentId);
  const reset = await resetNeeded(db, row);
  const remove = db
    .delete(syncConnections)
    .where(and(eq(syncConnections.id, row.id), eq(syncConnections.companyId, caller.companyId)));
  await runBatch(db, reset ? [remove, recordReset(db, row)] : [remove]);
  const targetResetPending = reset ? await resetNow(deps, row, null) : (await pendingReset(db, row)) !== null;
  return { connectionId: row.id, deleted: true as const, targetResetPending };
}

/** One connection of the caller's company (404 for another company's). */
export async function getConnection(db: Database, tenant: Caller, input: { connectionId: string }) {
  return connectionOut(db, await findConnection(db, tenant, input.connectionId), tenant);
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
  return { items: await Promise.all(rows.map((row) => connectionOut(db, row, tenant))) };
}
