import type { MessageKey } from '../i18n/de';
import type { T } from '../i18n/i18n';

/**
 * The import's own failures (a job's `error`, an upload's message: src/imports/*) in words a
 * product manager understands, most specific first. The API's words stay available as the
 * detail; the line number, when the API names one, is kept because it tells the supplier where.
 */
const IMPORT_FAILURES: readonly [RegExp, MessageKey][] = [
  [/exceeds \d+ bytes|holds at most \d+ bytes/, 'imp.err.tooLarge'],
  [/body is empty|part is empty|no parts were uploaded/, 'imp.err.empty'],
  [/uploaded file is gone/, 'imp.err.gone'],
  [/neither BMEcat XML nor a CSV|without a BMECAT root|not BMECAT$/, 'imp.err.notCatalog'],
  [/BMECAT root without a version/, 'imp.err.dialect'],
  [/encoding .* is not supported|not valid UTF-|must be UTF-8|ends inside a character/, 'imp.err.encoding'],
  [/entity expansion limit/, 'imp.err.entityBudget'],
  [/external resource/, 'imp.err.externalEntity'],
  [/undefined entity|refers to itself/, 'imp.err.entity'],
  [/is the file complete\?/, 'imp.err.truncated'],
  [/the file is \S+, not \S+ as requested/, 'imp.err.wrongFormat'],
  [/characters before the BMECAT element/, 'imp.err.prolog'],
  [/upload is not complete|upload is already complete|too many parts at once/, 'imp.err.upload'],
];

/** The plain-words sentence for an import failure, or null when the message is none of the import's own. */
export function describeImportFailure(message: string, t: T): string | null {
  const line = /^line (\d+):/.exec(message)?.[1];
  const key = IMPORT_FAILURES.find(([pattern]) => pattern.test(message))?.[1] ?? (line ? 'imp.err.unreadable' : null);
  if (!key) return null;
  const where = line ? ` ${t('imp.err.atLine', { line })}` : '';
  return `${t(key)}${where} ${t('imp.err.detail', { detail: message.replace(/^line \d+:\s*/, '') })}`;
}
