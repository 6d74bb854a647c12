import { describeError } from '../api/errors';
import type { BodyOf } from '../api/operations';
import type { T } from '../i18n/i18n';
import { parseInput, type ValueKind } from '../lib/values';

interface ValueEdit {
  field: string;
  kind: ValueKind;
  draft: string;
  original: string;
  unit?: string | null;
  allowed?: readonly string[];
}

/**
 * Saves the changed values of a form, one SetValue each (a handful per form, never a catalog):
 * returns the problem per field, so each message appears next to its input. `setValue` is the
 * SetValue mutation (`useSetValue().mutateAsync`); the caller refreshes the element once after.
 */
export async function saveValues(
  setValue: (body: BodyOf<'Catalog/SetValue'>) => Promise<unknown>,
  departmentId: string,
  elementId: string,
  edits: ValueEdit[],
  t: T,
): Promise<{ saved: number; problems: Record<string, string> }> {
  const problems: Record<string, string> = {};
  let saved = 0;
  for (const edit of edits) {
    const parsed = parseInput(edit.kind, edit.draft, { unit: edit.unit, allowed: edit.allowed });
    if (!parsed.ok) {
      problems[edit.field] = t(`value.${parsed.problem}`);
      continue;
    }
    if (parsed.value === edit.original) continue;
    try {
      await setValue({ departmentId, elementId, field: edit.field, value: parsed.value });
      saved++;
    } catch (err) {
      problems[edit.field] = describeError(err, t);
    }
  }
  return { saved, problems };
}
