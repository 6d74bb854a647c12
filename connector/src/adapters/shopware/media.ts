import { MediaError } from '../../media/media-bytes';
import { TargetError, type TargetRecord, type WriteContext } from '../target-adapter';
import { type ShopwareClient, shopwareErrors } from './client';
import { type PictureContent, pictureBytes } from './pictures';
import type { RecordPlan } from './plan';
import type { SyncFailure } from './sync';

/**
 * Images after the sync: the media entities exist (their ids derived from the content hash, a
 * category picture's from the hash of the bytes behind its URL, pictures.ts), and a file is
 * uploaded only to a media entity that has none yet, through `POST /api/_action/media/{id}/upload`:
 * a product image with its URL (the PIM's, content-addressed: the shop fetches the bytes the hash
 * names), a category picture with the bytes the connector hashed as the request body
 * (`application/octet-stream`), so bytes changing behind a link never land under an id that
 * promises others. A picture whose bytes a product image of the batch has is uploaded once, by the
 * product image's URL. An image the mirror already lists, or one another product or category
 * brought, is never uploaded again: new bytes behind a category picture's URL are a new hash, so
 * a new media entity (the old one stays in the library).
 */
const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'image/tiff': 'tif',
  'image/avif': 'avif',
};

/** What an upload needs: the URL the shop fetches or the bytes to send, the type and names. */
interface Source {
  contentType: string;
  fileName: string;
  /** Unique per file in the shop's media: the content hash. */
  name: string;
  /** A product image: the URL the shop fetches. */
  url?: string;
  /** A category picture: its bytes (read now if not before planning). */
  bytes?: () => Promise<ArrayBuffer>;
}

interface Pending {
  source: Source;
  owners: { index: number; field: string }[];
}

export async function uploadMissingMedia(
  client: ShopwareClient,
  plans: [number, RecordPlan][],
  records: TargetRecord[],
  pictures: Map<string, PictureContent | Error>,
  linkBytes: WriteContext['linkBytes'],
  now: Map<number, TargetRecord> = new Map(records.map((r) => [r.index, r])),
): Promise<Map<number, SyncFailure>> {
  const pending = new Map<string, Pending>();
  for (const [index, plan] of plans) {
    const known = now.get(index)?.known?.media ?? {};
    const need = (mediaId: string, source: Source, field: string) => {
      const entry = pending.get(mediaId) ?? { source, owners: [] };
      // A product image's URL serves the same bytes as a picture's body, without a fetch here.
      if (source.url && !entry.source.url) entry.source = source;
      entry.owners.push({ index, field });
      pending.set(mediaId, entry);
    };
    for (const [sha, m] of plan.media) {
      if (known[sha] !== m.mediaId) need(m.mediaId, { ...m.ref, name: m.ref.sha256, url: m.ref.url }, m.field);
    }
    for (const [mediaId, image] of plan.categoryMedia) {
      const picture = pictures.get(image.link.url);
      if (!picture || picture instanceof Error) continue;
      const bytes = () => pictureBytes(picture, image.link, linkBytes);
      need(
        mediaId,
        { contentType: image.link.contentType, fileName: image.link.fileName, name: image.sha256, bytes },
        image.field,
      );
    }
  }
  const failures = new Map<number, SyncFailure>();
  if (pending.size === 0) return failures;

  const withFile = new Set(
    (
      await client.search<{ id: string; hasFile?: boolean }>('media', {
        ids: [...pending.keys()],
        includes: { media: ['id', 'hasFile'] },
        limit: pending.size,
      })
    )
      .filter((m) => m.hasFile)
      .map((m) => m.id),
  );
  for (const [mediaId, { source, owners }] of pending) {
    if (withFile.has(mediaId)) continue;
    const failure = await upload(client, mediaId, source);
    if (!failure) continue;
    for (const o of owners) if (!failures.has(o.index)) failures.set(o.index, { ...failure, field: o.field });
  }
  return failures;
}

async function upload(
  client: ShopwareClient,
  mediaId: string,
  source: Source,
): Promise<Omit<SyncFailure, 'field'> | null> {
  const extension =
    EXTENSIONS[source.contentType.toLowerCase()] ?? source.fileName.split('.').pop()?.toLowerCase() ?? 'bin';
  const path = `/_action/media/${mediaId}/upload?${new URLSearchParams({ extension, fileName: source.name })}`;
  try {
    const answer = source.url
      ? await client.request('POST', path, { url: source.url })
      : await client.upload(path, await (source.bytes as () => Promise<ArrayBuffer>)());
    if (answer.status >= 200 && answer.status < 300) return null;
    const detail = shopwareErrors(answer.body)
      .map((e) => e.detail ?? e.title)
      .find(Boolean);
    return {
      error: `the shop refused the image: ${detail ?? `HTTP ${answer.status}`}`,
      retryable: answer.status >= 500,
    };
  } catch (err) {
    if (err instanceof MediaError) return { error: err.message, retryable: true };
    if (err instanceof TargetError && err.retryable) return { error: err.message, retryable: true };
    throw err;
  }
}
