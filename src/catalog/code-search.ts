import { and, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';

/**
 * The two filters of a pick list's codes (GetCodesInUse, GetAttributes; docs/rest-api.md):
 * `prefix`, codes beginning with it exactly, is a range of an index on the code (SQLite's BINARY
 * order is UTF-8 byte order, which is code point order), so it reads only the matches whatever
 * the number of codes; `q`, codes containing it with ASCII case ignored (LIKE), reads the codes
 * in order until a page of matches is found, the fallback for a search anywhere in a code.
 */
export function codePrefix(column: AnySQLiteColumn, prefix: string): SQL | undefined {
  const points = [...prefix];
  const last = points.pop();
  if (last === undefined) return undefined;
  let next = (last.codePointAt(0) as number) + 1;
  if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
  // Above the last code point nothing sorts between: the lower bound alone is the range.
  if (next > 0x10ffff) return gte(column, prefix);
  return and(gte(column, prefix), lt(column, points.join('') + String.fromCodePoint(next)));
}

/** Codes containing `q`, ASCII case ignored; `%`, `_` and `\` match themselves. */
export function codeContaining(column: AnySQLiteColumn | SQL, q: string): SQL {
  const needle = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${column} LIKE ${needle} ESCAPE '\\'`;
}
