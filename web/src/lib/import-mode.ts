import type { ImportMode } from '../api/models';

/** A mode StartImport takes (the body leaves it optional: upsert). */
export type Mode = NonNullable<ImportMode>;

/**
 * Which imports the imports screen offers a role (docs/teams.md, "texts-only import"): a role
 * that writes products chooses among every mode, the texts-only one included; a role that
 * writes texts but not products (a translator) has the texts-only import chosen for it, the
 * one the server lets it start; any other role imports nothing.
 */
export interface ImportChoice {
  /** The modes the form offers, the first one chosen at the start; empty: no import. */
  modes: Mode[];
  /** True when the one mode is imposed by the role (the form says so instead of offering a choice). */
  imposed: boolean;
}

export function importChoice(may: { productWrite: boolean; textWrite: boolean }): ImportChoice {
  if (may.productWrite) return { modes: ['upsert', 'createOnly', 'texts'], imposed: false };
  if (may.textWrite) return { modes: ['texts'], imposed: true };
  return { modes: [], imposed: false };
}

/** One part of the file a texts-only import left out, as its warning names it. */
export interface IgnoredPart {
  /** `price`, `categories`, ... or `texts in <language>` (`language` is then set). */
  field: string;
  language: string | null;
  count: number;
  /** The first SKUs (or `group <id>`) the warning names. */
  examples: string[];
}

/** `texts-only import: <field> ignored (<n>×, e.g. <a>, <b>)`, as the import writes it into the job's warnings. */
const IGNORED = /^texts-only import: (.+) ignored \((\d+)×(?:, e\.g\. (.*))?\)$/;

/**
 * The job's warnings split into the parts a texts-only import left out (each named once, with
 * its count) and the other warnings, as the API words them.
 */
export function ignoredParts(warnings: readonly string[]): { ignored: IgnoredPart[]; other: string[] } {
  const ignored: IgnoredPart[] = [];
  const other: string[] = [];
  for (const warning of warnings) {
    const m = IGNORED.exec(warning);
    if (!m) {
      other.push(warning);
      continue;
    }
    const field = m[1]!;
    const language = /^texts in (\w+)$/.exec(field)?.[1] ?? null;
    ignored.push({ field, language, count: Number(m[2]), examples: m[3] ? m[3].split(', ') : [] });
  }
  return { ignored, other };
}
