/**
 * Writes a stream of text into an R2 multipart upload. R2 requires every part but the last to
 * have the same size, so output is cut into parts of exactly PART_SIZE bytes; what is left
 * over (the carry) waits for more text or becomes the last part.
 */
export const PART_SIZE = 5 * 1024 * 1024;

export class PartWriter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly upload: R2MultipartUpload,
    readonly parts: R2UploadedPart[],
    carry: Uint8Array,
    private readonly partSize = PART_SIZE,
  ) {
    if (carry.byteLength > 0) {
      this.pending.push(carry);
      this.pendingBytes = carry.byteLength;
    }
  }

  /** Bytes written so far, uploaded or not. */
  get size(): number {
    return this.parts.length * this.partSize + this.pendingBytes;
  }

  async write(text: string): Promise<void> {
    if (text.length === 0) return;
    const bytes = this.encoder.encode(text);
    this.pending.push(bytes);
    this.pendingBytes += bytes.byteLength;
    while (this.pendingBytes >= this.partSize) await this.uploadPart(this.take(this.partSize));
  }

  /** The bytes not yet uploaded (less than one part). */
  carry(): Uint8Array {
    return this.take(this.pendingBytes, false);
  }

  /** Uploads the carry as the last part and completes the object. */
  async finish(): Promise<R2Object> {
    if (this.pendingBytes > 0 || this.parts.length === 0) await this.uploadPart(this.take(this.pendingBytes));
    return this.upload.complete(this.parts);
  }

  private async uploadPart(bytes: Uint8Array): Promise<void> {
    const part = await this.upload.uploadPart(this.parts.length + 1, bytes);
    this.parts.push(part);
  }

  private take(count: number, consume = true): Uint8Array {
    const out = new Uint8Array(count);
    let offset = 0;
    let i = 0;
    while (offset < count) {
      const chunk = this.pending[i]!;
      const n = Math.min(chunk.byteLength, count - offset);
      out.set(chunk.subarray(0, n), offset);
      offset += n;
      if (consume) {
        if (n === chunk.byteLength) {
          i++;
        } else {
          this.pending[i] = chunk.subarray(n);
        }
      } else {
        i++;
      }
    }
    if (consume) {
      this.pending = this.pending.slice(i);
      this.pendingBytes -= count;
    }
    return out;
  }
}
