import type { Database } from '../db/client';
import type { Bindings } from '../env';
import type { SyncDeps } from './sync-state';

const DEFAULT_SLICE_MS = 20_000;

/** The sync job's dependencies from the Worker's bindings (queue consumer and Cron Trigger). */
export function syncDepsFrom(env: Bindings, db: Database): SyncDeps {
  return {
    db,
    files: env.FILES,
    queue: env.JOB_QUEUE,
    fetcher: (request) => fetch(request),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    encryptionKey: env.SYNC_ENCRYPTION_KEY,
    mediaUrlKey: env.MEDIA_URL_KEY,
    sliceMs: Number(env.SYNC_SLICE_MS ?? DEFAULT_SLICE_MS),
    ...(env.SYNC_BATCH_SIZE ? { batchSize: Number(env.SYNC_BATCH_SIZE) } : {}),
  };
}
