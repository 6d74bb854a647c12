import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { badRequest } from '../kernel/app-error';

/**
 * Connection option `onlyComplete` (docs/completeness.md, docs/sync.md): a run sends only the
 * masters complete for the connection's channel in every language the channel publishes (the
 * shop receives every translation). An incomplete master is neither created nor updated, and
 * one the shop already has is left as it is there (not deactivated: a field cleared for a
 * moment must not take a product off the shop); the report counts them and what they lack.
 */
export interface SyncChannel {
  channelKey: number;
  name: string;
}

/** Most distinct missing labels a run tallies (the checkpoint stays small whatever the data). */
export const MISSING_TALLY_CAP = 200;

const channelOf = (db: Database, companyId: string, channelId: string) =>
  db.all<{ id: number; name: string }>(
    sql`SELECT id, name FROM channels WHERE channel_id = ${channelId} AND company_id = ${companyId}`,
  );

/** AddConnection/UpdateConnection: 400 naming `options.onlyComplete` without a channel, `options.channelId` for one not of the company. */
export async function checkSyncChannel(
  db: Database,
  companyId: string,
  options: { channelId?: string; onlyComplete?: boolean },
): Promise<void> {
  if (options.onlyComplete && !options.channelId)
    throw badRequest('options.onlyComplete: name the channel whose requirements decide (options.channelId)');
  if (options.channelId && (await channelOf(db, companyId, options.channelId)).length === 0)
    throw badRequest(`options.channelId: ${options.channelId} is not a channel of your company`);
}

/** The channel a run filters by: null without onlyComplete, 'gone' when the channel was deleted since. */
export async function resolveSyncChannel(
  db: Database,
  companyId: string,
  options: { channelId?: string; onlyComplete?: boolean },
): Promise<SyncChannel | null | 'gone'> {
  if (!options.onlyComplete) return null;
  const [row] = await channelOf(db, companyId, options.channelId ?? '');
  return row ? { channelKey: row.id, name: row.name } : 'gone';
}

/**
 * The master reader's column `missing` for `channel`: the labels the master lacks as
 * `label (lang)` joined by tabs, or null when complete (one probe of the score's primary key per
 * language of the channel).
 */
export function missingColumn(channel: SyncChannel | null) {
  if (!channel) return sql`NULL`;
  return sql`(SELECT group_concat(j.value || ' (' || cs.lang || ')', char(9)) FROM completeness cs, json_each(cs.missing) j
    WHERE cs.product_key = products.rowid AND cs.channel_key = ${channel.channelKey} AND cs.score < 100)`;
}

/** Adds counts per label to a tally in place; labels beyond MISSING_TALLY_CAP distinct ones are dropped. */
export function addToTally(tally: Record<string, number>, counts: Iterable<[string, number]>): void {
  let size = Object.keys(tally).length;
  for (const [label, n] of counts) {
    if (!(label in tally)) {
      if (size >= MISSING_TALLY_CAP) continue;
      size++;
    }
    tally[label] = (tally[label] ?? 0) + n;
  }
}

/** One left-out master's `missing` column as tally counts. */
export const labelsOf = (missing: string): [string, number][] => missing.split('\t').map((label) => [label, 1]);
