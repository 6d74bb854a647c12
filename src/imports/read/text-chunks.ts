import { AppError } from '../../kernel/app-error';
import { bomLength, characterBoundary, decoderFor, type TextEncodingName } from './text-encodings';

/**
 * Reads an R2 object from a byte offset as text chunks that each know the byte offset they
 * start at. Chunks are cut at character boundaries of the file's encoding (never inside a
 * multi-byte sequence or a surrogate pair; text-encodings.ts)
 * and decoded on their own, so a reader can turn a position inside a chunk back into an exact
 * byte offset: the resume point of an import that continues in another queue message.
 */
export interface TextChunk {
  text: string;
  /** Byte offset of the chunk's first character in the object. */
  byteStart: number;
  /**
   * UTF-8 whose every byte is ASCII (as many UTF-16 units as bytes): a position in the text is
   * then its byte count, and the readers skip counting UTF-8 lengths character by character
   * (1 % of a BMEcat import's Worker profile: docs/benchmarks.md "Import throughput").
   */
  ascii: boolean;
}

/** A file that is not what the import expects; the job fails with this message (it names the line). */
export class ImportFileError extends AppError {
  constructor(message: string) {
    super('bad_request', message);
  }
}

export type { TextEncodingName };

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

/** UTF-8 bytes of `text` from `start` to `end` in a chunk: the count itself when the chunk is ASCII. */
export function chunkBytes(chunk: TextChunk, start: number, end: number): number {
  return chunk.ascii ? end - start : utf8Length(chunk.text, start, end);
}

/**
 * Bytes asked of R2 per range read. A slice stops reading long before the end of a large file;
 * an open-ended range (`offset` to the end) let local R2 stream a multipart object far past what
 * the slice consumed (docs/benchmarks.md "Does the cost per product grow with the catalog?"),
 * so the file is read in bounded windows, each one ranged GET.
 */
const WINDOW_BYTES = 8 * 1024 * 1024;

/**
 * Bytes asked of an R2 body per read. Local R2 hands its bodies on in 4 KiB pieces; each piece
 * was an await, a decoder call and a parser write of its own (the await per piece alone was
 * 2 % of a BMEcat import's Worker profile: docs/benchmarks.md "Import throughput, part 9"). A
 * BYOB read fills this much in one await; a body without BYOB reads gives its own pieces.
 */
export const PIECE_BYTES = 64 * 1024;

/** The next bytes of a body (at most PIECE_BYTES per read when it allows BYOB reads), or null at its end. */
function pieceReader(body: ReadableStream<Uint8Array>): {
  next(): Promise<Uint8Array | null>;
  cancel(): Promise<void>;
} {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = body.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream (a body made in JavaScript): its pieces as they come.
  }
  // `readAtLeast` is workerd's (R2 bodies have it); a byte stream elsewhere is read piece by piece.
  if (byob && typeof byob.readAtLeast !== 'function') {
    byob.releaseLock();
    byob = null;
  }
  if (byob) {
    const reader = byob;
    return {
      async next() {
        const { value } = await reader.readAtLeast(PIECE_BYTES, new Uint8Array(PIECE_BYTES));
        // The last read before the end may be shorter than asked; an empty one is the end.
        return value && value.length > 0 ? value : null;
      },
      cancel: () => reader.cancel(),
    };
  }
  const reader = body.getReader();
  return {
    async next() {
      const { done, value } = await reader.read();
      return done ? null : value;
    },
    cancel: () => reader.cancel(),
  };
}

export async function* readTextChunks(
  files: R2Bucket,
  key: string,
  offset: number,
  encoding: TextEncodingName,
): AsyncGenerator<TextChunk> {
  const head = await files.head(key);
  if (!head) throw new ImportFileError('the uploaded file is gone; upload it again');
  // Resuming right at the end of the file (after its last record): R2 refuses an empty range.
  if (offset >= head.size && offset > 0) return;
  const decode = decoderFor(encoding);
  let carry = new Uint8Array(0);
  let position = offset;
  for (let start = offset; start < head.size || (start === 0 && head.size === 0); start += WINDOW_BYTES) {
    const length = Math.min(WINDOW_BYTES, head.size - start);
    const object = await files.get(key, length > 0 ? { range: { offset: start, length } } : undefined);
    if (!object) throw new ImportFileError('the uploaded file is gone; upload it again');
    const reader = pieceReader(object.body);
    try {
      for (;;) {
        const value = await reader.next();
        if (!value) break;
        let bytes = value;
        if (carry.length > 0) {
          bytes = new Uint8Array(carry.length + value.length);
          bytes.set(carry);
          bytes.set(value, carry.length);
        }
        let cut = characterBoundary(bytes, encoding);
        // A byte-order mark at the very start is not content.
        const skip = position === 0 ? bomLength(bytes, encoding) : 0;
        if (skip > cut) cut = Math.min(bytes.length, skip);
        const piece = bytes.subarray(skip, cut);
        carry = bytes.slice(cut);
        let text: string;
        try {
          text = decode(piece);
        } catch {
          throw new ImportFileError(`the file is not valid UTF-8 near byte ${position + skip}`);
        }
        yield { text, byteStart: position + skip, ascii: encoding === 'utf-8' && text.length === piece.length };
        position += cut;
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    if (head.size === 0) break;
  }
  if (carry.length > 0)
    throw new ImportFileError(
      `the file is not valid ${encoding.startsWith('utf-16') ? 'UTF-16' : 'UTF-8'}: it ends inside a character (byte ${position})`,
    );
}

/** The first bytes of an object (format detection: see decodeHead). */
export async function readHead(files: R2Bucket, key: string, length = 65536): Promise<Uint8Array> {
  const object = await files.get(key, { range: { offset: 0, length } });
  if (!object) throw new ImportFileError('the uploaded file is gone; upload it again');
  return new Uint8Array(await object.arrayBuffer());
}
