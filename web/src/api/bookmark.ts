/**
 * Read-your-writes for the web app (docs/scaling.md): every API answer carries the D1 bookmark
 * of the work it did (`x-d1-bookmark`); the app keeps the newest it has seen and sends it on
 * every request, so a read after a write is served by a copy that already holds the write,
 * however far the nearest replica lags. Bookmarks sort lexicographically in commit order.
 */
export const BOOKMARK_HEADER = 'x-d1-bookmark';

let newest: string | null = null;

/** Remembers an answer's bookmark when it is newer than the one kept. */
export function noteBookmark(value: string | null | undefined): void {
  if (value && (newest === null || value > newest)) newest = value;
}

/** The header to send: the newest bookmark seen, or nothing before the first answer. */
export function bookmarkHeaders(): Record<string, string> {
  return newest ? { [BOOKMARK_HEADER]: newest } : {};
}

/** For tests: forget the kept bookmark. */
export function resetBookmark(): void {
  newest = null;
}
