import { parseLanguage } from '../../kernel/languages';
import type { CatalogFormula, FormulaNode } from '../../model/catalog-formulas';
import { codePointLength } from '../../exports/bmecat/xml-text';
import { LANGUAGES_2005 } from '../../exports/bmecat/code-lists';
import type { XmlNode } from '../read/xml-node';
import { FORMULA_GRAMMAR, type ElementRule } from './formula-grammar';

/**
 * The largest FORMULA kept, as stored JSON: the XSD bounds each text but not the number of
 * TERMs or parameters, and a formula is read, stored and written as one piece.
 */
export const MAX_FORMULA_CHARS = 256 * 1024;

/** A FORMULA of a file: kept as its tree, or why not (naming the element and its line). */
export type FormulaReading =
  | { formula: CatalogFormula; problem: null }
  | { formula: null; id: string | null; problem: string };

class FormulaProblem extends Error {}

function fail(node: XmlNode, path: string, what: string): never {
  throw new FormulaProblem(`line ${node.line}: ${path}: ${what}`);
}

/** The element's attributes its rule names, checked; others (xmlns declarations ...) are not BMEcat's and not kept. */
function attributesOf(node: XmlNode, rule: ElementRule, path: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [name, attribute] of Object.entries(rule.attrs ?? {})) {
    let value = node.attrs[name]?.trim();
    if (value === undefined || value === '') {
      if (attribute.required) fail(node, path, `the attribute ${name} is missing`);
      continue;
    }
    // A language as files write it (`de`, `DEU`) is kept as its ISO 639-2 code where that is BMEcat's.
    if (name === 'lang' && !attribute.check(value)) value = parseLanguage(value) ?? value;
    if (!attribute.check(value) || (name === 'lang' && !LANGUAGES_2005.has(value)))
      fail(node, path, `${name}="${node.attrs[name]}" is not a BMEcat 2005 value`);
    out[name] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The element as stored, after checking it against its rule; throws FormulaProblem naming what does not check. */
function convert(node: XmlNode, path: string): FormulaNode {
  const rule = FORMULA_GRAMMAR[node.name];
  if (!rule) fail(node, path, 'not an element of FORMULA');
  const attrs = attributesOf(node, rule, path);
  const out: FormulaNode = { name: node.name, ...(attrs ? { attrs } : {}) };
  if (rule.kind === 'text') {
    if (node.children.length > 0) fail(node, path, `${node.children[0]!.name} inside a text element`);
    const text = node.text.trim();
    if (text === '') fail(node, path, 'empty');
    if (codePointLength(text) > rule.max) fail(node, path, `longer than ${rule.max} characters`);
    if (rule.check && !rule.check(text)) fail(node, path, `"${text.slice(0, 40)}" is not a BMEcat 2005 value`);
    return { ...out, text };
  }
  if (node.text.trim() !== '') fail(node, path, 'text where BMEcat 2005 has elements only');
  const children: FormulaNode[] = [];
  let i = 0;
  for (const [k, particle] of rule.particles.entries()) {
    let n = 0;
    while (i < node.children.length && n < particle.max && particle.names.includes(node.children[i]!.name)) {
      const child = node.children[i]!;
      children.push(convert(child, `${path}/${child.name}`));
      i++;
      n++;
    }
    if (n < particle.min) {
      // Missing when what follows belongs further on; else what follows is out of its place (below).
      const next = node.children[i];
      if (!next || rule.particles.slice(k + 1).some((p) => p.names.includes(next.name)))
        fail(node, path, `${particle.names.join(' or ')} is missing`);
      break;
    }
  }
  // An element left over (or where a required one should be) is one the XSD does not allow there.
  const extra = node.children[i];
  if (extra) fail(extra, `${path}/${extra.name}`, 'not in its place (BMEcat 2005 does not allow it there)');
  return { ...out, children };
}

/**
 * A FORMULA element of a file's FORMULAS as the catalog keeps it: the whole element, checked
 * against BMEcat 2005's content model (formula-grammar.ts) so the export writes it back valid;
 * or, for one that does not check, the reason (the import reports it and keeps the others).
 */
export function formulaOf(node: XmlNode): FormulaReading {
  const id = node.children.find((c) => c.name === 'FORMULA_ID')?.text.trim() || null;
  try {
    const formula = convert(node, 'FORMULA');
    if (JSON.stringify(formula).length > MAX_FORMULA_CHARS)
      return { formula: null, id, problem: `FORMULA larger than ${MAX_FORMULA_CHARS / 1024} KiB` };
    return { formula: { id: id!, formula }, problem: null };
  } catch (err) {
    if (err instanceof FormulaProblem) return { formula: null, id, problem: err.message };
    throw err;
  }
}
