/**
 * What an export had to adjust to fit its target format (text cut to a schema limit, a unit
 * the schema does not know, ...). Warnings are tallied by kind with a few example subjects,
 * so a 100,000-product export with one systematic problem yields one line, not 100,000; the
 * tally travels in the job checkpoint between slices and ends up in `jobs.warnings`.
 */
export type WarningTally = Record<string, { count: number; examples: string[] }>;

/** Most distinct kinds kept; later new kinds are only counted under OVERFLOW_KIND. */
const MAX_KINDS = 40;
const MAX_EXAMPLES = 3;
const OVERFLOW_KIND = 'other adjustments';

export class ExportWarnings {
  constructor(private readonly tally: WarningTally = {}) {}

  /** Records one adjustment of `kind` (e.g. "DESCRIPTION_SHORT cut to 150 characters") on `subject` (e.g. a SKU). */
  add(kind: string, subject: string): void {
    let entry = this.tally[kind];
    if (!entry) {
      const kinds = Object.keys(this.tally).length;
      if (kinds >= MAX_KINDS) {
        entry = this.tally[OVERFLOW_KIND] ??= { count: 0, examples: [] };
      } else {
        entry = this.tally[kind] = { count: 0, examples: [] };
      }
    }
    entry.count++;
    if (entry.examples.length < MAX_EXAMPLES && !entry.examples.includes(subject)) entry.examples.push(subject);
  }

  /** Adds another tally (e.g. one page's warnings) into this one. */
  merge(other: WarningTally | undefined): void {
    if (!other) return;
    for (const [kind, entry] of Object.entries(other)) {
      for (const example of entry.examples) this.add(kind, example);
      const mine = this.tally[kind] ?? this.tally[OVERFLOW_KIND];
      if (mine) mine.count += entry.count - entry.examples.length;
    }
  }

  get isEmpty(): boolean {
    return Object.keys(this.tally).length === 0;
  }

  toJSON(): WarningTally {
    return this.tally;
  }

  /** One human-readable line per kind, e.g. `DESCRIPTION_SHORT cut to 150 characters: 12 products (e.g. )`. */
  messages(): string[] {
    return Object.entries(this.tally).map(([kind, { count, examples }]) => {
      const list = examples.length ? ` (e.g. ${examples.join(', ')})` : '';
      return `${kind}: ${count} ${count === 1 ? 'time' : 'times'}${list}`;
    });
  }
}
