import { LANGUAGE_CODE } from './code-rules';

/**
 * What a media entry keeps of an ETIM xChange attachment beyond its purpose (migration 0082):
 * its AttachmentType (ATX004 a declaration …; without one the export writes ATX018 for a picture
 * and ATX099 for any other file), the document's languages as ISO 639-2 codes, and its issue and
 * expiry dates (`YYYY-MM-DD`; the ETIM BMEcat guideline's UDX.EDXF.MIME_ISSUE_DATE / _EXPIRY_DATE too).
 * Every part is optional; an entry without any has none (null), so its form stays as before.
 */
export interface MediaAttachment {
  type?: string;
  languages?: string[];
  issueDate?: string;
  expiryDate?: string;
}

/** An xChange AttachmentType code (ATX001 …). */
export const ATTACHMENT_TYPE = /^ATX\d{3}$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Why a part of an attachment does not check, or null when it does. */
export function attachmentProblem(a: MediaAttachment): string | null {
  if (a.type !== undefined && !ATTACHMENT_TYPE.test(a.type)) return `type "${a.type.slice(0, 12)}" is no ATX code`;
  const language = a.languages?.find((l) => !LANGUAGE_CODE.test(l));
  if (language !== undefined) return `language "${language.slice(0, 12)}" is no ISO 639-2 code`;
  for (const key of ['issueDate', 'expiryDate'] as const)
    if (a[key] !== undefined && !DATE.test(a[key]!)) return `${key} "${a[key]!.slice(0, 20)}" is not a date YYYY-MM-DD`;
  if (a.issueDate && a.expiryDate && a.expiryDate < a.issueDate) return 'expiryDate is before issueDate';
  return null;
}

/** The attachment with its empty parts left out (languages deduplicated, in order), or null when nothing is left. */
export function compactAttachment(a: MediaAttachment | null | undefined): MediaAttachment | null {
  if (!a) return null;
  const languages = [...new Set(a.languages ?? [])];
  const out: MediaAttachment = {
    ...(a.type ? { type: a.type } : {}),
    ...(languages.length > 0 ? { languages } : {}),
    ...(a.issueDate ? { issueDate: a.issueDate } : {}),
    ...(a.expiryDate ? { expiryDate: a.expiryDate } : {}),
  };
  return Object.keys(out).length > 0 ? out : null;
}

/** The `media.attachment` column's text of an attachment (null when it has none). */
export function attachmentColumn(a: MediaAttachment | null | undefined): string | null {
  const compact = compactAttachment(a);
  return compact ? JSON.stringify(compact) : null;
}

/** The attachment a `media.attachment` column holds (null when none). */
export function attachmentOfColumn(text: string | null | undefined): MediaAttachment | null {
  return text ? (JSON.parse(text) as MediaAttachment) : null;
}

/** Equality of two stored attachments (null and absent alike). */
export function sameAttachment(a: MediaAttachment | null | undefined, b: MediaAttachment | null | undefined): boolean {
  return JSON.stringify(compactAttachment(a)) === JSON.stringify(compactAttachment(b));
}
