/** The list with the item at `from` moved to position `to` (drag and drop, up/down buttons). */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= items.length || to < 0 || to >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/**
 * The whole list with the items `pick` selects put in the order of `reordered`, each into a
 * slot such an item held before; the other items keep their places. Files and links share one
 * media order (Media/Reorder takes every id), while each tab orders only its own kind.
 */
export function mergeOrder<T>(all: readonly T[], reordered: readonly T[], pick: (item: T) => boolean): T[] {
  let next = 0;
  return all.map((item) => (pick(item) ? (reordered[next++] as T) : item));
}
