import type { MediaRef } from '../../../../src/sync/protocol/wire';
import { TargetError, type TargetRecord } from '../target-adapter';
import { type ShopwareClient, shopwareErrors } from './client';
import type { RecordPlan } from './plan';
import type { SyncFailure } from './sync';

/**
 * Images after the sync: the media entities exist (their ids derived from the content hash, a
 * category picture's from its URL), and a file is uploaded only to a media entity that has none
 * yet, through `POST /api/_action/media/{id}/upload` with the image's URL (the shop fetches it).
 * An image the mirror already lists, or one another product or category brought, is never
 * uploaded again. Category pictures are not in the mirror: the shop's `hasFile` decides, and a
 * picture with a file is uploaded again only when the connector finds new bytes behind its URL
 * (`categoryPictureChanged`, a conditional request).
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

/** What an upload needs: the URL the shop fetches, its type and name, and the file name it gets in the shop. */
interface Source {
  url: string;
  contentType: string;
  fileName: string;
  /** Unique per file in the shop's media: the content hash, or a category picture's media id. */
  name: string;
}

interface Pending {
  source: Source;
  owners: { index: number; field: string }[];
  /** A category picture (id from its URL): uploaded again when its bytes changed behind the URL. */
  picture: boolean;
}

/** `WriteContext.categoryPictureChanged` / `categoryPictureSent` (media/picture-revalidation.ts). */
export interface PictureChecks {
  categoryPictureChanged?: (url: string) => Promise<boolean>;
  categoryPictureSent?: (url: string) => Promise<void>;
}

const fromRef = (ref: MediaRef): Source => ({ ...ref, name: ref.sha256 });

export async function uploadMissingMedia(
  client: ShopwareClient,
  plans: [number, RecordPlan][],
  records: TargetRecord[],
  pictures: PictureChecks = {},
  now: Map<number, TargetRecord> = new Map(records.map((r) => [r.index, r])),
): Promise<Map<number, SyncFailure>> {
  const pending = new Map<string, Pending>();
  for (const [index, plan] of plans) {
    const known = now.get(index)?.known?.media ?? {};
    const need = (mediaId: string, source: Source, field: string, picture = false) => {
      const entry = pending.get(mediaId) ?? { source, owners: [], picture };
      entry.owners.push({ index, field });
      pending.set(mediaId, entry);
    };
    for (const [sha, m] of plan.media) if (known[sha] !== m.mediaId) need(m.mediaId, fromRef(m.ref), m.field);
    for (const [mediaId, image] of plan.categoryMedia)
      need(mediaId, { ...image.link, name: mediaId }, image.field, true);
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
  for (const [mediaId, { source, owners, picture }] of pending) {
    // A category picture's file is replaced when new bytes stand behind its unchanged URL.
    const again = withFile.has(mediaId) && picture && ((await pictures.categoryPictureChanged?.(source.url)) ?? false);
    if (withFile.has(mediaId) && !again) continue;
    const failure = await upload(client, mediaId, source);
    if (!failure) {
      if (again) await pictures.categoryPictureSent?.(source.url);
      continue;
    }
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
  const query = new URLSearchParams({ extension, fileName: source.name });
  try {
    const answer = await client.request('POST', `/_action/media/${mediaId}/upload?${query}`, { url: source.url });
    if (answer.status >= 200 && answer.status < 300) return null;
    const detail = shopwareErrors(answer.body)
      .map((e) => e.detail ?? e.title)
      .find(Boolean);
    return {
      error: `the shop refused the image: ${detail ?? `HTTP ${answer.status}`}`,
      retryable: answer.status >= 500,
    };
  } catch (err) {
    if (err instanceof TargetError && err.retryable) return { error: err.message, retryable: true };
    throw err;
  }
}
