import { eq } from 'drizzle-orm';
import { HOME_CELL, MOVE_RETRY_AFTER_SECONDS, openCellSession, placementOf, wireBookmark } from '../db/cells';
import { jobs } from '../db/schema';
import type { Bindings, JobMessage, QueueMessage, WebhookMessage } from '../env';
import { AppError } from '../kernel/app-error';
import { EXPORTERS } from '../exports/registry';
import { failExport, runExportSlice } from '../exports/run-export';
import { failMassEdit, runMassEditSlice } from '../catalog/mass-edit-runner';
import { failImport, runImportSlice } from '../imports/run-import';
import { failReleaseLoad, runReleaseLoadSlice } from '../releases/release-load';
import { runVerifySlice } from '../releases/verify-job';
import { runUpgradeSlice } from '../releases/upgrade-job';
import { failLinkPages } from '../releases/link-pages';
import { releaseCellsOf } from '../releases/release-cells';
import { runCompletenessSlice } from '../completeness/recompute';
import { markFailed, type JobRow } from '../jobs/jobs';
import { runSyncSlice } from '../sync/run-sync';
import { failRun } from '../sync/sync-finish';
import { syncDepsFrom } from '../sync/sync-deps';
import { signedMediaUrl, SIGNED_MEDIA_TTL_SECONDS } from '../media/signed-url';
import { handleWebhookMessage } from './webhook-consumer';

/** After this many failed deliveries of one message, the job is marked failed. */
const MAX_ATTEMPTS = 3;
const DEFAULT_SLICE_MS = 20_000;

/**
 * Signed media URLs for exports that link media: on PUBLIC_BASE_URL when set, else on the origin
 * the export was started from; none without a signing key.
 */
function exportMediaUrl(env: Bindings) {
  return (origin: string | null): ((mediaId: string) => Promise<string>) | undefined => {
    const base = env.PUBLIC_BASE_URL ?? origin;
    const key = env.MEDIA_URL_KEY;
    if (!key || !base) return undefined;
    const expires = Math.floor(Date.now() / 1000) + SIGNED_MEDIA_TTL_SECONDS;
    return (mediaId) => signedMediaUrl(key, base, mediaId, expires);
  };
}

/**
 * The queue consumer: each message names a job; the job row says what to do. Known failures
 * (AppError) fail the job at once with their message; unexpected ones are retried with backoff
 * and fail the job after MAX_ATTEMPTS, with a reference instead of internals. Each message's
 * work opens its own D1 session on the message's cell from the bookmark the message carries (the
 * request that started the job, or the slice before), so it never reads older than what queued it.
 */
export async function handleJobBatch(batch: MessageBatch<QueueMessage>, env: Bindings): Promise<void> {
  for (const message of batch.messages) {
    if ('webhookDeliveryId' in message.body) await handleWebhookMessage(message as Message<WebhookMessage>, env);
    else await handleJobMessage(message as Message<JobMessage>, env);
  }
}

/**
 * The session of a message's job, on the cell the job's company lives in now. The message names
 * the cell that held the job row when it was sent; after a move the job row is in the new cell
 * (a copy), so the work goes there; while the company moves, its jobs wait (null).
 */
async function jobSession(message: Message<JobMessage>, env: Bindings) {
  const sent = message.body.cell ?? HOME_CELL;
  const session = openCellSession(env, sent, wireBookmark(sent, message.body.bookmark ?? null));
  const job = await session.db.query.jobs.findFirst({ where: eq(jobs.id, message.body.jobId) });
  if (!job) return { db: session.db, job };
  const placement = await placementOf(env, job.companyId);
  if (placement.state === 'moving') return null;
  if (placement.cell === sent) return { db: session.db, job };
  const db = openCellSession(env, placement.cell).primary();
  return { db, job: await db.query.jobs.findFirst({ where: eq(jobs.id, message.body.jobId) }) };
}

async function handleJobMessage(message: Message<JobMessage>, env: Bindings): Promise<void> {
  const found = await jobSession(message, env);
  if (!found) {
    message.retry({ delaySeconds: MOVE_RETRY_AFTER_SECONDS });
    return;
  }
  const { db } = found;
  const deps = {
    db,
    files: env.FILES,
    queue: env.JOB_QUEUE,
    exporters: EXPORTERS,
    sliceMs: Number(env.EXPORT_SLICE_MS ?? DEFAULT_SLICE_MS),
    mediaUrlFor: exportMediaUrl(env),
    // A release load writes every cell (docs/scaling.md section 5); only it reads this.
    cells: releaseCellsOf(env),
  };
  const sync = syncDepsFrom(env, db);
  /** Fails a job the way its kind needs (an export also throws away its partial upload). */
  const fail = (job: JobRow, message: string): Promise<void> => {
    if (job.kind === 'sync') return failRun(sync, job.id, message);
    if (job.kind === 'massEdit') return failMassEdit(db, job, message);
    if (job.kind === 'import') return failImport(deps, job, message);
    if (job.kind === 'releaseLoad') return failReleaseLoad(deps, job, message);
    if (job.kind === 'releaseVerify' || job.kind === 'releaseUpgrade') return failLinkPages(db, job, message);
    if (job.kind === 'completeness') return markFailed(db, job.id, message);
    return failExport(deps, job, message);
  };
  {
    const { job } = found;
    if (!job) {
      message.ack();
      return;
    }
    try {
      if (job.kind === 'export') await runExportSlice(deps, job);
      else if (job.kind === 'massEdit') await runMassEditSlice(deps, job);
      else if (job.kind === 'sync') await runSyncSlice(sync, job);
      else if (job.kind === 'import') await runImportSlice(deps, job);
      else if (job.kind === 'releaseLoad') await runReleaseLoadSlice(deps, job);
      else if (job.kind === 'releaseVerify') await runVerifySlice(deps, job);
      else if (job.kind === 'releaseUpgrade') await runUpgradeSlice(deps, job);
      else if (job.kind === 'completeness') await runCompletenessSlice(deps, job);
      else await markFailed(db, job.id, `unknown job kind ${job.kind}`);
      message.ack();
    } catch (err) {
      if (err instanceof AppError) {
        await fail(job, err.message);
        message.ack();
        return;
      }
      const reference = crypto.randomUUID();
      console.error(
        JSON.stringify({
          reference,
          jobId: job.id,
          attempt: message.attempts,
          error: String(err),
          stack: (err as Error)?.stack,
        }),
      );
      if (message.attempts >= MAX_ATTEMPTS) {
        const latest = (await db.query.jobs.findFirst({ where: eq(jobs.id, job.id) })) ?? job;
        await fail(latest, `job failed after ${MAX_ATTEMPTS} attempts (internal error, reference ${reference})`);
        message.ack();
      } else {
        message.retry({ delaySeconds: 2 ** message.attempts });
      }
    }
  }
}
