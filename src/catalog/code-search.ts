import { and, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';

/**
 * The filters of a pick list's codes (GetCodesInUse, GetAttributes; docs/rest-api.md):
 * `prefix`, codes beginning with it, is a range of an index on the code, so it reads only the
 * matches whatever the number of codes: exactly (`codePrefix`, SQLite's BINARY order is UTF-8
 * byte order, which is code point order; GetAttributes) or with ASCII case ignored
 * (`codePrefixIgnoringCase`, GetCodesInUse); `q`, codes containing it with ASCII case ignored
 * (LIKE), reads the codes in order until a page of matches is found, the fallback for a
 * search anywhere in a code.
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

/**
 * Codes beginning with `prefix`, ASCII case ignored: a range of an index on the code with
 * SQLite's NOCASE collation (migration 0085, `catalog_codes_in_use_nocase_idx`), which compares
 * codes with ASCII upper case folded to lower case. The bounds are the folded prefix and its
 * successor in that order: a last character that folds into `A`-`Z` never occurs folded, so
 * the successor of `@` is `[`. The caller orders the answer by the code itself (its index
 * order is NOCASE's): SQLite sorts the range's matches, only they.
 */
export function codePrefixIgnoringCase(column: AnySQLiteColumn, prefix: string): SQL | undefined {
  const points = [...foldAscii(prefix)];
  const last = points.pop();
  if (last === undefined) return undefined;
  let next = (last.codePointAt(0) as number) + 1;
  if (next >= 0x41 && next <= 0x5a) next = 0x5b;
  if (next >= 0xd800 && next <= 0xdfff) next = 0xe000;
  const from = sql`${column} COLLATE NOCASE >= ${points.join('') + last}`;
  if (next > 0x10ffff) return from;
  return and(from, sql`${column} COLLATE NOCASE < ${points.join('') + String.fromCodePoint(next)}`);
}

/** ASCII upper case to lower case, as NOCASE folds; other characters as they are. */
const foldAscii = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Codes containing `q`, ASCII case ignored; `%`, `_` and `\` match themselves. */
export function codeContaining(column: AnySQLiteColumn | SQL, q: string): SQL {
  const needle = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${column} LIKE ${needle} ESCAPE '\\'`;
}
