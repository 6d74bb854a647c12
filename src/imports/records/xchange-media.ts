import type { UpsertMediaRef } from '../../catalog/upsert/upsert-types';
import { isLinkUrl, linkFileName } from '../../media/media-links.rules';
import {
  ATTACHMENT_PICTURE,
  ATTACHMENT_SPECIFICATIONS,
  ATTACHMENT_TYPES,
  languageCode,
} from '../../exports/xchange/xchange-codes';
import { attachmentProblem, compactAttachment, type MediaAttachment } from '../../kernel/media-attachment';
import type { FileWarning } from './record-actions';
import { xchangeTexts, type XChangeLanguages } from './xchange-languages';

type Json = Record<string, any>;

const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const baseName = (source: string) => source.split(/[?#]/)[0]!.split(/[\\/]/).pop() ?? source;

/**
 * A file this service (or another instance of it) serves by signed URL (media/signed-url.ts):
 * what its xChange export writes for an uploaded file and for a file reference still to be
 * uploaded. Such a URI expires and names a media entry of the exporting catalog, so it is read
 * as a file reference by AttachmentFilename, not as a link to keep.
 */
const SIGNED_MEDIA = /\/media\/signed\/[^/?#]+\?(?:[^#]*&)?sig=/;

/**
 * One AttachmentDetails entry as BMEcat's MIME_SOURCE is read (bmecat-media.ts): an absolute
 * http(s) AttachmentUri is a **link** (the URL kept, the AttachmentFilename or else the URL's
 * last segment as its name); a relative AttachmentUri, or none beside an AttachmentFilename, is
 * a **file reference** by its base name (the file is uploaded separately, as for a BMEcat
 * MIME_SOURCE relative to MIME_ROOT). Null when it names no file at all.
 */
function sourceOf(d: Json): Pick<UpsertMediaRef, 'fileName' | 'url'> | null {
  const uri = str(d.AttachmentUri);
  const fileName = str(d.AttachmentFilename);
  if (uri && isLinkUrl(uri) && !SIGNED_MEDIA.test(uri))
    return { fileName: fileName ? baseName(fileName) : linkFileName(uri), url: uri };
  const name = fileName ?? (uri ? baseName(uri) : null);
  return name ? { fileName: baseName(name), url: null } : null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * What the entry keeps of the attachment beyond its purpose (kernel/media-attachment.ts): its
 * AttachmentType, the AttachmentLanguage tags as ISO 639-2 codes and the issue and expiry
 * dates. What does not check is left out, reported naming the field (`attachment_not_kept`): a
 * type the schema does not list, a language tag without a code here, a date that is not one.
 */
function attachmentOf(a: Json, d: Json, at: string, warnings: FileWarning[]): MediaAttachment | null {
  const warn = (field: string, message: string) =>
    warnings.push({ code: 'attachment_not_kept', message, line: 0, path: `${at}.${field}` });
  const type = str(a.AttachmentType);
  if (type && !ATTACHMENT_TYPES.has(type))
    warn('AttachmentType', `AttachmentType "${type.slice(0, 10)}" is no code of the schema: not kept`);
  const languages: string[] = [];
  for (const tag of Array.isArray(d.AttachmentLanguage) ? d.AttachmentLanguage : []) {
    const code = typeof tag === 'string' ? languageCode(tag) : null;
    if (code) languages.push(code);
    else
      warn(
        'AttachmentLanguage',
        `AttachmentLanguage "${String(tag).slice(0, 12)}" is no language known here: not kept`,
      );
  }
  const date = (field: 'AttachmentIssueDate' | 'AttachmentExpiryDate') => {
    const text = str(d[field]);
    if (text && !DATE.test(text)) warn(field, `${field} "${text.slice(0, 20)}" is not a date YYYY-MM-DD: not kept`);
    return text && DATE.test(text) ? text : undefined;
  };
  const attachment = compactAttachment({
    type: type && ATTACHMENT_TYPES.has(type) ? type : undefined,
    languages,
    issueDate: date('AttachmentIssueDate'),
    expiryDate: date('AttachmentExpiryDate'),
  });
  const problem = attachment && attachmentProblem(attachment);
  if (!problem) return attachment;
  warn('AttachmentExpiryDate', `${problem}: the dates not kept`);
  return compactAttachment({ ...attachment, issueDate: undefined, expiryDate: undefined });
}

/**
 * What the media entry cannot hold of one attachment's type specification, as warnings naming
 * the field (`attachment_not_kept`): one on a file reference (only a link keeps it, as its
 * `mimeCode`) or one that is not a code of the schema.
 */
function notKept(at: string, isLink: boolean, spec: string | null, warnings: FileWarning[]): void {
  const warn = (field: string, message: string) =>
    warnings.push({ code: 'attachment_not_kept', message, line: 0, path: `${at}.${field}` });
  if (spec && !ATTACHMENT_SPECIFICATIONS.has(spec))
    warn(
      'AttachmentTypeSpecification',
      `AttachmentTypeSpecification "${spec.slice(0, 20)}" is no code of the schema: not kept`,
    );
  else if (spec && !isLink)
    warn(
      'AttachmentTypeSpecification',
      `AttachmentTypeSpecification ${spec} not kept: only a link keeps its type code`,
    );
}

/**
 * Attachments (ProductAttachments, ItemAttachments) as media entries in AttachmentOrder (file
 * order where it is not given), pictures (ATX018) as `normal`, with the description in the
 * catalog's language and every other language of the file as a description translation
 * (docs/languages.md "Imports"), as BMEcat's MIME_DESCR. A link keeps the attachment's
 * AttachmentTypeSpecification (MDX…) as its `mimeCode`; every entry its type, languages and
 * dates as its `attachment` (attachmentOf); what the entry cannot hold is reported
 * into `warnings` (notKept), each under `path` (`.ProductAttachments[i].AttachmentDetails[j]`).
 */
export function xchangeMediaOf(
  attachments: Json[],
  languages: XChangeLanguages,
  warnings: FileWarning[] = [],
  path = '.ProductAttachments',
): UpsertMediaRef[] {
  const entries = attachments.flatMap((a, position) =>
    list(a.AttachmentDetails).flatMap((d, j) => {
      const source = sourceOf(d);
      if (!source) return [];
      const spec = str(a.AttachmentTypeSpecification);
      const at = `${path}[${position}].AttachmentDetails[${j}]`;
      notKept(at, source.url !== null, spec, warnings);
      const attachment = attachmentOf(a, d, at, warnings);
      const texts = xchangeTexts(list(d.AttachmentDescription), 'Language', languages);
      const descriptions = Object.fromEntries(
        texts.others.flatMap(([code, e]) => {
          const text = str(e.AttachmentDescription);
          return text ? [[code, text]] : [];
        }),
      );
      const order = Number.isInteger(a.AttachmentOrder) ? (a.AttachmentOrder as number) : 0;
      return [
        {
          order,
          position,
          ref: {
            ...source,
            purpose: a.AttachmentType === ATTACHMENT_PICTURE ? 'normal' : 'others',
            description: str(texts.own?.AttachmentDescription),
            ...(source.url && spec && ATTACHMENT_SPECIFICATIONS.has(spec) ? { mimeCode: spec } : {}),
            ...(attachment ? { attachment } : {}),
            ...(Object.keys(descriptions).length > 0 ? { descriptions } : {}),
          } satisfies UpsertMediaRef,
        },
      ];
    }),
  );
  return entries.sort((a, b) => a.order - b.order || a.position - b.position).map((e) => e.ref);
}
