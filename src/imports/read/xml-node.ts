/** A record element of a BMEcat file (one PRODUCT, CATALOG_STRUCTURE or map entry) as a small tree. */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  text: string;
  children: XmlNode[];
  /** Line of the start tag in the file. */
  line: number;
  /** The name as written when it has a prefix (`name` is local): kept UDX is written back with it. */
  qname?: string;
  /** A record read shallow: the `lang` of its localizable elements as written, `''` for unlabelled (file-languages.ts). */
  languages?: string[];
}

/**
 * Whether `name` is one of `names`. The lookups below run a few dozen times per product of an
 * import (docs/benchmarks.md "Import throughput, part 10"): plain loops with this test instead of
 * `find`/`filter` with an `includes` closure per child, which were a tenth of mapping a product.
 */
function named(name: string, names: readonly string[]): boolean {
  if (names.length === 1) return name === names[0];
  for (let i = 0; i < names.length; i++) if (name === names[i]) return true;
  return false;
}

/**
 * A test for membership in a fixed set of element names, for the reader's per-element checks.
 * saxes hands every tag name as a new string, and `Set.has` hashes each one: in the Worker's
 * profile of a BMEcat import that hashing made the start-tag handler its largest JavaScript
 * function (docs/benchmarks.md "Import throughput, part 10"). Names are grouped by length, so
 * most names are turned away by one array index and the rest compared as strings.
 */
export function nameTest(names: Iterable<string>): (name: string) => boolean {
  const byLength: (string[] | undefined)[] = [];
  for (const name of names) (byLength[name.length] ??= []).push(name);
  return (name) => {
    const candidates = byLength[name.length];
    return candidates !== undefined && named(name, candidates);
  };
}

/** The first child named one of `names`. */
export function child(node: XmlNode | undefined, ...names: string[]): XmlNode | undefined {
  if (!node) return undefined;
  const list = node.children;
  for (let i = 0; i < list.length; i++) if (named(list[i]!.name, names)) return list[i];
  return undefined;
}

export function children(node: XmlNode | undefined, ...names: string[]): XmlNode[] {
  const out: XmlNode[] = [];
  if (!node) return out;
  const list = node.children;
  for (let i = 0; i < list.length; i++) if (named(list[i]!.name, names)) out.push(list[i]!);
  return out;
}

/** Trimmed text of the first child named one of `names`, or null when absent or empty. */
export function textOf(node: XmlNode | undefined, ...names: string[]): string | null {
  const text = child(node, ...names)?.text.trim();
  return text ? text : null;
}
