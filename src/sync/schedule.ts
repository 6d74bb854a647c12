import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import type { Database } from '../db/client';
import { syncConnections } from '../db/schema';
import type { JobMessage } from '../env';
import { AppError } from '../kernel/app-error';
import { nextRunAfter } from './connections';
import { queueRun } from './start-sync';

/** Most connections started by one Cron Trigger invocation; the rest are due at the next one. */
const DUE_PAGE = 50;

/**
 * Called by the Cron Trigger (wrangler.toml `[triggers]`): queues a run for every connection
 * whose schedule is due, as the admin who last saved it. A connection with a run still going is
 * skipped and tried at the next tick. The next due time is moved first, so a crash here never
 * starts the same connection twice in a row.
 */
export async function runDueSyncs(
  deps: { db: Database; queue: Queue<JobMessage>; publicBaseUrl: string | undefined },
  now = new Date(),
): Promise<{ started: string[] }> {
  const due = await deps.db
    .select()
    .from(syncConnections)
    .where(and(isNotNull(syncConnections.nextRunAt), lte(syncConnections.nextRunAt, now.toISOString())))
    .orderBy(asc(syncConnections.nextRunAt))
    .limit(DUE_PAGE);
  const started: string[] = [];
  for (const connection of due) {
    await deps.db
      .update(syncConnections)
      .set({ nextRunAt: nextRunAfter(connection.options, now) })
      .where(eq(syncConnections.id, connection.id));
    const baseUrl = deps.publicBaseUrl ?? connection.publicBaseUrl;
    if (!baseUrl) {
      console.error(
        JSON.stringify({
          where: 'sync-schedule',
          connectionId: connection.id,
          error: 'no PUBLIC_BASE_URL and no manual run yet: media URLs cannot be made',
        }),
      );
      continue;
    }
    try {
      const { jobId } = await queueRun(deps, connection, {
        userId: connection.runAsUserId,
        dryRun: false,
        confirmDeactivations: false,
        baseUrl,
      });
      started.push(jobId);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Already running: the next tick tries again.
    }
  }
  return { started };
}
