import { and, eq } from 'drizzle-orm';
import { syncConnections } from '../db/schema';
import { jobMessage, markRunning, type JobRow } from '../jobs/jobs';
import { ConnectorError, cachedMappings, putTarget, withNetworkRetries } from './connector-client';
import { targetBodyOf } from './connection-shop';
import { sendPendingReset } from './target-reset';
import { countMasters } from './master-reader';
import { SIGNED_MEDIA_TTL_SECONDS } from '../media/signed-url';
import { decryptSecret } from './secret-box';
import { checkGuardrail, countDeactivations, GuardrailRefusal, runDeactivations } from './sync-deactivate';
import { recordsDone } from '../jobs/sync-progress';
import { deliverPending, SliceStopped } from './sync-deliver';
import { closeCancelledRun, finishRun, failRun } from './sync-finish';
import { runJoin } from './sync-join';
import { saveCheckpoint, type RunContext, type SyncCheckpoint, type SyncDeps, type SyncParams } from './sync-state';
import { indexMappings } from './wire-record';
import { resolveSyncChannel } from './sync-complete';

export type SliceOutcome = 'finished' | 'continued' | 'stopped';

function initialCheckpoint(params: SyncParams, now: number): SyncCheckpoint {
  return {
    seq: -1,
    phase: 'join',
    expires: Math.floor(now / 1000) + SIGNED_MEDIA_TTL_SECONDS,
    invTotal: null,
    batchNo: 0,
    pending: null,
    pimAfter: null,
    invAfter: null,
    inventoryDone: false,
    deactivateAfter: null,
    done: 0,
    counts: { created: 0, updated: 0, skipped: 0, deactivated: 0, quarantined: 0, sent: 0, retried: 0 },
    plan: params.dryRun ? { create: [], update: [], deactivate: [], truncated: false } : null,
    ...(params.scopeCategoryIds ? { subtree: { categoryIds: params.scopeCategoryIds, keptInShop: 0 } } : {}),
  };
}

/**
 * Runs one slice of a sync job (docs/sync.md "A run"): resumes from the checkpoint (first
 * resending a batch that was in flight), continues the merge-join, then the deactivations,
 * and finishes with the report. When the slice's time is up the checkpoint is saved and a
 * continuation is queued, so a run of any size keeps memory and invocation time bounded.
 */
export async function runSyncSlice(deps: SyncDeps, job: JobRow): Promise<SliceOutcome> {
  if (job.state === 'cancelled') {
    await closeCancelledRun(deps, job);
    return 'stopped';
  }
  if (job.state !== 'queued' && job.state !== 'running') return 'stopped';
  const params = job.params as SyncParams;
  const started = Date.now();
  const connection = await deps.db.query.syncConnections.findFirst({
    where: and(eq(syncConnections.id, params.connectionId), eq(syncConnections.companyId, job.companyId)),
  });
  if (!connection) throw new ConnectorError('the connection of this run was deleted');
  const secret = await decryptSecret(deps.encryptionKey, connection.id, connection.secretCiphertext);
  const target = { connectorUrl: connection.connectorUrl, keyId: connection.keyId, secret };

  let checkpoint = (job.checkpoint as SyncCheckpoint | null) ?? null;
  let mastersTotal = job.progressTotal;
  if (!checkpoint) {
    const subtree = params.scopeCategoryIds ? { companyId: job.companyId, categoryIds: params.scopeCategoryIds } : null;
    mastersTotal = await countMasters(deps.db, connection.catalogId, subtree);
    if (!(await markRunning(deps.db, job.id, mastersTotal))) return 'stopped';
    checkpoint = initialCheckpoint(params, started);
  } else if (!(await markRunning(deps.db, job.id, job.progressTotal))) {
    return 'stopped';
  }
  const channel = await resolveSyncChannel(deps.db, job.companyId, connection.options);
  if (channel === 'gone')
    throw new ConnectorError("the connection's channel no longer exists; choose another or drop onlyComplete");
  if (channel && !checkpoint.incomplete)
    checkpoint = { ...checkpoint, incomplete: { channel: channel.name, count: 0, missing: {} } };
  // The shop's settings go first (docs/shops.md "The PIM side"): the mappings and the
  // inventory are the shop's. Sent again only when they changed since the run sent them.
  // Without a shop, a reset the key still owes (its shop was removed) goes first instead.
  const shop = await targetBodyOf(deps.encryptionKey, connection);
  if (shop && checkpoint.targetVersion !== shop.version) {
    await withNetworkRetries(deps.sleep, 'PUT /target', () => putTarget(deps.fetcher, target, shop.body));
    checkpoint = { ...checkpoint, targetVersion: shop.version };
  } else if (!shop) {
    await sendPendingReset(deps, connection, target);
  }
  const { mappings, maxBatchRecords } = await cachedMappings(deps, connection, target);
  const ctx: RunContext = {
    deps,
    jobId: job.id,
    companyId: job.companyId,
    params,
    connection,
    target,
    index: indexMappings(mappings),
    cp: checkpoint,
    startedAt: started,
    channel,
    maxBatchRecords,
    mastersTotal,
  };
  if (ctx.cp.seq < 0 && !(await saveCheckpoint(ctx))) return 'stopped';

  const deadline = started + deps.sliceMs;
  try {
    await deliverPending(ctx);
    if (ctx.cp.phase === 'join') {
      if (!(await runJoin(ctx, deadline))) return await continueLater(ctx);
      const proceed = await checkGuardrail(ctx);
      // The join is over: what is left to send is known, the deactivations planned.
      const { counts } = ctx.cp;
      const toSend = recordsDone(counts) + counts.quarantined + (proceed ? await countDeactivations(ctx) : 0);
      ctx.cp = { ...ctx.cp, phase: proceed ? 'deactivate' : 'finish', toSend };
      if (!(await saveCheckpoint(ctx))) return 'stopped';
    }
    if (ctx.cp.phase === 'deactivate' && !(await runDeactivations(ctx, deadline))) return await continueLater(ctx);
    return (await finishRun(ctx)) ? 'finished' : 'stopped';
  } catch (err) {
    if (err instanceof SliceStopped) return 'stopped';
    if (err instanceof GuardrailRefusal) {
      await failRun(deps, job.id, err.message, ctx.cp);
      return 'finished';
    }
    throw err;
  }
}

async function continueLater(ctx: RunContext): Promise<SliceOutcome> {
  await ctx.deps.queue.send(jobMessage(ctx.deps.db, ctx.jobId));
  return 'continued';
}
