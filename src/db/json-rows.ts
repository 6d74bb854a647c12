import { getTableColumns, getTableName, is, SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { BatchStatement, Database } from './client';

/**
 * Rows per statement are bounded by the JSON text bound to it, not by D1's 100 bound
 * parameters: the whole row list is ONE parameter. D1 allows strings of up to 2 MB; a
 * statement of about 256 KB keeps every value far below that and a batch's memory small.
 */
const MAX_JSON_BYTES = 256 * 1024;

/**
 * Splits rows into lists whose JSON stays under MAX_JSON_BYTES (a single row may exceed it
 * alone). The rows are serialised as one array and split only when that is too long: one
 * native JSON.stringify over a batch's rows instead of one call per row and a join, which
 * was 3 % of a BMEcat import's Worker profile (docs/benchmarks.md "Import throughput"). A
 * too-long list is cut into parts of equal row counts, each checked again, so rows of very
 * different sizes still end up under the bound.
 */
export function chunkByJsonSize(rows: unknown[][]): string[] {
  if (rows.length === 0) return [];
  const json = JSON.stringify(rows);
  if (json.length <= MAX_JSON_BYTES || rows.length === 1) return [json];
  // A tenth more parts than the length asks for, so uneven rows rarely need a second cut.
  const parts = Math.min(rows.length, Math.ceil((json.length * 1.1) / MAX_JSON_BYTES));
  const size = Math.ceil(rows.length / parts);
  const out: string[] = [];
  for (let at = 0; at < rows.length; at += size) out.push(...chunkByJsonSize(rows.slice(at, at + size)));
  return out;
}

/** `json_each(?)` over a list of values: an `IN (...)` of any length with one bound parameter. */
export function jsonList(values: readonly (string | number)[]): SQL {
  return sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;
}

/** What a column a row leaves out takes: its SQL or literal default, else NULL (as drizzle's own insert does). */
function defaultOf(column: SQLiteColumn): SQL {
  if (column.default !== undefined && column.default !== null)
    return is(column.default, SQL) ? sql`(${column.default})` : sql`${sql.param(column.default, column)}`;
  if (column.defaultFn) {
    const value = column.defaultFn();
    return is(value, SQL) ? value : sql`${sql.param(value, column)}`;
  }
  return sql`NULL`;
}

/**
 * Multi-row INSERTs that carry their rows as one JSON parameter
 * (`INSERT INTO t (...) SELECT json_extract(value, '$[0]'), ... FROM json_each(?)`): hundreds
 * of rows in one statement where bound parameters would allow `100 / columns` (fewer still:
 * drizzle also binds every literal column default), so a batch of products is a handful of
 * statements whatever its size. D1's cost grows with statements, and drizzle's per-value query
 * building was the largest single item of an import's profile. Rows are grouped by the
 * columns they set; a column a row leaves out takes its default. Values go in as JSON, so only
 * strings, numbers, booleans and null (no `mode: 'json'` columns; checked).
 */
export function jsonInsert<T extends SQLiteTable, R extends object = Partial<T['$inferInsert']>>(
  db: Database,
  table: T,
  rows: R[],
  options: {
    orIgnore?: boolean;
    /** Per column, the SQL that turns the row's JSON value into the stored one (e.g. a key lookup). */
    columnSql?: Partial<Record<keyof T['$inferInsert'] & string, (value: SQL) => SQL>>;
  } = {},
): BatchStatement[] {
  if (rows.length === 0) return [];
  const columns = getTableColumns(table) as Record<string, SQLiteColumn>;
  for (const [key, column] of Object.entries(columns))
    if (column.columnType === 'SQLiteTextJson' || column.columnType === 'SQLiteBlobJson')
      throw new Error(`jsonInsert: ${getTableName(table)}.${key} is a JSON-mode column`);
  const groups = new Map<string, unknown[][]>();
  // Rows of one call nearly always set the same columns: the previous row's group is tried
  // first, and a signature's columns are checked once, when it is first seen.
  let lastSignature: string | null = null;
  let lastList: unknown[][] = [];
  for (const row of rows) {
    const record = row as Record<string, unknown>;
    const keys: string[] = [];
    for (const k of Object.keys(record)) if (record[k] !== undefined) keys.push(k);
    const signature = keys.join(',');
    let list = signature === lastSignature ? lastList : groups.get(signature);
    if (!list) {
      for (const k of keys) if (!columns[k]) throw new Error(`jsonInsert: ${getTableName(table)} has no column ${k}`);
      groups.set(signature, (list = []));
    }
    lastSignature = signature;
    lastList = list;
    const values: unknown[] = [];
    for (const k of keys) values.push(record[k] ?? null);
    list.push(values);
  }
  const statements: BatchStatement[] = [];
  for (const [signature, values] of groups) {
    const keys = signature.split(',');
    // drizzle's INSERT ... SELECT names every column in table order: pick each from the JSON row or its default.
    const picks = Object.entries(columns).map(([key, column]) => {
      const at = keys.indexOf(key);
      if (at < 0) return defaultOf(column);
      const value = sql.raw(`json_extract(value, '$[${at}]')`);
      const map = (options.columnSql as Record<string, ((value: SQL) => SQL) | undefined> | undefined)?.[key];
      return map ? map(value) : value;
    });
    for (const json of chunkByJsonSize(values)) {
      // `WHERE true` keeps SQLite from reading ON CONFLICT as a join constraint.
      const insert = db
        .insert(table)
        .select(sql`SELECT ${sql.join(picks, sql`, `)} FROM json_each(${json}) WHERE true`);
      statements.push(options.orIgnore ? insert.onConflictDoNothing() : insert);
    }
  }
  return statements;
}
