/**
 * Rules of media links (docs/data-model.md, "Media"): a link is a media row whose `url` is the
 * absolute http(s) address of a file kept elsewhere. One home for what makes a URL a link, the
 * name a link shows, and the key that identifies an entry of an element's media list, so the
 * REST operations, the upsert (imports, UpsertProducts) and the exports agree.
 */

/** Longest URL kept: BMEcat's own MIME_SOURCE slots are shorter; the export warns and cuts there. */
export const MAX_LINK_URL = 2000;

/** True for an absolute http or https URL with a host (what BMEcat's MIME_SOURCE holds for a link). */
export function isLinkUrl(source: string): boolean {
  // Most sources are file names: no `http:` / `https:`, no URL to parse (a failed `new URL` throws,
  // and that cost a BMEcat import of 100,000 pictures seconds of CPU).
  if (source.length > MAX_LINK_URL || !/^https?:/i.test(source) || /\s/.test(source)) return false;
  try {
    const url = new URL(source);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The file name a link shows: the last path segment of its URL (decoded), else the host. */
export function linkFileName(url: string): string {
  const parsed = new URL(url);
  const last = parsed.pathname
    .split('/')
    .filter((s) => s !== '')
    .pop();
  let name = last ?? parsed.hostname;
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape stays as written.
  }
  const clean = name.replace(/[/\\\u0000-\u001f]/g, '_').slice(0, 200);
  return clean === '' ? parsed.hostname : clean;
}

/** What identifies an entry of an element's media list: a link by its URL, a file by its name. */
export function mediaKey(entry: { url?: string | null; fileName: string }): string {
  return entry.url ? `url:${entry.url}` : `file:${entry.fileName}`;
}

/** Storage key of a link row: the column is NOT NULL, no object is ever stored under it. */
export function linkStorageKey(companyId: string, mediaId: string): string {
  return `media-link/${companyId}/${mediaId}`;
}
