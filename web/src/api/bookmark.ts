/**
 * Read-your-writes for the web app (docs/scaling.md): every API answer carries the D1 bookmark
 * of the work it did (`x-d1-bookmark`); the app keeps the newest it has seen and sends it on
 * every request, so a read after a write is served by a copy that already holds the write,
 * however far the nearest replica lags.
 *
 * A bookmark names its database (`cell-2:<bookmark>`; bare = cell-1, the directory), and
 * bookmarks of different databases do not compare. So the app keeps the newest *per database*
 * and sends all of them as one comma-separated list: the server takes the one of the cell it
 * works in. A user who switches to a company in another cell is then fresh in both. Within one
 * database bookmarks sort lexicographically in commit order. They are kept in sessionStorage,
 * so a reload of the tab (which forgets the app's memory) still reads its own writes.
 */
export const BOOKMARK_HEADER = 'x-d1-bookmark';

const STORAGE_KEY = 'pim.d1-bookmarks';
const CELL_PREFIX = /^(cell-[1-9][0-9]?):/;

let newest: Record<string, string> | null = null;

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null; // blocked storage: the bookmarks live as long as the page
  }
}

function kept(): Record<string, string> {
  if (newest) return newest;
  newest = {};
  try {
    const saved = JSON.parse(storage()?.getItem(STORAGE_KEY) ?? '{}') as unknown;
    if (saved && typeof saved === 'object')
      for (const [database, value] of Object.entries(saved))
        if (typeof value === 'string' && databaseOf(value) === database) newest[database] = value;
  } catch {
    // unreadable: start without
  }
  return newest;
}

/** The database a wire bookmark belongs to: its cell prefix, or cell-1 for a bare one. */
function databaseOf(bookmark: string): string {
  return CELL_PREFIX.exec(bookmark)?.[1] ?? 'cell-1';
}

/** Remembers an answer's bookmark when it is newer than the one kept for its database. */
export function noteBookmark(value: string | null | undefined): void {
  const bookmark = value?.trim();
  if (!bookmark || bookmark.includes(',')) return;
  const all = kept();
  const database = databaseOf(bookmark);
  const current = all[database];
  if (current !== undefined && current >= bookmark) return;
  all[database] = bookmark;
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(all));
  } catch {
    // full or blocked: memory still has it
  }
}

/** The header to send: the newest bookmark of every database seen, or nothing before the first answer. */
export function bookmarkHeaders(): Record<string, string> {
  const all = Object.values(kept());
  return all.length > 0 ? { [BOOKMARK_HEADER]: all.join(', ') } : {};
}

/** For tests: forget the kept bookmarks. */
export function resetBookmark(): void {
  newest = null;
  try {
    storage()?.removeItem(STORAGE_KEY);
  } catch {
    // nothing kept
  }
}
