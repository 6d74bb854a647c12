import { type SQL, sql } from 'drizzle-orm';
import { dbNow } from '../kernel/clock';
import type { BatchStatement, Database } from '../db/client';
import { jsonInsert } from '../db/json-rows';
import { newId } from '../kernel/ids';
import { historyVersions } from '../db/schema';
import type { HistoryKind, Json, Snapshot } from './snapshot';
import type { Caller } from '../kernel/caller';

/** One field-level change of a version. */
export interface Change {
  path: string;
  before: Json;
  after: Json;
}

type HistoryAction = 'create' | 'update' | 'delete' | 'restore';

/**
 * Where a product or variant lies, recorded with each of its versions (`catalog_id`,
 * `master_id`, migration 0088): its catalog and its master (its own id for a master, the parent
 * for a variant; `ElementRef` carries both). A member with a catalog or category scope is
 * shown a product that is gone only by what its history recorded (db/product-scope.ts
 * `goneProductInScopeSql`), so every product or variant version needs it.
 */
export interface ProductPlace {
  catalogId: string;
  masterId: string | null;
}

/** The place of a product row (a master's own id is its master). */
export const placeOf = (row: { id: string; catalogId: string; parentId: string | null }): ProductPlace => ({
  catalogId: row.catalogId,
  masterId: row.parentId ?? row.id,
});

interface EntryOf<K extends HistoryKind> {
  elementId: string;
  kind: K;
  /** The element before the write; null when the write creates it. */
  before: Snapshot | null;
  /** The element after the write; null when the write deletes it. */
  after: Snapshot | null;
  /** Defaults to create / delete / update from which side is null. */
  action?: HistoryAction;
}

/**
 * One element's change, as a write (or a job, per product) hands it to the history. A product's
 * or variant's must say where it lies (`place`): the type asks for it, and `historyStatements`
 * refuses an entry without it.
 */
export type HistoryEntry =
  | (EntryOf<'product' | 'variant'> & { place: ProductPlace })
  | (EntryOf<'catalog' | 'category' | 'template'> & { place?: ProductPlace });

const PRODUCT_KINDS: readonly HistoryKind[] = ['product', 'variant'];

/** The recorded place of a version: the entry's for a product or variant (required), none for anything else. */
function placeColumns(kind: HistoryKind, place: ProductPlace | undefined) {
  if (!PRODUCT_KINDS.includes(kind)) return { catalogId: null, masterId: null };
  if (!place?.catalogId || !place.masterId) throw new Error(`history: a ${kind} version needs its catalog and master`);
  return { catalogId: place.catalogId, masterId: place.masterId };
}

/** JSON writes NaN and ±Infinity as null: such a number equals null in a stored diff. */
const writtenAsNull = (v: Json) => v === null || (typeof v === 'number' && !Number.isFinite(v));

const isPlainContainer = (v: Json) => {
  if (Array.isArray(v)) return true;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * Whether two values are the same as stored (their JSON). Scalars compare without
 * serialising (two scalars' JSON is equal only if they are, or both are written as null), and
 * an array or plain object against null differs (its JSON is never `null`): a created
 * product's diff is all `null → value`, and every value of it was serialised here and again
 * for the stored row (docs/benchmarks.md, "Import throughput, part 8").
 */
function same(a: Json, b: Json): boolean {
  if (a === b) return true;
  const aScalar = a === null || typeof a !== 'object';
  const bScalar = b === null || typeof b !== 'object';
  if (aScalar && bScalar) return writtenAsNull(a) && writtenAsNull(b);
  if ((a === null && isPlainContainer(b)) || (b === null && isPlainContainer(a))) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The field-level diff, sorted by path; a path missing on one side counts as null. */
export function diffSnapshots(before: Snapshot | null, after: Snapshot | null): Change[] {
  const b = before ?? {};
  const a = after ?? {};
  const paths = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
  const changes: Change[] = [];
  for (const path of paths) {
    const was = b[path] ?? null;
    const now = a[path] ?? null;
    if (!same(was, now)) changes.push({ path, before: was, after: now });
  }
  return changes;
}

/** Stored form: `[[path, before, after], ...]` (about half the bytes of objects). */
function encodeChanges(changes: Change[]): string {
  return JSON.stringify(changes.map((c) => [c.path, c.before, c.after]));
}

export function decodeChanges(text: string): Change[] {
  return (JSON.parse(text) as [string, Json, Json][]).map(([path, before, after]) => ({ path, before, after }));
}

/**
 * THE history helper: the INSERT statements that record `entries` as versions by `actor`. Put
 * them in the same `db.batch` as the change itself, so a failed write records nothing and a
 * successful one is never missing. Entries without any change are skipped (no statement), so
 * a write that changes nothing leaves no version. Rows go as one JSON parameter per statement
 * (db/json-rows.ts), so a job's batch of hundreds of entries is one statement; the time is the database clock (`at` column default). Jobs call it with one
 * entry per product per job. Returns the statements and the new versionId per element.
 */
export function historyStatements(
  db: Database,
  actor: Caller,
  entries: HistoryEntry[],
): { statements: BatchStatement[]; versionIds: Map<string, string> } {
  if (!actor.userId || !actor.surface) throw new Error('history: a write needs an actor with userId and surface');
  const rows = [];
  const versionIds = new Map<string, string>();
  for (const entry of entries) {
    const changes = diffSnapshots(entry.before, entry.after);
    if (changes.length === 0) continue;
    const id = newId();
    versionIds.set(entry.elementId, id);
    rows.push({
      id,
      companyId: actor.companyId,
      elementId: entry.elementId,
      elementKind: entry.kind,
      action: entry.action ?? (entry.before === null ? 'create' : entry.after === null ? 'delete' : 'update'),
      userId: actor.userId,
      surface: actor.surface,
      clientName: actor.clientName ?? null,
      jobId: actor.jobId ?? null,
      changes: encodeChanges(changes),
      ...placeColumns(entry.kind, entry.place),
    });
  }
  return { statements: jsonInsert(db, historyVersions, rows), versionIds };
}

/** `historyStatements` for one element. */
export function historyStatement(db: Database, actor: Caller, entry: HistoryEntry): BatchStatement[] {
  return historyStatements(db, actor, [entry]).statements;
}

/**
 * The version of a single-path write whose `before` is read by SQL inside the write's own batch
 * (put it before the write): `currentSql` is the value at `path` as stored, `after` what the
 * write stores. Nothing is recorded when they are equal or `exists` (the element) is false.
 * SetValue uses it when racing writers keep moving the state it planned from (docs/history.md,
 * "Concurrency"): the before is then exact by construction instead of by a guard. `keptUnit`:
 * the unit path of a feature value kept as text (model/class-version.ts featureSnapshot), its
 * `currentSql` null where there is none; the write leaves none, so a unit there is a change too.
 */
export function pathVersionStatement(
  db: Database,
  actor: Caller,
  entry: {
    elementId: string;
    kind: HistoryKind;
    place: ProductPlace | undefined;
    path: string;
    currentSql: SQL;
    after: Json;
    exists: SQL;
    keptUnit?: { path: string; currentSql: SQL };
  },
): BatchStatement {
  if (!actor.userId || !actor.surface) throw new Error('history: a write needs an actor with userId and surface');
  const place = placeColumns(entry.kind, entry.place);
  // Read from its JSON text, an integer stays an integer (a bound JS number may arrive as REAL).
  const after = sql`json_extract(${JSON.stringify(entry.after ?? null)}, '$')`;
  const head = sql`SELECT ${newId()}, ${actor.companyId}, ${entry.elementId}, ${entry.kind}, 'update', ${actor.userId},
      ${actor.surface}, ${actor.clientName ?? null}, ${actor.jobId ?? null}`;
  const kept = entry.keptUnit;
  if (!kept)
    return db.insert(historyVersions).select(
      sql`${head}, json_array(json_array(${entry.path}, cur, ${after})), ${dbNow}, ${place.catalogId}, ${place.masterId}
      FROM (SELECT ${entry.currentSql} AS cur) WHERE cur IS NOT ${after} AND ${entry.exists}`,
    );
  // Each path only where it changes, in the order a diff lists them (the value, then its unit).
  return db.insert(historyVersions).select(
    sql`${head}, CASE
        WHEN cur IS NOT ${after} AND unit IS NOT NULL
          THEN json_array(json_array(${entry.path}, cur, ${after}), json_array(${kept.path}, unit, NULL))
        WHEN cur IS NOT ${after} THEN json_array(json_array(${entry.path}, cur, ${after}))
        ELSE json_array(json_array(${kept.path}, unit, NULL)) END,
      ${dbNow}, ${place.catalogId}, ${place.masterId}
      FROM (SELECT ${entry.currentSql} AS cur, ${kept.currentSql} AS unit)
      WHERE (cur IS NOT ${after} OR unit IS NOT NULL) AND ${entry.exists}`,
  );
}
