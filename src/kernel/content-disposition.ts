/**
 * `Content-Disposition` with an ASCII `filename` for old clients and the exact name as
 * RFC 6266 / RFC 8187 `filename*` (UTF-8, percent-encoded), so non-ASCII names survive and
 * no name can break out of the header. A plain ASCII name needs only `filename`.
 */
export function contentDisposition(type: 'inline' | 'attachment', fileName: string): string {
  const ascii =
    fileName
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\x20-\x7e]|["\\%;]/g, '_')
      .trim() || 'file';
  if (ascii === fileName) return `${type}; filename="${ascii}"`;
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
