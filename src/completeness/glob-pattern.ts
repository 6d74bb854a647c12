/**
 * Checks a pattern rule's GLOB pattern (SQLite GLOB, the only pattern match D1 has: no REGEXP)
 * before it is stored. GLOB is case-sensitive; `*` any text, `?` one character, `[abc]`,
 * `[0-9]` and `[^0-9]` one character of (or not of) a set, where a `]` right after `[` or `[^`
 * is part of the set. An unclosed set makes SQLite match nothing, so every value would fail
 * silently: it is refused here instead.
 *
 * @returns null when the pattern is usable, else why not (the caller names the field).
 */
export function globError(pattern: string): string | null {
  if (pattern === '') return 'a pattern is required (GLOB: * any text, ? one character, [0-9] one of a set)';
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '[') continue;
    let j = i + 1;
    if (pattern[j] === '^') j++;
    if (pattern[j] === ']') j++;
    const close = pattern.indexOf(']', j);
    if (close < 0) return `the set opened at character ${i + 1} is not closed with ]`;
    i = close;
  }
  return null;
}
