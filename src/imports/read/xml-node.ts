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
 * The first child named one of `names`. Plain loops (no closure, no `includes` for one name):
 * a product's mapping calls these a few hundred times (docs/benchmarks.md, "Import throughput, part 8").
 */
export function child(node: XmlNode | undefined, ...names: string[]): XmlNode | undefined {
  if (!node) return undefined;
  const kids = node.children;
  if (names.length === 1) {
    const name = names[0];
    for (let i = 0; i < kids.length; i++) if (kids[i]!.name === name) return kids[i];
    return undefined;
  }
  for (let i = 0; i < kids.length; i++) if (names.includes(kids[i]!.name)) return kids[i];
  return undefined;
}

export function children(node: XmlNode | undefined, ...names: string[]): XmlNode[] {
  const out: XmlNode[] = [];
  if (!node) return out;
  const kids = node.children;
  if (names.length === 1) {
    const name = names[0];
    for (let i = 0; i < kids.length; i++) if (kids[i]!.name === name) out.push(kids[i]!);
    return out;
  }
  for (let i = 0; i < kids.length; i++) if (names.includes(kids[i]!.name)) out.push(kids[i]!);
  return out;
}

/** Trimmed text of the first child named one of `names`, or null when absent or empty. */
export function textOf(node: XmlNode | undefined, ...names: string[]): string | null {
  const text = child(node, ...names)?.text.trim();
  return text ? text : null;
}
