/**
 * How the review inbox shows one change since the last approval (docs/review.md): the history
 * path as the reviewer reads it (`name@eng` → `name (eng)`, a variant's change marked as such)
 * and its values as short text. Pure, so web/test/review-changes.test.ts pins it.
 */
export interface ChangeLine {
  field: string;
  before: string;
  after: string;
  /** The change is of a variant of the product, not of the product itself. */
  variant: boolean;
}

/** Longest value text shown in a line; the product's history has the whole value. */
export const VALUE_CHARS = 80;

export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS - 1)}…` : text;
}

export function fieldText(path: string): string {
  const at = path.lastIndexOf('@');
  return at > 0 ? `${path.slice(0, at)} (${path.slice(at + 1)})` : path;
}

export function changeLines(
  productId: string,
  changes: readonly { elementId: string; path: string; before?: unknown; after?: unknown }[],
): ChangeLine[] {
  return changes.map((c) => ({
    field: fieldText(c.path),
    before: valueText(c.before),
    after: valueText(c.after),
    variant: c.elementId !== productId,
  }));
}
