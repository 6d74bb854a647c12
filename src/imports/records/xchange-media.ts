import type { UpsertMediaRef } from '../../catalog/upsert/upsert-types';
import { isLinkUrl, linkFileName } from '../../media/media-links.rules';
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

/**
 * Attachments (ProductAttachments, ItemAttachments) as media entries in AttachmentOrder (file
 * order where it is not given), pictures (ATX018) as `normal`, with the description in the
 * catalog's language and every other language of the file as a description translation
 * (docs/languages.md "Imports"), as BMEcat's MIME_DESCR.
 */
export function xchangeMediaOf(attachments: Json[], languages: XChangeLanguages): UpsertMediaRef[] {
  const entries = attachments.flatMap((a, position) =>
    list(a.AttachmentDetails).flatMap((d) => {
      const source = sourceOf(d);
      if (!source) return [];
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
            purpose: a.AttachmentType === 'ATX018' ? 'normal' : 'others',
            description: str(texts.own?.AttachmentDescription),
            ...(Object.keys(descriptions).length > 0 ? { descriptions } : {}),
          } satisfies UpsertMediaRef,
        },
      ];
    }),
  );
  return entries.sort((a, b) => a.order - b.order || a.position - b.position).map((e) => e.ref);
}
