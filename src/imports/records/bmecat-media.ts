import type { UpsertMediaRef } from '../../catalog/upsert/upsert-types';
import { isLinkUrl } from '../../media/media-links.rules';
import { attachmentProblem, compactAttachment } from '../../kernel/media-attachment';
import { escapeXmlAttr, escapeXmlText } from '../../exports/bmecat/xml-text';
import { child, children, textOf, type XmlNode } from '../read/xml-node';
import { textsByLanguage, type FileLanguages } from '../read/file-languages';

/**
 * MIME_PURPOSE of the ETIM guideline's MIME codes (UDX.EDXF.MIME_CODE) the model has a purpose
 * for; the code itself is kept on the link, so an ETIM export writes it back unchanged.
 */
const PURPOSE_OF_CODE: Record<string, string> = {
  MD01: 'normal',
  MD02: 'normal',
  MD03: 'safety_data_sheet',
  MD22: 'data_sheet',
  MD23: 'logo',
};

/**
 * UDX elements the model represents: read into it, not kept as verbatim UDX (the modelling
 * class is a feature block, bmecat-modelling.ts).
 */
const REPRESENTED_UDX = new Set(['UDX.EDXF.MIME_INFO', 'UDX.EDXF.PRODUCT_FEATURES_MC']);

/** Kept UDX larger than this is not kept (a product's extensions are small; a huge block is an error). */
const MAX_UDX_CHARS = 64_000;

/** The last segment of a path or URL (after its last slash or backslash), without a regex split. */
const baseName = (source: string) => source.slice(Math.max(source.lastIndexOf('/'), source.lastIndexOf('\\')) + 1);

interface Entry {
  order: number;
  ref: UpsertMediaRef;
}

/** One MIME source: an absolute http(s) URL becomes a link, anything else a file reference by name. */
function sourceRef(source: string, fileName: string | null): Pick<UpsertMediaRef, 'fileName' | 'url'> {
  return isLinkUrl(source)
    ? { fileName: fileName ? baseName(fileName) : '', url: source }
    : { fileName: baseName(fileName ?? source), url: null };
}

/**
 * A MIME's MIME_DESCR per language (docs/languages.md "Imports"): the catalog's default
 * language's text is the description, every other language's a description translation.
 */
function descriptionsOf(mime: XmlNode, languages: FileLanguages | undefined) {
  if (!languages) return { description: textOf(mime, 'MIME_DESCR') };
  const written = children(mime, 'MIME_DESCR');
  // Most MIMEs have no description: no map of languages for them.
  if (written.length === 0) return { description: null };
  const byLanguage = textsByLanguage(written, languages);
  const description = byLanguage.get(languages.catalogLanguage)?.[0] ?? null;
  byLanguage.delete(languages.catalogLanguage);
  if (byLanguage.size === 0) return { description };
  return { description, descriptions: Object.fromEntries([...byLanguage].map(([l, texts]) => [l, texts[0]!])) };
}

/**
 * The guideline's UDX.EDXF.MIME_ISSUE_DATE / _EXPIRY_DATE as the entry's attachment dates
 * (kernel/media-attachment.ts, as xChange's AttachmentIssueDate / ExpiryDate); a text that is no
 * date, or an expiry before the issue, is not kept.
 */
function datesOf(mime: XmlNode): Pick<UpsertMediaRef, 'attachment'> {
  const date = (name: string) => {
    const text = textOf(mime, name)?.trim();
    return text && /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : undefined;
  };
  const attachment = compactAttachment({
    issueDate: date('UDX.EDXF.MIME_ISSUE_DATE'),
    expiryDate: date('UDX.EDXF.MIME_EXPIRY_DATE'),
  });
  return attachment && !attachmentProblem(attachment) ? { attachment } : {};
}

/**
 * A product's media list: MIME_INFO/MIME and the ETIM guideline's UDX.EDXF.MIME_INFO, in
 * MIME_ORDER. A URL named by both (an export of ours writes links with a MIME code in both
 * places) is one entry: the MIME one, with the UDX one's code. MIME_DESCR is read per language
 * when the file's `languages` are known.
 */
export function mediaOf(product: XmlNode, languages?: FileLanguages): UpsertMediaRef[] {
  const plain: Entry[] = children(child(product, 'MIME_INFO'), 'MIME').map((m) => ({
    order: Number(textOf(m, 'MIME_ORDER') ?? '0'),
    ref: {
      ...sourceRef(textOf(m, 'MIME_SOURCE') ?? '', null),
      contentType: textOf(m, 'MIME_TYPE'),
      purpose: textOf(m, 'MIME_PURPOSE'),
      ...descriptionsOf(m, languages),
      alt: textOf(m, 'MIME_ALT'),
    },
  }));
  const udxMimes = children(child(child(product, 'USER_DEFINED_EXTENSIONS'), 'UDX.EDXF.MIME_INFO'), 'UDX.EDXF.MIME');
  if (udxMimes.length === 0) return inOrder(plain);
  const udx: Entry[] = udxMimes.map((m) => {
    const code = textOf(m, 'UDX.EDXF.MIME_CODE');
    const fileName = textOf(m, 'UDX.EDXF.MIME_FILENAME');
    return {
      order: Number(textOf(m, 'UDX.EDXF.MIME_ORDER') ?? '0'),
      ref: {
        ...sourceRef(textOf(m, 'UDX.EDXF.MIME_SOURCE') ?? fileName ?? '', fileName),
        contentType: null,
        purpose: PURPOSE_OF_CODE[code ?? ''] ?? 'others',
        description: textOf(m, 'UDX.EDXF.MIME_DESIGNATION'),
        mimeCode: code,
        alt: textOf(m, 'UDX.EDXF.MIME_ALT'),
        ...datesOf(m),
      },
    };
  });
  const byUrl = new Map(plain.filter((e) => e.ref.url).map((e) => [e.ref.url!, e]));
  const extra = udx.filter((e) => {
    const twin = e.ref.url ? byUrl.get(e.ref.url) : undefined;
    if (!twin) return true;
    twin.ref.mimeCode = e.ref.mimeCode;
    if (e.ref.attachment) twin.ref.attachment = e.ref.attachment;
    return false;
  });
  return inOrder([...plain, ...extra]);
}

/** The entries that name a file or link, in MIME_ORDER (stable: file order among equal ones). */
function inOrder(entries: Entry[]): UpsertMediaRef[] {
  return entries
    .filter((m) => m.ref.fileName !== '' || m.ref.url)
    .sort((a, b) => (Number.isFinite(a.order) ? a.order : 0) - (Number.isFinite(b.order) ? b.order : 0))
    .map((m) => m.ref);
}

/** Compact XML of a node as written (prefixed names kept; whitespace between elements dropped). */
function xmlOf(node: XmlNode): string {
  const name = node.qname ?? node.name;
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${escapeXmlAttr(v)}"`)
    .join('');
  const text = node.children.length > 0 && node.text.trim() === '' ? '' : escapeXmlText(node.text);
  const inner = text + node.children.map(xmlOf).join('');
  return inner === '' ? `<${name}${attrs}/>` : `<${name}${attrs}>${inner}</${name}>`;
}

/**
 * The product's USER_DEFINED_EXTENSIONS content as verbatim XML, without what the model reads
 * (UDX.EDXF.MIME_INFO, UDX.EDXF.PRODUCT_FEATURES_MC, and the elements in `read`: what this product's
 * mapping read into the model); null when there is none or it is too large to keep.
 */
export function udxOf(product: XmlNode, read: readonly string[] = []): string | null {
  const udx = child(product, 'USER_DEFINED_EXTENSIONS');
  if (!udx) return null;
  const xml = udx.children
    .filter((c) => !REPRESENTED_UDX.has(c.name) && !read.includes(c.name))
    .map(xmlOf)
    .join('');
  return xml === '' || xml.length > MAX_UDX_CHARS ? null : xml;
}
