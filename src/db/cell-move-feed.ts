/**
 * The changes feed across a cell move (src/db/cell-move.ts, docs/changes-feed.md "Cursor"). The
 * feed's sequence is the cell's own (`change_feed.seq`, shared by every company of the cell), so
 * the target numbers the company's feed anew; what must survive is its order and its rows' ids,
 * by which a cursor issued before the move is resumed (src/history/feed-cursor.ts). So the
 * history versions and the review / completeness events are copied together in the source's feed
 * order, not table by table in key order: the target's triggers (migrations 0052, 0069) give each
 * its feed row in that order. A feed row whose version or event was pruned by retention stays
 * behind in the source, so it is written in the target too (the feed skips it, a cursor at it
 * still resumes after it).
 */

/** Feed rows per page (one target batch of single-row inserts each). */
const PAGE = 100;

type Row = Record<string, unknown>;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function columnsOf(d1: D1Database, table: string): Promise<string[]> {
  const info = await d1
    .prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid')
    .bind(table)
    .all<{ name: string }>();
  return info.results.map((c) => c.name);
}

async function rowsById(d1: D1Database, table: string, ids: string[]): Promise<Map<string, Row>> {
  if (ids.length === 0) return new Map();
  const found = await d1
    .prepare(`SELECT * FROM ${quote(table)} WHERE id IN (SELECT value FROM json_each(?))`)
    .bind(JSON.stringify(ids))
    .all<Row>();
  return new Map(found.results.map((r) => [String(r.id), r]));
}

/**
 * Copies the company's history versions and events in the source's feed order; answers the rows
 * copied per table. The target must hold no feed row of the company (deleteFeedRows first).
 */
export async function copyFeedInOrder(
  source: D1Database,
  target: D1Database,
  companyId: string,
): Promise<{ history_versions: number; domain_events: number }> {
  const tables = ['history_versions', 'domain_events'] as const;
  const columns = {
    history_versions: await columnsOf(source, tables[0]),
    domain_events: await columnsOf(source, tables[1]),
  };
  const insert = Object.fromEntries(
    tables.map((t) => [
      t,
      `INSERT INTO ${quote(t)} (${columns[t].map(quote).join(', ')}) VALUES (${columns[t].map(() => '?').join(', ')})`,
    ]),
  ) as Record<(typeof tables)[number], string>;
  const copied = { history_versions: 0, domain_events: 0 };
  let after = 0;
  for (;;) {
    const page = await source
      .prepare('SELECT seq, version_id FROM change_feed WHERE company_id = ? AND seq > ? ORDER BY seq LIMIT ?')
      .bind(companyId, after, PAGE)
      .all<{ seq: number; version_id: string }>();
    if (page.results.length === 0) return copied;
    const ids = page.results.map((r) => r.version_id);
    const versions = await rowsById(source, 'history_versions', ids);
    const events = await rowsById(source, 'domain_events', ids);
    const statements = page.results.map(({ version_id: id }) => {
      const version = versions.get(id);
      const event = events.get(id);
      if (version) {
        copied.history_versions++;
        return target.prepare(insert.history_versions).bind(...columns.history_versions.map((c) => version[c]));
      }
      if (event) {
        copied.domain_events++;
        return target.prepare(insert.domain_events).bind(...columns.domain_events.map((c) => event[c]));
      }
      // pruned: the feed row alone, as the source keeps it
      return target.prepare('INSERT INTO change_feed (company_id, version_id) VALUES (?, ?)').bind(companyId, id);
    });
    await target.batch(statements);
    after = page.results.at(-1)!.seq;
  }
}

/** Fails the move unless the target's feed of the company lists the same ids in the same order. */
export async function verifyFeedOrder(source: D1Database, target: D1Database, companyId: string): Promise<number> {
  const query = 'SELECT seq, version_id FROM change_feed WHERE company_id = ? AND seq > ? ORDER BY seq LIMIT 1000';
  let [afterSource, afterTarget, verified] = [0, 0, 0];
  for (;;) {
    const a = (await source.prepare(query).bind(companyId, afterSource).all<{ seq: number; version_id: string }>())
      .results;
    const b = (await target.prepare(query).bind(companyId, afterTarget).all<{ seq: number; version_id: string }>())
      .results;
    if (JSON.stringify(a.map((r) => r.version_id)) !== JSON.stringify(b.map((r) => r.version_id)))
      throw new Error('move verification failed: the changes feed differs in order');
    if (a.length === 0) return verified;
    verified += a.length;
    [afterSource, afterTarget] = [a.at(-1)!.seq, b.at(-1)!.seq];
  }
}

/**
 * Deletes the company's feed rows from a cell, in chunks: the old cell's after the switch (a
 * company moved back would otherwise meet its old rows in the unique change_feed_version_idx),
 * the target's when a copy is abandoned.
 */
export async function deleteFeedRows(d1: D1Database, companyId: string): Promise<number> {
  const counted = await d1
    .prepare('SELECT count(*) AS n FROM change_feed WHERE company_id = ?')
    .bind(companyId)
    .first<{ n: number }>();
  for (;;) {
    const result = await d1
      .prepare('DELETE FROM change_feed WHERE seq IN (SELECT seq FROM change_feed WHERE company_id = ? LIMIT 500)')
      .bind(companyId)
      .run();
    if (result.meta.changes === 0) break;
  }
  return counted?.n ?? 0;
}
