import type { BatchStatement, Database } from '../db/client';
import { writeTranslationStatements } from '../model/translation-store';
import { splitLocalizedPath } from '../kernel/languages';
import type { Json, Snapshot } from '../records/snapshot';

const differs = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a ?? null) !== JSON.stringify(b ?? null);

/** A translation's path (`name@eng`, `values.colour@fra`, `media.<id>.description@eng`; docs/languages.md). */
export const isTranslation = (path: string) => splitLocalizedPath(path).language !== undefined;

/**
 * The translations part of a restore: each language's text of each field as it was, written
 * or removed one row at a time, so a language that did not change since the version is not
 * touched. A media entry's description comes back only while the file is still there.
 */
export function translationRestore(
  db: Database,
  elementId: string,
  current: Snapshot,
  target: Snapshot,
  keep: (path: string, reason: string) => void,
): BatchStatement[] {
  const statements: BatchStatement[] = [];
  const paths = new Set([...Object.keys(current), ...Object.keys(target)].filter(isTranslation));
  for (const path of paths) {
    if (!differs(current[path], target[path])) continue;
    const { field, language } = splitLocalizedPath(path);
    const text = target[path] === undefined || target[path] === null ? null : String(target[path]);
    const media = /^media\.([^.]+)\.(.+)$/.exec(field);
    if (media && !current[`media.${media[1]}`]) {
      keep(path, 'the file was deleted after this version');
      continue;
    }
    statements.push(
      ...writeTranslationStatements(db, media ? media[1]! : elementId, language!, {
        [media ? media[2]! : field]: text,
      }),
    );
  }
  return statements;
}
