import { bodyHash } from '../../../src/sync/protocol/signing';
import type { ImageMessage } from '../env';
import type { MediaRow, ShopStore } from '../store/shop-store';
import { REQUEUE_PENDING_AFTER_MS } from './plan-images';

/** R2 key of an image: its content hash, so one object serves every product that shows it. */
export const mediaKey = (sha256: string) => `media/${sha256}`;
/** Largest image the connector fetches. */
export const MAX_IMAGE_BYTES = 50 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 60_000;

/** Exponential backoff of the queue retries: 30 s, 60 s, 120 s, 240 s, ... at most an hour. */
function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}

/** Sends one message per hash (Queues take at most 100 messages per sendBatch). */
export async function enqueueImages(queue: Queue<ImageMessage>, hashes: string[]): Promise<void> {
  try {
    for (let i = 0; i < hashes.length; i += 100) {
      await queue.sendBatch(hashes.slice(i, i + 100).map((sha256) => ({ body: { sha256 } })));
    }
  } catch (err) {
    // The batch is committed and its images are pending: the re-queue sweep picks them up.
    console.error(JSON.stringify({ event: 'image_enqueue_failed', count: hashes.length, error: String(err) }));
  }
}

/** A failure that another try will not fix (the URL is refused or gone, or the image too big). */
class PermanentImageError extends Error {}

function isPermanentStatus(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408 && status !== 425 && status !== 429;
}

async function fetchVerified(row: MediaRow, fetcher: typeof fetch): Promise<ArrayBuffer> {
  const response = await fetcher(row.url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) {
    await response.body?.cancel();
    const reason = `the image URL answered HTTP ${response.status}`;
    throw isPermanentStatus(response.status) ? new PermanentImageError(reason) : new Error(reason);
  }
  if (Number(response.headers.get('Content-Length') ?? 0) > MAX_IMAGE_BYTES) {
    await response.body?.cancel();
    throw new PermanentImageError(`the image is larger than ${MAX_IMAGE_BYTES} bytes`);
  }
  const bytes = await response.arrayBuffer();
  if (bytes.byteLength > MAX_IMAGE_BYTES)
    throw new PermanentImageError(`the image is larger than ${MAX_IMAGE_BYTES} bytes`);
  if ((await bodyHash(bytes)) !== row.sha256) throw new Error('the fetched bytes do not match the sha256');
  return bytes;
}

interface ImageDeps {
  store: ShopStore;
  bucket: R2Bucket;
  fetcher?: typeof fetch;
}

/** Fetches, verifies and stores one image; acks or retries its message. */
async function processImage(message: Message<ImageMessage>, deps: ImageDeps): Promise<void> {
  const sha256 = message.body.sha256;
  const row = await deps.store.media(sha256);
  // Stored: never fetched again. Failed: given up until a batch references the hash again.
  if (!row || row.state !== 'pending') return message.ack();
  const existing = await deps.bucket.head(mediaKey(sha256));
  if (existing) {
    await deps.store.markMediaStored(sha256, existing.size);
    return message.ack();
  }
  try {
    const bytes = await fetchVerified(row, deps.fetcher ?? fetch);
    await deps.bucket.put(mediaKey(sha256), bytes, {
      httpMetadata: { contentType: row.contentType },
      sha256,
      customMetadata: { fileName: row.fileName },
    });
    await deps.store.markMediaStored(sha256, bytes.byteLength);
    message.ack();
  } catch (err) {
    const reason = !(err instanceof Error)
      ? String(err)
      : err.name === 'TimeoutError'
        ? 'the image URL did not answer in time'
        : err.message;
    if (err instanceof PermanentImageError) {
      await deps.store.markMediaFailed(sha256, reason);
      return message.ack();
    }
    await deps.store.recordMediaAttempt(sha256, message.attempts, reason);
    message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
  }
}

export async function processImageBatch(batch: MessageBatch<ImageMessage>, deps: ImageDeps): Promise<void> {
  for (const message of batch.messages) await processImage(message, deps);
}

/** Messages that used up their tries: the image is failed with the last reason. */
export async function deadLetterImages(batch: MessageBatch<ImageMessage>, store: ShopStore): Promise<void> {
  for (const message of batch.messages) {
    const row = await store.media(message.body.sha256);
    if (row?.state === 'pending') {
      await store.markMediaFailed(
        row.sha256,
        `gave up after ${row.attempts} tries: ${row.lastError ?? 'unknown error'}`,
      );
    }
    message.ack();
  }
}

/** Pending images whose message was lost are queued again (Cron Trigger, connector/wrangler.toml). */
export async function requeueStaleImages(
  store: ShopStore,
  queue: Queue<ImageMessage>,
  now = new Date(),
  staleAfterMs = REQUEUE_PENDING_AFTER_MS,
): Promise<number> {
  const before = new Date(now.getTime() - staleAfterMs).toISOString();
  let total = 0;
  for (let round = 0; round < 10; round++) {
    const hashes = await store.claimStalePendingMedia(before, 500);
    if (hashes.length > 0) await enqueueImages(queue, hashes);
    total += hashes.length;
    if (hashes.length < 500) break;
  }
  return total;
}
