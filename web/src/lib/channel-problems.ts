/**
 * Errors of the channel form shown next to the input they are about (pages/ChannelDialog.tsx):
 * a bound that is no number is caught before sending; the API's 400 names the requirement and
 * its field, which is mapped back to the row's input.
 */
import { boundOf, type RequirementRow } from './channel-draft';

/** An input of a row (a RequirementRow column) and what is wrong with it. */
export interface FieldProblem {
  row: number;
  input: keyof RequirementRow;
  message: string;
}

/** The first bound typed that is no number: caught before sending (the API would only say "expected number"). */
export function draftProblem(rows: readonly RequirementRow[], notANumber: string): FieldProblem | null {
  for (const [i, row] of rows.entries()) {
    if (row.kind !== 'quality' || row.target.trim() !== 'range') continue;
    for (const input of ['rangeMin', 'rangeMax'] as const)
      if (Number.isNaN(boundOf(row[input]) ?? 0)) return { row: i, input, message: notANumber };
  }
  return null;
}

/**
 * Where the API's 400 belongs: `requirements[2].min: ...` (the domain's checks) or
 * `requirements.2.min: ...` (schema validation) is row 2's input for `min` of its kind (a range
 * rule's lower bound, a media row's count; `languages[1]` is the row's language limit); the requirement's name (`field`, `purpose`, `rule`,
 * ...) is the row's first input. Null when the message names no row's input (it is shown under the form).
 */
export function problemAt(rows: readonly RequirementRow[], message: string): FieldProblem | null {
  const match = /^requirements(?:\[(\d+)\]|\.(\d+))(?:\.(\w+))?/.exec(message);
  if (!match) return null;
  const row = Number(match[1] ?? match[2]);
  const given = rows[row];
  if (!given) return null;
  const field = match[3] ?? '';
  const quality = given.kind === 'quality';
  const inputs: Record<string, keyof RequirementRow> = {
    min: quality ? 'rangeMin' : 'min',
    max: 'rangeMax',
    system: quality ? 'system' : 'target',
    release: 'release',
    share: 'share',
    feature: 'feature',
    unit: 'unit',
    attribute: quality ? 'attribute' : 'target',
    pattern: 'pattern',
    languages: 'languages',
    categoryId: 'categoryId',
  };
  return { row, input: inputs[field] ?? 'target', message };
}
