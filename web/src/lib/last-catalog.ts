/** The catalog used last, remembered in the browser (no React: the boot prefetch reads it too). */
const LAST = 'pim.lastCatalog';

export function readLastCatalog(): string | null {
  try {
    return localStorage.getItem(LAST);
  } catch {
    return null;
  }
}

export function writeLastCatalog(id: string) {
  try {
    localStorage.setItem(LAST, id);
  } catch {
    // not persisted: fine
  }
}
