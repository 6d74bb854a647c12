import type { UpsertMediaRef } from '../../catalog/upsert/upsert-types';
import { isLinkUrl, linkFileName } from '../../media/media-links.rules';
import { ATTACHMENT_OTHER, ATTACHMENT_PICTURE, ATTACHMENT_SPECIFICATIONS } from '../../exports/xchange/xchange-codes';
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

/** Fields of an AttachmentDetails entry the media model has no place for (reported when given). */
const NOT_KEPT = ['AttachmentLanguage', 'AttachmentIssueDate', 'AttachmentExpiryDate'] as const;

/**
 * What the media entry cannot hold of one attachment, as warnings naming the field
 * (`attachment_not_kept`): an AttachmentType other than ATX018 (picture, read as purpose
 * `normal`) or ATX099 (other document, `others`), which the export writes back as one of those
 * two; an AttachmentTypeSpecification on a file reference (only a link keeps it, as its
 * `mimeCode`) or one that is not a code of the schema; the document's languages and its issue
 * and expiry dates.
 */
function notKept(a: Json, d: Json, at: string, isLink: boolean, spec: string | null, warnings: FileWarning[]): void {
  const warn = (field: string, message: string) =>
    warnings.push({ code: 'attachment_not_kept', message, line: 0, path: `${at}.${field}` });
  const type = str(a.AttachmentType);
  if (type && type !== ATTACHMENT_PICTURE && type !== ATTACHMENT_OTHER)
    warn(
      'AttachmentType',
      `AttachmentType ${type.slice(0, 10)} not kept: the media entry holds a purpose (ATX018 normal, else others), written back as ATX018 or ATX099`,
    );
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
  for (const field of NOT_KEPT)
    if (d[field] !== undefined && d[field] !== null && !(Array.isArray(d[field]) && d[field].length === 0))
      warn(field, `${field} not kept: the media entry has no such field`);
}

/**
 * Attachments (ProductAttachments, ItemAttachments) as media entries in AttachmentOrder (file
 * order where it is not given), pictures (ATX018) as `normal`, with the description in the
 * catalog's language and every other language of the file as a description translation
 * (docs/languages.md "Imports"), as BMEcat's MIME_DESCR. A link keeps the attachment's
 * AttachmentTypeSpecification (MDX…) as its `mimeCode`; what the entry cannot hold is reported
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
      notKept(a, d, `${path}[${position}].AttachmentDetails[${j}]`, source.url !== null, spec, warnings);
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
            ...(Object.keys(descriptions).length > 0 ? { descriptions } : {}),
          } satisfies UpsertMediaRef,
        },
      ];
    }),
  );
  return entries.sort((a, b) => a.order - b.order || a.position - b.position).map((e) => e.ref);
}
