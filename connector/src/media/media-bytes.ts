import { bodyHash } from '../../../src/sync/protocol/signing';
import type { MediaLink, MediaRef } from '../../../src/sync/protocol/wire';
import { refusedUrlReason } from '../targets/url-guard';
import { MAX_IMAGE_BYTES, mediaKey } from './image-queue';

const FETCH_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 3;

/** An image the connector cannot hand to an adapter; the message is plain and safe to show. */
export class MediaError extends Error {}

export interface FetchDeps {
  fetcher: typeof fetch;
  allowPrivate: boolean;
}

interface MediaBytesDeps extends FetchDeps {
  bucket: R2Bucket;
}

/**
 * Follows redirects by hand so that every hop passes the SSRF rule, not only the first URL.
 * `headers` go with every hop (a conditional request's validators).
 */
export async function fetchChecked(url: string, deps: FetchDeps, headers?: HeadersInit): Promise<Response> {
  let next = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const refused = refusedUrlReason(next, deps.allowPrivate);
    if (refused) throw new MediaError(`the image URL is refused: ${refused}`);
    let response: Response;
    try {
      response = await deps.fetcher(next, {
        redirect: 'manual',
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
        ...(headers ? { headers } : {}),
      });
    } catch {
      throw new MediaError('the image URL could not be reached');
    }
    const location = response.headers.get('Location');
    if (response.status < 300 || response.status >= 400 || !location) return response;
    await response.body?.cancel();
    next = new URL(location, next).toString();
  }
  throw new MediaError('the image URL redirects too often');
}

/** An image's bytes from its URL under the SSRF rule, refused when the answer is not 2xx or too large. */
async function fetchImage(url: string, deps: FetchDeps): Promise<ArrayBuffer> {
  return imageBytesOf(await fetchChecked(url, deps));
}

/** The bytes of an image answer, refused when it is not 2xx or larger than the limit. */
export async function imageBytesOf(response: Response): Promise<ArrayBuffer> {
  if (!response.ok) {
    await response.body?.cancel();
    throw new MediaError(`the image URL answered HTTP ${response.status}`);
  }
  if (Number(response.headers.get('Content-Length') ?? 0) > MAX_IMAGE_BYTES) {
    await response.body?.cancel();
    throw new MediaError(`the image is larger than ${MAX_IMAGE_BYTES} bytes`);
  }
  const bytes = await response.arrayBuffer();
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new MediaError(`the image is larger than ${MAX_IMAGE_BYTES} bytes`);
  return bytes;
}

/**
 * `WriteContext.mediaBytes`: an image's bytes from the connector's R2 (`media/<sha256>`, every
 * image is fetched once), else fetched from its URL under the SSRF rule, checked against the
 * size limit and its sha256, and kept in R2 for the next product and the next target.
 */
export function createMediaBytes(deps: MediaBytesDeps): (ref: MediaRef) => Promise<Blob> {
  return async (ref) => {
    const stored = await deps.bucket.get(mediaKey(ref.sha256));
    if (stored) return new Blob([await stored.arrayBuffer()], { type: ref.contentType });
    const bytes = await fetchImage(ref.url, deps);
    if ((await bodyHash(bytes)) !== ref.sha256) throw new MediaError('the image bytes do not match its sha256');
    await deps.bucket.put(mediaKey(ref.sha256), bytes, {
      httpMetadata: { contentType: ref.contentType },
      sha256: ref.sha256,
      customMetadata: { fileName: ref.fileName },
    });
    return new Blob([bytes], { type: ref.contentType });
  };
}

/**
 * `WriteContext.linkBytes`: a media link's bytes (a category picture a shop stores itself),
 * fetched from its URL under the same SSRF rule, redirect and size limits as `mediaBytes`. A
 * link has no content hash to check or to key R2 by, so nothing is kept: adapters fetch a link
 * only when the shop does not hold its asset yet.
 */
export function createLinkBytes(deps: FetchDeps): (link: MediaLink) => Promise<Blob> {
  return async (link) => new Blob([await fetchImage(link.url, deps)], { type: link.contentType });
}
