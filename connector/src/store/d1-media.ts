import { jsonChunks } from './json-chunks';
import type { MediaRow, MediaState } from './shop-store';

/** Image-state queries of the D1 store (table `media`, one row per content hash). */

export async function mediaStates(db: D1Database, hashes: string[]): Promise<Map<string, MediaState>> {
  const states = new Map<string, MediaState>();
  for (const chunk of jsonChunks(hashes)) {
    const { results } = await db
      .prepare('SELECT sha256, state, queued_at FROM media WHERE sha256 IN (SELECT value FROM json_each(?1))')
      .bind(chunk)
      .all<{ sha256: string; state: MediaState['state']; queued_at: string }>();
    for (const r of results) states.set(r.sha256, { state: r.state, queuedAt: r.queued_at });
  }
  return states;
}

export async function mediaRow(db: D1Database, sha256: string): Promise<MediaRow | null> {
  const row = await db
    .prepare(
      'SELECT sha256, state, url, content_type, file_name, attempts, last_error, queued_at FROM media WHERE sha256 = ?1',
    )
    .bind(sha256)
    .first<{
      sha256: string;
      state: MediaState['state'];
      url: string;
      content_type: string;
      file_name: string;
      attempts: number;
      last_error: string | null;
      queued_at: string;
    }>();
  if (!row) return null;
  return {
    sha256: row.sha256,
    state: row.state,
    url: row.url,
    contentType: row.content_type,
    fileName: row.file_name,
    attempts: row.attempts,
    lastError: row.last_error,
    queuedAt: row.queued_at,
  };
}

export async function markMediaStored(db: D1Database, sha256: string, size: number): Promise<void> {
  const now = new Date().toISOString();
  await db
    .prepare(
      "UPDATE media SET state = 'stored', size = ?2, last_error = NULL, stored_at = ?3, updated_at = ?3 WHERE sha256 = ?1",
    )
    .bind(sha256, size, now)
    .run();
}

/** A failed try; the queue retries the message, so the image counts as queued again now. */
export async function recordMediaAttempt(
  db: D1Database,
  sha256: string,
  attempts: number,
  error: string,
): Promise<void> {
  await db
    .prepare(
      "UPDATE media SET attempts = ?2, last_error = ?3, queued_at = ?4, updated_at = ?4 WHERE sha256 = ?1 AND state = 'pending'",
    )
    .bind(sha256, attempts, error, new Date().toISOString())
    .run();
}

/** Gives up on an image; a later batch that references the hash again re-queues it. */
export async function markMediaFailed(db: D1Database, sha256: string, error: string): Promise<void> {
  await db
    .prepare(
      "UPDATE media SET state = 'failed', last_error = ?2, updated_at = ?3 WHERE sha256 = ?1 AND state = 'pending'",
    )
    .bind(sha256, error, new Date().toISOString())
    .run();
}

/**
 * Pending images queued before `queuedBefore` (their message was lost or is long overdue):
 * stamps them queued now in the same statement, so two sweeps never claim the same rows.
 */
export async function claimStalePendingMedia(db: D1Database, queuedBefore: string, limit: number): Promise<string[]> {
  const { results } = await db
    .prepare(
      `UPDATE media SET queued_at = ?3, updated_at = ?3
       WHERE sha256 IN (SELECT sha256 FROM media WHERE state = 'pending' AND queued_at < ?1 ORDER BY queued_at LIMIT ?2)
       RETURNING sha256`,
    )
    .bind(queuedBefore, limit, new Date().toISOString())
    .all<{ sha256: string }>();
  return results.map((r) => r.sha256);
}
