import { databaseOf, type DatabaseBindings, simulatedLagOf, withSimulatedReplica } from './binding';
import { type DbSession, openSession } from './session';

/**
 * Tenant cells (docs/scaling.md section 5). Every database has the same schema; the directory
 * (`DB`) holds accounts, users, memberships, web sessions, the sign-in throttle and
 * `company_cells`, and it is also cell `cell-1`, where a company without a `company_cells` row
 * lives. `CELL_2`, `CELL_3` ... are further cells that hold only tenant rows (and the reference
 * data every cell reads). Cell names are stable (they travel in queue messages and bookmarks);
 * a binding name is `CELL_<n>` for cell `cell-<n>`.
 */
export type CellBindings = DatabaseBindings;

/** The cell in the directory database itself. */
export const HOME_CELL = 'cell-1';

/** A company's placement: its cell and whether its writes are paused for a move. */
export interface Placement {
  cell: string;
  state: 'active' | 'moving';
}

const CELL_NAME = /^cell-([1-9][0-9]?)$/;

/** Every cell bound to this Worker, `cell-1` first. */
export function cellNames(env: CellBindings): string[] {
  const names = [HOME_CELL];
  for (let n = 2; n < 100; n++) {
    if (!(env as unknown as Record<string, unknown>)[`CELL_${n}`]) break;
    names.push(`cell-${n}`);
  }
  return names;
}

/** The database of a cell; unknown names are refused (a queue message or a row naming a cell not bound). */
export function cellDatabase(env: CellBindings, cell: string): D1Database {
  const n = CELL_NAME.exec(cell)?.[1];
  if (n === '1') return databaseOf(env);
  const bindings = env as unknown as Record<string, D1Database | undefined>;
  const binding = n ? bindings[`CELL_${n}`] : undefined;
  if (!binding) throw new Error(`cell ${cell} is not bound`);
  // Tests and local trials: the cell's own simulated lagging replica (src/db/binding.ts).
  return withSimulatedReplica(binding, bindings[`CELL_${n}_REPLICA_SIM`], simulatedLagOf(env));
}

/**
 * How long an isolate trusts a placement it read. A move sets `moving` and then waits longer
 * than this before it copies (src/db/cell-move.ts), so no isolate still writes to the old cell.
 */
export const PLACEMENT_TTL_MS = 5_000;

const placements = new Map<string, { placement: Placement; until: number }>();

/**
 * The company's cell, read from the directory on the primary (a stale replica could route a
 * write to the cell a company just left) and cached per isolate for PLACEMENT_TTL_MS.
 */
export async function placementOf(env: CellBindings, companyId: string): Promise<Placement> {
  const now = Date.now();
  const cached = placements.get(companyId);
  if (cached && cached.until > now) return cached.placement;
  const row = await databaseOf(env)
    .withSession('first-primary')
    .prepare('SELECT cell, state FROM company_cells WHERE company_id = ?')
    .bind(companyId)
    .first<Placement>();
  const placement: Placement = row ?? { cell: HOME_CELL, state: 'active' };
  if (placements.size > 10_000) placements.clear();
  placements.set(companyId, { placement, until: now + PLACEMENT_TTL_MS });
  return placement;
}

/** Seconds a client (or a queued job) waits while its company moves between cells. */
export const MOVE_RETRY_AFTER_SECONDS = 30;

/** Forgets cached placements (the move job in its own isolate, and tests). */
export function forgetPlacements(): void {
  placements.clear();
}

/**
 * A bookmark on the wire names its database: `cell-2:<bookmark>`. Bookmarks of cell-1 (the
 * directory database) stay bare, as before cells, so clients and the lag suite see no change.
 */
export function wireBookmark(cell: string, bookmark: string | null): string | null {
  if (!bookmark) return null;
  return cell === HOME_CELL ? bookmark : `${cell}:${bookmark}`;
}

/**
 * The D1 bookmark of `cell` in a wire bookmark, or in a comma-separated list of them (a client
 * that works in several cells, such as the web app after a company switch, sends the newest of
 * each: `sim-..., cell-2:sim-...`); another database's bookmark means nothing here.
 */
export function bookmarkIn(cell: string, wire: string | null | undefined): string | null {
  if (!wire) return null;
  for (const one of wire.split(',')) {
    const found = oneBookmarkIn(cell, one.trim());
    if (found) return found;
  }
  return null;
}

function oneBookmarkIn(cell: string, wire: string): string | null {
  if (!wire) return null;
  const colon = wire.indexOf(':');
  const prefix = colon > 0 ? wire.slice(0, colon) : '';
  if (CELL_NAME.test(prefix)) return prefix === cell ? wire.slice(colon + 1) : null;
  return cell === HOME_CELL ? wire : null;
}

/** A session on one cell whose bookmarks travel in wire form (see `wireBookmark`). */
export interface CellSession extends DbSession {
  readonly cell: string;
}

/**
 * Opens the session of one unit of work on a cell, starting from the wire bookmark when it
 * names that cell. `primary()` stays on the cell: security reads go to the directory session.
 */
export function openCellSession(env: CellBindings, cell: string, wire?: string | null): CellSession {
  const session = openSession(cellDatabase(env, cell), bookmarkIn(cell, wire));
  return {
    cell,
    db: tagged(session.db, cell),
    primary: () => tagged(session.primary(), cell),
    bookmark: () => wireBookmark(cell, session.bookmark()),
    atLeast: (next) => session.atLeast(bookmarkIn(cell, next)),
  };
}

/** Marks a handle with its cell, so a job message sent through it names the cell (src/jobs/jobs.ts). */
function tagged<T extends { $client: unknown }>(db: T, cell: string): T {
  (db.$client as { cell?: string }).cell = cell;
  return db;
}

/** The cell a session handle was opened on (`openCellSession`), or null for any other handle. */
export function cellOfHandle(db: { $client: unknown }): string | null {
  return (db.$client as { cell?: string }).cell ?? null;
}
