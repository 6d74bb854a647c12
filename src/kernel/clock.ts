import { type SQL, sql } from 'drizzle-orm';

/**
 * The one clock for row timestamps: the database's, as an ISO-8601 UTC string with
 * milliseconds (`2026-11-25T05:38:12.123Z`), the same text `Date#toISOString` gives, so
 * `created_at` / `updated_at` sort and compare as strings (keyset cursors on `updated_at`).
 * Every column default, `updatedAt`, `finishedAt` and heartbeat takes its time from here, so
 * two Workers with skewed clocks cannot write timestamps out of order.
 */
export const dbNow = sql<string>`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** The database clock moved by a SQLite modifier such as `-24 months`. */
export const dbNowShifted = (modifier: string | SQL) => sql<string>`(strftime('%Y-%m-%dT%H:%M:%fZ','now',${modifier}))`;
