/**
 * Slugs and short codes every adapter derives from PIM data: pure functions of their input,
 * so a second run finds what the first created.
 */

/** Lower-case ASCII words joined by `-` (`ß` -> `ss`, accents dropped). */
export function slugify(text: string): string {
  return text
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A short, stable hash (FNV-1a, 2 x 32 bits, 12 hex digits) for codes: deterministic, no crypto needed. */
export function shortHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0').slice(0, 4);
}

/**
 * A SKU as a slug that no other SKU shares: the slug itself when the SKU is already one (in
 * lower case), else the slug (or `sku`) with a hash of the SKU, so `A.1` and `A-1` differ.
 */
export function skuSlug(sku: string): string {
  const slug = slugify(sku);
  if (slug !== '' && slug === sku.toLowerCase()) return slug;
  return `${slug || 'sku'}-${shortHash(sku)}`;
}

/** A slug with a stable code of the whole text, for names that may slug alike (`Schalter & Dosen`). */
export function codeOf(text: string, max = 40, fallback = 'v'): string {
  return `${slugify(text).slice(0, max) || fallback}-${shortHash(text)}`;
}
