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

/** The first child named one of `names`. */
export function child(node: XmlNode | undefined, ...names: string[]): XmlNode | undefined {
  return node?.children.find((c) => names.includes(c.name));
}

export function children(node: XmlNode | undefined, ...names: string[]): XmlNode[] {
  return node ? node.children.filter((c) => names.includes(c.name)) : [];
}

/** Trimmed text of the first child named one of `names`, or null when absent or empty. */
export function textOf(node: XmlNode | undefined, ...names: string[]): string | null {
  const text = child(node, ...names)?.text.trim();
  return text ? text : null;
}
