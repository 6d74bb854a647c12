import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { chunkBytes, PIECE_BYTES, readTextChunks, utf8Length } from '../src/imports/read/text-chunks';

/** The read windows are 8 MiB (text-chunks.ts): files here cross that boundary. */
const WINDOW = 8 * 1024 * 1024;

async function readAll(key: string, offset: number, encoding: 'utf-8' | 'utf-16le') {
  const chunks: { text: string; byteStart: number; ascii: boolean }[] = [];
  for await (const chunk of readTextChunks(env.FILES, key, offset, encoding)) chunks.push(chunk);
  return chunks;
}

describe('readTextChunks over several range windows', () => {
  it('reads a UTF-8 file whose two-byte character straddles the 8 MiB window whole, from the start and from an offset', async () => {
    // 'ä' (0xC3 0xA4) at bytes WINDOW-1 and WINDOW: the first window ends inside it.
    const text = `${'a'.repeat(WINDOW - 1)}ä${'b'.repeat(1000)}ö`;
    const key = `test/chunks-${crypto.randomUUID()}.txt`;
    await env.FILES.put(key, new TextEncoder().encode(text));
    const whole = await readAll(key, 0, 'utf-8');
    expect(whole.map((c) => c.text).join('')).toBe(text);
    // The second window begins with the carried first byte of the character.
    expect(whole.some((c) => c.byteStart === WINDOW - 1)).toBe(true);
    // Each chunk starts where the bytes of the one before end: exact resume points.
    for (let i = 1; i < whole.length; i++)
      expect(whole[i]!.byteStart).toBe(whole[i - 1]!.byteStart + utf8Length(whole[i - 1]!.text));

    const from = WINDOW - 10;
    const tail = await readAll(key, from, 'utf-8');
    expect(tail[0]!.byteStart).toBe(from);
    expect(tail.map((c) => c.text).join('')).toBe(`${'a'.repeat(9)}ä${'b'.repeat(1000)}ö`);
  });

  it('marks the chunks that are all ASCII, and chunkBytes counts UTF-8 bytes in both kinds', async () => {
    // an ASCII first window, then one with umlauts: the readers count bytes only in the second
    const text = `${'a'.repeat(WINDOW)}${'ä'.repeat(1000)}b`;
    const key = `test/chunks-${crypto.randomUUID()}.txt`;
    await env.FILES.put(key, new TextEncoder().encode(text));
    const chunks = await readAll(key, 0, 'utf-8');
    expect(chunks.some((c) => c.ascii)).toBe(true);
    expect(chunks.some((c) => !c.ascii)).toBe(true);
    for (const chunk of chunks) {
      expect(chunk.ascii).toBe(!/[^\x00-\x7f]/.test(chunk.text));
      expect(chunkBytes(chunk, 0, chunk.text.length)).toBe(utf8Length(chunk.text));
      const middle = Math.floor(chunk.text.length / 2);
      expect(chunkBytes(chunk, middle, chunk.text.length)).toBe(utf8Length(chunk.text, middle));
    }
    // UTF-16 is never marked, even when its bytes are all ASCII: a position there is two bytes
    const even = `test/chunks-${crypto.randomUUID()}.txt`;
    await env.FILES.put(even, new TextEncoder().encode('ab'.repeat(100)));
    const utf16 = await readAll(even, 0, 'utf-16le');
    expect(utf16.length).toBeGreaterThan(0);
    expect(utf16.every((c) => !c.ascii)).toBe(true);
  });

  it('reads a UTF-16 file across the window boundary and skips its byte-order mark', async () => {
    const text = 'x'.repeat(WINDOW / 2 + 100);
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) bytes[2 + 2 * i] = text.charCodeAt(i);
    const key = `test/chunks-${crypto.randomUUID()}.txt`;
    await env.FILES.put(key, bytes);
    const chunks = await readAll(key, 0, 'utf-16le');
    expect(chunks.map((c) => c.text).join('')).toBe(text);
    expect(chunks[0]!.byteStart).toBe(2);
  });

  it('fails naming the byte when the file ends inside a character, and reads nothing at its end', async () => {
    const key = `test/chunks-${crypto.randomUUID()}.txt`;
    await env.FILES.put(key, new Uint8Array([0x61, 0xc3]));
    await expect(readAll(key, 0, 'utf-8')).rejects.toThrow(/ends inside a character \(byte 1\)/);
    expect(await readAll(key, 2, 'utf-8')).toEqual([]);
  });

  it("reads local R2 in pieces of PIECE_BYTES (one await each), not the body's own 4 KiB, cut only at characters", async () => {
    // 'ä' every 1,000 bytes: some pieces end inside one and carry its first byte on
    const text = `${'a'.repeat(999)}ä`.repeat(300);
    const key = `test/chunks-${crypto.randomUUID()}.txt`;
    await env.FILES.put(key, new TextEncoder().encode(text));
    const chunks = await readAll(key, 0, 'utf-8');
    expect(chunks.map((c) => c.text).join('')).toBe(text);
    for (const chunk of chunks.slice(0, -1)) expect(utf8Length(chunk.text)).toBeGreaterThan(PIECE_BYTES - 4);
    expect(chunks.length).toBe(Math.ceil(utf8Length(text) / PIECE_BYTES));
  });
});
