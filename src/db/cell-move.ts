import { type CellBindings, cellDatabase, forgetPlacements, HOME_CELL, PLACEMENT_TTL_MS, placementOf } from './cells';
import { databaseOf } from './binding';
import { COPY_PLAN, type CopyStep } from './cell-move-plan';
import { copyFeedInOrder, deleteFeedRows, verifyFeedOrder } from './cell-move-feed';

/** Rows per keyset page (one batch of single-row inserts each: well under D1's limits). */
const PAGE = 100;

export interface MoveReport {
  companyId: string;
  from: string;
  to: string;
  /** Rows copied per table (the same count was verified in the target). */
  copied: Record<string, number>;
  /** Master and variant products whose id, revision and fingerprint were compared. */
  productsVerified: number;
  /** Rows deleted from the old cell per table. */
  deleted: Record<string, number>;
}

/**
 * Moves a company to another cell (docs/scaling.md section 5), as an operator runs it
 * (`npm run cells:move`): pause its writes (`moving`: requests get 503 + Retry-After, its jobs
 * wait), wait until every isolate has seen that, copy every tenant table's rows of the company in
 * keyset pages (COPY_PLAN; derived tables are rebuilt by the target's triggers), verify per-table
 * counts and every product's id, revision and fingerprint, switch `company_cells` to the target
 * and resume, wait again (readers that still route to the old cell), then delete the old rows.
 * A failure before the switch leaves the company in its old cell, writes resumed, and the partial
 * copy removed from the target.
 */
export async function moveCompany(
  env: CellBindings,
  companyId: string,
  to: string,
  options: { settleMs?: number } = {},
): Promise<MoveReport> {
  const settleMs = options.settleMs ?? PLACEMENT_TTL_MS + 1000;
  const directory = databaseOf(env);
  const known = await directory.prepare('SELECT 1 AS x FROM companies WHERE id = ?').bind(companyId).first();
  if (!known) throw new Error(`company ${companyId} not found`);
  forgetPlacements();
  const { cell: from } = await placementOf(env, companyId);
  if (from === to) throw new Error(`company ${companyId} is in ${to} already`);
  const source = cellDatabase(env, from);
  const target = cellDatabase(env, to);
  await setPlacement(directory, companyId, from, 'moving');
  await sleep(settleMs);
  const report: MoveReport = { companyId, from, to, copied: {}, productsVerified: 0, deleted: {} };
  try {
    // feed rows left in the target by an earlier stay would collide with the copied ones
    await deleteFeedRows(target, companyId);
    for (const step of COPY_PLAN) {
      if (!step.feed) report.copied[step.table] = await copyTable(source, target, step, companyId);
      else if (!(step.table in report.copied))
        Object.assign(report.copied, await copyFeedInOrder(source, target, companyId));
    }
    if (to !== HOME_CELL) await copyMemberNames(directory, target, companyId);
    for (const step of COPY_PLAN) await verifyCount(source, target, step, companyId);
    report.productsVerified = await verifyProducts(source, target, companyId);
    await verifyFeedOrder(source, target, companyId);
  } catch (err) {
    // The copy is abandoned: the target keeps nothing of it, the company stays where it was.
    await deleteRows(target, companyId, to === HOME_CELL);
    await deleteFeedRows(target, companyId);
    await setPlacement(directory, companyId, from, 'active');
    forgetPlacements();
    throw err;
  }
  await setPlacement(directory, companyId, to, 'active');
  forgetPlacements();
  await sleep(settleMs);
  report.deleted = await deleteRows(source, companyId, from === HOME_CELL);
  report.deleted.change_feed = await deleteFeedRows(source, companyId);
  return report;
}

async function setPlacement(directory: D1Database, companyId: string, cell: string, state: 'active' | 'moving') {
  await directory
    .prepare(
      `INSERT INTO company_cells (company_id, cell, state) VALUES (?, ?, ?)
       ON CONFLICT (company_id) DO UPDATE SET cell = excluded.cell, state = excluded.state,
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(companyId, cell, state)
    .run();
}

/** The names history and import views show, without any credential (as src/db/cell-placement.ts). */
async function copyMemberNames(directory: D1Database, target: D1Database, companyId: string) {
  const members = await directory
    .prepare(
      'SELECT id, email, name, created_at FROM users WHERE id IN (SELECT user_id FROM memberships WHERE company_id = ?)',
    )
    .bind(companyId)
    .all<{ id: string; email: string; name: string; created_at: string }>();
  const insert = target.prepare(
    `INSERT OR IGNORE INTO users (id, email, name, password_hash, password_salt, security_stamp, created_at)
     VALUES (?, ?, ?, '', '', '', ?)`,
  );
  if (members.results.length === 0) return;
  await target.batch(members.results.map((u) => insert.bind(u.id, u.email, u.name, u.created_at)));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The primary key columns of a table (rowid tables without a declared key page by rowid). */
async function keyOf(d1: D1Database, table: string): Promise<{ key: string[]; columns: string[] }> {
  const info = await d1
    .prepare('SELECT name, pk FROM pragma_table_info(?) ORDER BY cid')
    .bind(table)
    .all<{ name: string; pk: number }>();
  const columns = info.results.map((c) => c.name);
  const key = info.results
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
  return { key, columns };
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Copies the company's rows of one table in keyset pages; returns how many. */
async function copyTable(source: D1Database, target: D1Database, step: CopyStep, companyId: string): Promise<number> {
  const { key, columns } = await keyOf(source, step.table);
  const written = columns.filter((c) => !step.omit?.includes(c));
  const keyList = key.map(quote).join(', ');
  const remap = step.remap ? await step.remap(source, target, companyId) : undefined;
  const insert = `INSERT INTO ${quote(step.table)} (${written.map(quote).join(', ')}) VALUES (${written.map(() => '?').join(', ')})${
    step.upsert
      ? ` ON CONFLICT DO UPDATE SET ${written.map((c) => `${quote(c)} = excluded.${quote(c)}`).join(', ')}`
      : ''
  }`;
  let after: unknown[] | null = null;
  let copied = 0;
  for (;;) {
    const keyset: string = after ? ` AND (${keyList}) > (${key.map(() => '?').join(', ')})` : '';
    const page: D1Result<Record<string, unknown>> = await source
      .prepare(`SELECT * FROM ${quote(step.table)} WHERE ${step.where}${keyset} ORDER BY ${keyList} LIMIT ${PAGE}`)
      .bind(...step.bind(companyId), ...(after ?? []))
      .all<Record<string, unknown>>();
    if (page.results.length === 0) return copied;
    const statements = page.results.map((row: Record<string, unknown>) => {
      const values = written.map((c) => (step.set && c in step.set ? step.set[c] : row[c]));
      return target.prepare(insert).bind(...(remap ? remap(written, values) : values));
    });
    await target.batch(statements);
    copied += page.results.length;
    const last: Record<string, unknown> = page.results.at(-1)!;
    after = key.map((c): unknown => last[c]);
  }
}

async function countOf(d1: D1Database, step: CopyStep, companyId: string): Promise<number> {
  const row = await d1
    .prepare(`SELECT count(*) AS n FROM ${quote(step.table)} WHERE ${step.where}`)
    .bind(...step.bind(companyId))
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function verifyCount(source: D1Database, target: D1Database, step: CopyStep, companyId: string) {
  const [before, after] = [await countOf(source, step, companyId), await countOf(target, step, companyId)];
  if (before !== after)
    throw new Error(`move verification failed: ${step.table} has ${after} rows, expected ${before}`);
}

/** Compares every product's id, revision and fingerprint, page by page; returns how many. */
async function verifyProducts(source: D1Database, target: D1Database, companyId: string): Promise<number> {
  const query =
    'SELECT id, revision, fingerprint, fingerprint_revision AS fr FROM products WHERE company_id = ? AND id > ? ORDER BY id LIMIT 500';
  let after = '';
  let verified = 0;
  for (;;) {
    const [a, b] = await Promise.all(
      [source, target].map((d1) => d1.prepare(query).bind(companyId, after).all<Record<string, unknown>>()),
    );
    if (JSON.stringify(a!.results) !== JSON.stringify(b!.results)) {
      throw new Error('move verification failed: product fingerprints differ');
    }
    if (a!.results.length === 0) return verified;
    verified += a!.results.length;
    after = String(a!.results.at(-1)!.id);
  }
}

/**
 * Deletes the company's rows from a cell, children first, in chunks. In cell-1 (the directory)
 * the company, its departments and users stay: sign-in, sessions and memberships need them.
 */
async function deleteRows(d1: D1Database, companyId: string, home: boolean): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const step of [...COPY_PLAN].reverse()) {
    if (home && step.identity) continue;
    const { key } = await keyOf(d1, step.table);
    const keyList = key.map(quote).join(', ');
    // Counted first: D1's `changes` also counts the rows the tables' triggers touch.
    deleted[step.table] = await countOf(d1, step, companyId);
    for (;;) {
      const result = await d1
        .prepare(
          `DELETE FROM ${quote(step.table)} WHERE (${keyList}) IN (SELECT ${keyList} FROM ${quote(step.table)} WHERE ${step.where} LIMIT 500)`,
        )
        .bind(...step.bind(companyId))
        .run();
      if (result.meta.changes === 0) break;
    }
  }
  return deleted;
}
