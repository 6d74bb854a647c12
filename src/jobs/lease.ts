import { dbNow } from '../kernel/clock';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobs } from '../db/schema';

/**
 * The job lease (docs/reliability.md): every queued or running job carries a heartbeat that
 * its worker renews with each slice and checkpoint. A heartbeat older than the stale window
 * means the worker died (or its queue message was lost) and the recovery sweep takes over.
 */

/** A running job renews its heartbeat at least once per slice (20 s by default): 2 minutes without one is a dead worker. */
export const DEFAULT_STALE_MS = 120_000;

/** Restarts without the checkpoint advancing before the sweep gives up and fails the job. */
export const MAX_JOB_ATTEMPTS = 5;

/** Columns to spread into any update of an active job: the update is also a sign of life. */
export const heartbeat = () => ({ heartbeatAt: dbNow });

/**
 * Columns to spread into an update that saves a newer checkpoint: progress was made, so the
 * restarts counted so far were not a crash loop.
 */
export const progressed = () => ({ heartbeatAt: dbNow, attempts: 0 });

/** The stale window from the environment (`JOB_STALE_MS`), e.g. shortened by the e2e test. */
export function staleMsFrom(env: { JOB_STALE_MS?: string }): number {
  const value = Number(env.JOB_STALE_MS);
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_STALE_MS;
}
