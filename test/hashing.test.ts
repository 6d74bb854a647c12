import { describe, expect, it } from 'vitest';
import { hexOf, sha256Hex } from '../src/kernel/hashing';

describe('sha256Hex', () => {
  it('answers the lower-case hex digest (FIPS 180-2 test vectors)', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes the UTF-8 bytes of the text', async () => {
    const bytes = new TextEncoder().encode('Größe ≥ 5 mm');
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
    const expected = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
    expect(await sha256Hex('Größe ≥ 5 mm')).toBe(expected);
  });
});

describe('hexOf', () => {
  it('writes two digits per byte, with leading zeros', () => {
    expect(hexOf(new Uint8Array([0, 1, 15, 16, 127, 128, 254, 255]))).toBe('00010f107f80feff');
    expect(hexOf(new Uint8Array([]))).toBe('');
  });
});
