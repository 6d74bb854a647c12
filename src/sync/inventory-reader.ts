import { AppError } from '../kernel/app-error';
import { compareSkus } from './protocol/sku-order';
import { INVENTORY_COUNT_HEADER, type InventoryLine } from './protocol/wire';

/**
 * The connector's inventory cannot be trusted for this run: it ended early, broke its JSON or
 * its order. The run stops before any deactivation (docs/sync.md "Safety").
 */
class InventoryAbort extends AppError {
  constructor(reason: string) {
    super('conflict', `the shop's inventory is not usable (${reason}); the run stopped and nothing was deactivated`);
  }
}

/**
 * Reads one GET /inventory answer line by line from the response body: only the current chunk
 * and one line are ever in memory. Checks every line's shape, strict SKU byte order (also
 * against `after`), and at the natural end that exactly `X-Inventory-Count` lines came.
 */
export class InventoryReader {
  readonly expected: number;
  private readonly reader: ReadableStreamDefaultReader<string>;
  private buffer = '';
  private lines: string[] = [];
  private position = 0;
  private ended = false;
  private previous: string | null;
  /** Lines delivered so far by this response. */
  count = 0;

  constructor(response: Response, after: string | null) {
    const header = response.headers.get(INVENTORY_COUNT_HEADER);
    if (header === null || !/^\d+$/.test(header.trim()))
      throw new InventoryAbort(`missing or invalid ${INVENTORY_COUNT_HEADER} header`);
    if (!response.body) throw new InventoryAbort('empty body');
    this.expected = Number(header.trim());
    this.previous = after;
    this.reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** The next line, or null at the verified end of the inventory. */
  async next(): Promise<InventoryLine | null> {
    for (;;) {
      if (this.position < this.lines.length) {
        const text = this.lines[this.position++]!;
        if (text.trim() === '') continue;
        return this.accept(text);
      }
      if (this.ended) return this.finish();
      let chunk: ReadableStreamReadResult<string>;
      try {
        chunk = await this.reader.read();
      } catch {
        throw new InventoryAbort(`the stream broke after ${this.count} of ${this.expected} lines`);
      }
      if (chunk.done) {
        this.ended = true;
        this.lines = this.buffer === '' ? [] : [this.buffer];
        this.position = 0;
        this.buffer = '';
        continue;
      }
      const parts = (this.buffer + chunk.value).split('\n');
      this.buffer = parts.pop() ?? '';
      this.lines = parts;
      this.position = 0;
    }
  }

  private accept(text: string): InventoryLine {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new InventoryAbort(`line ${this.count + 1} is not JSON`);
    }
    // The shape of `inventoryLineSchema`, checked by hand: this runs once per line of the shop.
    const line = parsed as Partial<InventoryLine> | null;
    if (
      typeof line?.sku !== 'string' ||
      line.sku === '' ||
      typeof line.fingerprint !== 'string' ||
      line.fingerprint === ''
    ) {
      throw new InventoryAbort(`line ${this.count + 1} is not {sku, fingerprint}`);
    }
    if (this.previous !== null && compareSkus(this.previous, line.sku) >= 0) {
      throw new InventoryAbort(`line ${this.count + 1} is out of SKU byte order`);
    }
    this.previous = line.sku;
    this.count++;
    if (this.count > this.expected) throw new InventoryAbort(`more lines than the announced ${this.expected}`);
    return { sku: line.sku, fingerprint: line.fingerprint };
  }

  private finish(): null {
    if (this.count !== this.expected)
      throw new InventoryAbort(`it ended after ${this.count} of ${this.expected} lines`);
    return null;
  }

  /** Stops reading early (end of a time slice); the connection is released. */
  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}
