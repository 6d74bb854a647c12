import { createTableRelationsHelpers, extractTablesRelationalConfig } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { drizzle, DrizzleD1Database, SQLiteD1Session } from 'drizzle-orm/d1';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import * as schema from './schema';

function newDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type Database = ReturnType<typeof newDb>;

/**
 * Handles already made, per D1 binding. Making one walks the whole schema for the relational
 * query config (drizzle's extractTablesRelationalConfig), which cost each request more CPU than
 * a typical query (bench:sync --profile); a handle holds nothing but the binding and that
 * config, so the isolate keeps one per binding object and a new binding gets its own.
 */
const handles = new WeakMap<D1Database, Database>();

/** The drizzle handle over one D1 binding (requests and queue batches get theirs from here). */
export function createDb(d1: D1Database): Database {
  let db = handles.get(d1);
  if (!db) {
    db = newDb(d1);
    handles.set(d1, db);
  }
  return db;
}

/** What every handle shares: the dialect and the relational config drizzle derives from the schema. */
let shared: { dialect: SQLiteAsyncDialect; config: ConstructorParameters<typeof SQLiteD1Session>[2] } | undefined;

function sharedParts() {
  if (!shared) {
    const tables = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
    shared = {
      dialect: new SQLiteAsyncDialect(),
      config: { fullSchema: schema, schema: tables.tables, tableNamesMap: tables.tableNamesMap },
    };
  }
  return shared;
}

/**
 * A typed drizzle handle over one D1 session (`withSession`). A session lives for one request
 * or job slice, so it cannot come from the per-binding cache; instead the expensive part (the
 * relational config, see `handles`) is made once per isolate and shared, and only the cheap
 * wrappers are new: 37 µs a handle against 261 µs for `drizzle()` (Node, shared machine at load 15).
 */
export function sessionDb(session: D1DatabaseSession): Database {
  const { dialect, config } = sharedParts();
  const client = session as unknown as D1Database;
  const db = new DrizzleD1Database('async', dialect, new SQLiteD1Session(client, dialect, config, {}), config);
  return Object.assign(db, { $client: client }) as Database;
}

/** D1 allows at most 100 bound parameters per statement. */
const D1_MAX_PARAMS = 100;

/** Splits rows into chunks whose multi-row INSERT stays under D1's bound-parameter limit. */
export function chunkForInsert<T>(rows: T[], columnsPerRow: number): T[][] {
  const size = Math.max(1, Math.floor(D1_MAX_PARAMS / columnsPerRow));
  const chunks: T[][] = [];
  for (let i = 0; i < rows.length; i += size) chunks.push(rows.slice(i, i + size));
  return chunks;
}

export function nowIso(): string {
  return new Date().toISOString();
}

/** One statement of a D1 batch (D1 runs a batch as one transaction). */
export type BatchStatement = BatchItem<'sqlite'>;

/** Runs statements as one transaction; a no-op for an empty list. */
export async function runBatch(db: Database, statements: BatchStatement[]) {
  if (statements.length === 0) return [];
  return db.batch(statements as [BatchStatement, ...BatchStatement[]]);
}

/** Whether a D1 error is a UNIQUE/PRIMARY KEY violation on `columns` (e.g. "products.id"). */
export function isUniqueViolation(err: unknown, columns: string): boolean {
  if (!(err instanceof Error)) return false;
  const text = `${err.message} ${String(err.cause ?? '')}`;
  return (
    text.includes(`UNIQUE constraint failed: ${columns}:`) || text.endsWith(`UNIQUE constraint failed: ${columns}`)
  );
}
