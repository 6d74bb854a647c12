/** Bytes to and from base64 and base64url (unpadded), the encodings of stored secrets, hashes and cursors. */
export function bytesToBase64(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = '';
  for (const byte of view) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The bytes of base64 text; throws (atob's DOMException) on text that is not base64. */
export const base64ToBytes = (text: string): Uint8Array => Uint8Array.from(atob(text), (ch) => ch.charCodeAt(0));

export const bytesToBase64Url = (bytes: ArrayBuffer | Uint8Array): string =>
  bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The bytes of base64url (or base64) text; throws on text that is neither. */
export const base64UrlToBytes = (text: string): Uint8Array => base64ToBytes(text.replace(/-/g, '+').replace(/_/g, '/'));
