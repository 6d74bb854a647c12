/**
 * The D1 store passes many rows to one statement as a single JSON parameter read with
 * `json_each`, which keeps far below D1's 100 bound parameters per statement and needs few
 * statements per batch. A value must stay under D1's 2 MB per string, so rows are chunked by
 * their serialised size.
 */
const MAX_JSON_PARAM_CHARS = 900_000;

/** Splits items into JSON array texts of at most `maxChars` characters each (one item may exceed it alone). */
export function jsonChunks<T>(items: readonly T[], maxChars = MAX_JSON_PARAM_CHARS): string[] {
  const chunks: string[] = [];
  let parts: string[] = [];
  let size = 2;
  for (const item of items) {
    const text = JSON.stringify(item);
    if (parts.length > 0 && size + text.length + 1 > maxChars) {
      chunks.push(`[${parts.join(',')}]`);
      parts = [];
      size = 2;
    }
    parts.push(text);
    size += text.length + 1;
  }
  if (parts.length > 0) chunks.push(`[${parts.join(',')}]`);
  return chunks;
}
