import { and, eq, sql } from 'drizzle-orm';
import { cellDatabase, cellNames, cellOfHandle, HOME_CELL, openCellSession, type CellBindings } from '../db/cells';
import { createDb, runBatch, type Database } from '../db/client';
import { classificationReleases } from '../db/schema';
import { conflict } from '../kernel/app-error';
import type { JobRow } from '../jobs/jobs';
import { type ReleaseCheckpoint, saveReleaseCheckpoint } from './release-checkpoint';

/**
 * The cells a release load writes (docs/scaling.md section 5, "Reference data"). Releases are
 * reference data every company classifies against and joins with its own rows, so each cell
 * holds a copy: a load runs its files into the job's own cell, then into each further cell in
 * turn, every cell all-or-nothing by the same `loading` -> `loaded` flip.
 */
export interface ReleaseCells {
  /** Every cell bound, `cell-1` first. */
  names: string[];
  /** A handle on a cell's primary (a job queued through it names the cell). */
  open(cell: string): Database;
  /** The directory: memberships, to find the administrator a verification job runs for. */
  directory(): Database;
}

/** The cells of a Worker's bindings, one primary handle per cell for the unit of work that asks. */
export function releaseCellsOf(env: CellBindings): ReleaseCells {
  const handles = new Map<string, Database>();
  const open = (cell: string) => {
    let db = handles.get(cell);
    if (!db) handles.set(cell, (db = openCellSession(env, cell).primary()));
    return db;
  };
  return { names: cellNames(env), open, directory: () => open(HOME_CELL) };
}

/** The same for scripts, whose bindings take no sessions (scripts/release-load.ts). */
export function scriptCellsOf(env: CellBindings): ReleaseCells {
  const open = (cell: string) => createDb(cellDatabase(env, cell));
  return { names: cellNames(env), open, directory: () => open(HOME_CELL) };
}

/** The cell a job's handle is on (a handle of a script: cell-1). */
export function ownCell(db: Database): string {
  return cellOfHandle(db) ?? HOME_CELL;
}

/** The cells a load writes in order: the job's own first, the others after it. */
export function cellOrder(
  db: Database,
  cells: ReleaseCells | undefined,
  cp: Pick<ReleaseCheckpoint, 'cells'>,
): string[] {
  if (cp.cells) return cp.cells;
  const own = ownCell(db);
  return [own, ...(cells?.names ?? []).filter((c) => c !== own)];
}

/** The database the current step of the load writes: the job's own, or the cell it has reached. */
export function releaseDb(db: Database, cells: ReleaseCells | undefined, cp: ReleaseCheckpoint): Database {
  const index = cp.cellIndex ?? 0;
  return index === 0 || !cells ? db : cells.open(cellOrder(db, cells, cp)[index]!);
}

/**
 * Moves the load on to the next cell that needs the release and saves that as the checkpoint
 * (phase `read` from the first file); `next` null when no cell is left. A cell that already has the
 * release loaded (by this job, or by another when `replace` is off) is skipped. The release row
 * gets the id it has in the job's own cell, so GetReleases reads alike in every cell; an id taken
 * there (two loads started in two cells at once) fails the job with a message.
 */
export async function enterNextCell(
  db: Database,
  cells: ReleaseCells,
  job: JobRow,
  cp: ReleaseCheckpoint,
  params: { system: string; version: string; format: string; replace?: boolean },
): Promise<{ next: ReleaseCheckpoint | null; skippedCells: string[] }> {
  const order = cellOrder(db, cells, cp);
  const skippedCells = [...(cp.skippedCells ?? [])];
  for (let index = (cp.cellIndex ?? 0) + 1; index < order.length; index++) {
    const target = cells.open(order[index]!);
    const rows = await target
      .select()
      .from(classificationReleases)
      .where(and(eq(classificationReleases.system, params.system), eq(classificationReleases.version, params.version)));
    const mine = rows.find((r) => r.jobId === job.id && (r.status === 'loading' || r.status === 'loaded'));
    const loaded = rows.find((r) => r.status === 'loaded');
    if (mine?.status === 'loaded' || (!mine && loaded && !params.replace)) {
      skippedCells.push(order[index]!);
      continue;
    }
    if (!mine) {
      if (rows.some((r) => r.status === 'loading'))
        throw conflict(`${params.system}-${params.version} is being loaded in ${order[index]} by another job`);
      const [taken] = await target
        .select()
        .from(classificationReleases)
        .where(eq(classificationReleases.id, cp.releaseId));
      if (taken)
        throw conflict(
          `release id ${cp.releaseId} is taken in ${order[index]} by ${taken.system}-${taken.version}: start the load again`,
        );
      await target.insert(classificationReleases).values({
        id: cp.releaseId,
        system: params.system,
        version: params.version,
        status: 'loading',
        format: params.format,
        jobId: job.id,
      });
    }
    const next: ReleaseCheckpoint = {
      ...cp,
      seq: cp.seq + 1,
      phase: 'read',
      cells: order,
      cellIndex: index,
      skippedCells,
      fileIndex: 0,
      rowsDone: 0,
      skipped: 0,
    };
    await runBatch(db, saveReleaseCheckpoint(db, job.id, cp.seq, next));
    return { next, skippedCells };
  }
  return { next: null, skippedCells };
}

/** The next release id no cell has used yet, so the release has one id in every cell. */
export async function nextReleaseId(cells: ReleaseCells): Promise<number> {
  let top = 0;
  for (const cell of cells.names) {
    const [row] = await cells
      .open(cell)
      .all<{ top: number | null }>(sql`SELECT max(id) AS top FROM classification_releases`);
    top = Math.max(top, Number(row?.top ?? 0));
  }
  return top + 1;
}
