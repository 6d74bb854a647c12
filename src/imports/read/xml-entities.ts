import { ImportFileError } from './text-chunks';

/**
 * General entities declared in a file's internal DTD subset (`<!DOCTYPE BMECAT [ <!ENTITY
 * name "value"> ]>`), expanded within a fixed budget, and external ones (SYSTEM / PUBLIC),
 * which are never resolved. saxes reads a DOCTYPE but not its declarations; the reader hands
 * the internal entities to the parser and fails a file that uses an external one, naming it.
 *
 * The budget: one entity's replacement text is at most MAX_ENTITY_CHARS characters once its
 * own references are expanded (a "billion laughs" file fails while its declarations are read),
 * and the text all references of one pass add beyond their own length is at most
 * MAX_EXPANSION_CHARS (many references to one large entity fail too). Parameter entities
 * (`%name;`) only shape the DTD's content models, which are not read; an external DTD
 * (`SYSTEM "bmecat_new_catalog.dtd"`) is never fetched.
 */
export interface DeclaredEntities {
  /** Name → replacement text, expanded. */
  internal: Record<string, string>;
  /** Name → the SYSTEM / PUBLIC identifier it points at (never read). */
  external: Record<string, string>;
}

export const MAX_ENTITY_CHARS = 65_536;
export const MAX_EXPANSION_CHARS = 8 * 1024 * 1024;
/** Declared entities kept for resuming a later slice (they travel in the checkpoint). */
const MAX_DECLARED_CHARS = 256 * 1024;

const PREDEFINED_TEXT: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const PREDEFINED = new Set(Object.keys(PREDEFINED_TEXT));
const DECLARATION =
  /<!ENTITY\s+(%\s+)?([^\s%;&"'<>]+)\s+(?:"([^"]*)"|'([^']*)'|(SYSTEM|PUBLIC)\s+("[^"]*"|'[^']*')(?:\s+("[^"]*"|'[^']*'))?)[^>]*>/g;

/** Expands the references in an entity's value: character references, predefined and other declared entities. */
function expand(
  name: string,
  raw: Map<string, string>,
  external: Record<string, string>,
  done: Record<string, string>,
  open: Set<string>,
): string {
  if (done[name] !== undefined) return done[name]!;
  if (open.has(name)) throw new ImportFileError(`entity ${name} refers to itself`);
  open.add(name);
  let out = '';
  const value = raw.get(name)!;
  let last = 0;
  for (const m of value.matchAll(/&(#x[0-9a-fA-F]+|#\d+|[^\s&;]+);/g)) {
    out += value.slice(last, m.index);
    last = m.index + m[0].length;
    const ref = m[1]!;
    if (ref.startsWith('#x')) out += String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    else if (ref.startsWith('#')) out += String.fromCodePoint(Number(ref.slice(1)));
    else if (PREDEFINED.has(ref)) out += PREDEFINED_TEXT[ref];
    else if (external[ref] !== undefined) throw externalEntity(ref, external[ref]!);
    else if (raw.has(ref)) out += expand(ref, raw, external, done, open);
    else throw new ImportFileError(`entity ${name} refers to the undefined entity ${ref}`);
    if (out.length > MAX_ENTITY_CHARS) throw tooLarge(name);
  }
  out += value.slice(last);
  if (out.length > MAX_ENTITY_CHARS) throw tooLarge(name);
  open.delete(name);
  done[name] = out;
  return out;
}

const tooLarge = (name: string) =>
  new ImportFileError(
    `entity ${name} expands to more than ${MAX_ENTITY_CHARS.toLocaleString('en')} characters (entity expansion limit; an entity bomb?)`,
  );

export const externalEntity = (name: string, target: string) =>
  new ImportFileError(
    `entity ${name} refers to an external resource (${target}); external entities are never read, so the file cannot be imported as it is`,
  );

/** Reads the entity declarations of a DOCTYPE's text (what saxes reports for it). */
export function declaredEntities(doctype: string): DeclaredEntities {
  const open = doctype.indexOf('[');
  const subset = open < 0 ? '' : doctype.slice(open + 1, doctype.lastIndexOf(']')).replace(/<!--[\s\S]*?-->/g, '');
  const raw = new Map<string, string>();
  const external: Record<string, string> = {};
  for (const m of subset.matchAll(DECLARATION)) {
    if (m[1]) continue;
    const name = m[2]!;
    // The first declaration binds (XML 1.0, 4.2); the predefined five keep their meaning.
    if (PREDEFINED.has(name) || raw.has(name) || external[name] !== undefined) continue;
    if (m[5]) external[name] = `${m[5]} ${m[6]}${m[7] ? ` ${m[7]}` : ''}`;
    else raw.set(name, m[3] ?? m[4] ?? '');
  }
  const internal: Record<string, string> = {};
  let size = 0;
  for (const name of raw.keys()) {
    size += expand(name, raw, external, internal, new Set()).length + name.length;
    if (size > MAX_DECLARED_CHARS)
      throw new ImportFileError(
        `the DOCTYPE declares entities of more than ${MAX_DECLARED_CHARS.toLocaleString('en')} characters in all (entity expansion limit)`,
      );
  }
  return { internal, external };
}

/**
 * The text a pass may add through entity references beyond their own length: counts each
 * use (saxes resolves references through `parseEntity`) and fails the file past the budget.
 */
export class ExpansionBudget {
  private added = 0;

  constructor(private readonly declared: DeclaredEntities) {}

  use(name: string, value: string): void {
    const target = this.declared.external[name];
    if (target !== undefined) throw externalEntity(name, target);
    this.added += Math.max(0, value.length - name.length - 2);
    if (this.added > MAX_EXPANSION_CHARS)
      throw new ImportFileError(
        `entity references expand to more than ${MAX_EXPANSION_CHARS.toLocaleString('en')} characters (entity expansion limit; an entity bomb?)`,
      );
  }
}
