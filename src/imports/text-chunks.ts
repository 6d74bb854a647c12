import { AppError } from '../kernel/app-error';

/**
 * Reads an R2 object from a byte offset as text chunks that each know the byte offset they
 * start at. Chunks are cut at UTF-8 character boundaries (never inside a multi-byte sequence)
 * and decoded on their own, so a reader can turn a position inside a chunk back into an exact
 * byte offset: the resume point of an import that continues in another queue message.
 */
interface TextChunk {
  text: string;
  /** Byte offset of the chunk's first character in the object. */
  byteStart: number;
}

/** A file that is not what the import expects; the job fails with this message (it names the line). */
export class ImportFileError extends AppError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

export type TextEncodingName = 'utf-8' | 'latin1';

/** Length in UTF-8 bytes of `text` (or of its first `end` UTF-16 units). */
export function utf8Length(text: string, start = 0, end = text.length): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Where the last complete UTF-8 character of `bytes` ends. */
function utf8Boundary(bytes: Uint8Array): number {
  let i = bytes.length;
  // Step back over continuation bytes (10xxxxxx) to the lead byte of the last character.
  let back = 0;
  while (i > 0 && back < 4 && (bytes[i - 1]! & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i === 0) return bytes.length;
  const lead = bytes[i - 1]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return back + 1 >= need ? bytes.length : i - 1;
}

/** Decodes ISO-8859-1 (each byte is the code point of the same number). */
function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return out;
}

export async function* readTextChunks(
  files: R2Bucket,
  key: string,
  offset: number,
  encoding: TextEncodingName,
): AsyncGenerator<TextChunk> {
  if (offset > 0) {
    // Resuming right at the end of the file (after its last record): R2 refuses an empty range.
    const head = await files.head(key);
    if (head && offset >= head.size) return;
  }
  const object = await files.get(key, offset > 0 ? { range: { offset } } : undefined);
  if (!object) throw new ImportFileError('the uploaded file is gone; upload it again');
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const reader = object.body.getReader();
  let carry = new Uint8Array(0);
  let position = offset;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let bytes = value;
      if (carry.length > 0) {
        bytes = new Uint8Array(carry.length + value.length);
        bytes.set(carry);
        bytes.set(value, carry.length);
      }
      let cut = encoding === 'utf-8' ? utf8Boundary(bytes) : bytes.length;
      // A byte-order mark at the very start is not content.
      const skip = position === 0 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
      if (skip > cut) cut = Math.min(bytes.length, skip);
      const piece = bytes.subarray(skip, cut);
      carry = bytes.slice(cut);
      let text: string;
      try {
        text = encoding === 'utf-8' ? decoder.decode(piece) : latin1(piece);
      } catch {
        throw new ImportFileError(`the file is not valid UTF-8 near byte ${position + skip}`);
      }
      yield { text, byteStart: position + skip };
      position += cut;
    }
    if (carry.length > 0) throw new ImportFileError('the file ends inside a UTF-8 character');
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The first bytes of an object (format detection), decoded leniently. */
export async function readHead(files: R2Bucket, key: string, length = 4096): Promise<string> {
  const object = await files.get(key, { range: { offset: 0, length } });
  if (!object) throw new ImportFileError('the uploaded file is gone; upload it again');
  return new TextDecoder('utf-8').decode(await object.arrayBuffer());
}
