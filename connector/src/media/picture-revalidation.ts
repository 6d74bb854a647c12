import { bodyHash } from '../../../src/sync/protocol/signing';
import { type FetchDeps, fetchChecked, imageBytesOf } from './media-bytes';

/** What the connector last saw behind a category picture URL (migration 0002). */
interface PictureRow {
  etag: string | null;
  last_modified: string | null;
  sha256: string;
}

export interface PictureCheckDeps extends FetchDeps {
  db: D1Database;
  keyId: string;
  now?: () => Date;
}

/** What a category picture URL answered: its validators and the sha256 of its bytes. */
interface Observed {
  etag: string | null;
  lastModified: string | null;
  sha256: string;
}

/** What a category picture URL holds now, as far as the connector knows (`PictureCheck.current`). */
export interface CurrentPicture {
  /** The sha256 of the bytes behind the URL now. */
  sha256: string;
  /** Those bytes when this request fetched them (first look, new bytes); null after a 304. */
  bytes: ArrayBuffer | null;
}

/** Asks category picture URLs whether their bytes changed, and records what a shop was sent. */
export interface PictureCheck {
  /** True when the bytes behind `url` differ from those last sent (see createPictureCheck). */
  changed(url: string): Promise<boolean>;
  /**
   * The hash of the bytes behind `url` now (and the bytes when fetched): the recorded hash after
   * a 304 or when the URL cannot be asked, else the fetched bytes'. Null when the URL was never
   * seen and cannot be read. Shares the one look per request with `changed`.
   */
  current(url: string): Promise<CurrentPicture | null>;
  /** The shop took the picture at `url` again: what `changed` saw becomes what was sent. */
  sent(url: string): Promise<void>;
}

/** One look at a URL: whether its bytes are new (`changed`), and what it holds (`current`). */
interface Look {
  changed: boolean;
  current: CurrentPicture | null;
}

/**
 * `WriteContext.categoryPictureChanged` / `categoryPicture` / `categoryPictureSent` (docs/shops.md
 * "Category images"): whether the bytes behind a category picture URL changed since the connector last
 * sent them, so an adapter sends the picture again although its URL did not change. A link
 * carries no content hash, so the URL is asked again: conditionally (`If-None-Match` /
 * `If-Modified-Since` from the last answer), and a 304 means unchanged; a 200 is hashed and
 * compared with the sha256 kept in `category_pictures` (migration 0002). The first look at a URL
 * only records it (false): the adapter sends a picture with a new URL anyway. New bytes are
 * recorded only once the adapter says the shop took them (`sent`), so a write that fails asks
 * again next time. A URL that cannot be asked (refused, unreachable, an error status) counts as
 * unchanged and is not recorded. Each URL is asked once per request (a batch places many
 * products in the same category); the bytes a look fetched are kept for that request only, so
 * an adapter that stores a picture by its hash (Shopware) uploads the very bytes it hashed.
 */
export function createPictureCheck(deps: PictureCheckDeps): PictureCheck {
  const looks = new Map<string, Promise<Look>>();
  const pending = new Map<string, Observed>();
  const now = () => (deps.now?.() ?? new Date()).toISOString();
  const look = (url: string) => {
    let answer = looks.get(url);
    if (!answer) {
      answer = lookAt(deps, url, pending, now);
      looks.set(url, answer);
    }
    return answer;
  };
  return {
    changed: async (url) => (await look(url)).changed,
    current: async (url) => (await look(url)).current,
    async sent(url) {
      const observed = pending.get(url);
      if (!observed) return;
      await record(deps, url, observed, now());
      pending.delete(url);
    },
  };
}

function validators(row: PictureRow | null): Record<string, string> {
  const headers: Record<string, string> = {};
  if (row?.etag) headers['If-None-Match'] = row.etag;
  if (row?.last_modified) headers['If-Modified-Since'] = row.last_modified;
  return headers;
}

async function record(deps: PictureCheckDeps, url: string, observed: Observed, checkedAt: string) {
  await deps.db
    .prepare(
      `INSERT INTO category_pictures (key_id, url, etag, last_modified, sha256, checked_at)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (key_id, url) DO UPDATE SET
         etag = excluded.etag, last_modified = excluded.last_modified, sha256 = excluded.sha256,
         checked_at = excluded.checked_at`,
    )
    .bind(deps.keyId, url, observed.etag, observed.lastModified, observed.sha256, checkedAt)
    .run();
}

async function lookAt(
  deps: PictureCheckDeps,
  url: string,
  pending: Map<string, Observed>,
  now: () => string,
): Promise<Look> {
  const row = await deps.db
    .prepare('SELECT etag, last_modified, sha256 FROM category_pictures WHERE key_id = ?1 AND url = ?2')
    .bind(deps.keyId, url)
    .first<PictureRow>();
  const known: Look = { changed: false, current: row ? { sha256: row.sha256, bytes: null } : null };
  let response: Response;
  let bytes: ArrayBuffer;
  try {
    response = await fetchChecked(url, deps, validators(row));
    if (response.status === 304 && row) {
      await response.body?.cancel();
      return known;
    }
    bytes = await imageBytesOf(response);
  } catch {
    // Cannot be asked now: unchanged, asked again next time.
    return known;
  }
  const observed: Observed = {
    etag: response.headers.get('ETag'),
    lastModified: response.headers.get('Last-Modified'),
    sha256: await bodyHash(bytes),
  };
  const current = { sha256: observed.sha256, bytes };
  if (row === null || row.sha256 === observed.sha256) {
    // First look, or the same bytes under new validators: nothing to send, keep the validators.
    await record(deps, url, observed, now());
    return { changed: false, current };
  }
  pending.set(url, observed);
  return { changed: true, current };
}
