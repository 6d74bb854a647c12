import { FILE_DELETE, FILES_BY_NAME, METAFIELDS_SET } from './shopify-documents';
import { failOn, RecordFailure, type UserErrors } from './shopify-failure';
import { graphqlErrorText, type ShopifyGraphql } from './shopify-graphql';

/**
 * The files the PIM made for a product, and their end (docs/shops-shopify.md "Files").
 *
 * productSet takes an image off a product but leaves its file in the shop's Files library, so a
 * replaced or removed picture would stay there for ever. The PIM's marker of its own files is the
 * product's `pim.media` metafield (image hash -> file id, JSON), as the mirror's `TargetIds.media`:
 * only a file named there is ever deleted, never one the merchant added. A file is the PIM's
 * for one product only (the adapter never links one product's file to another, and a collection's
 * image is its own `Image`, not a file), so once that product no longer shows it, nothing of the
 * PIM does.
 *
 * Nothing is lost to a crash: productSet leaves `pim.media` as it was and its answer reads it, so
 * the files an earlier, interrupted write made or retired are known; the retired ones stay in the
 * marker (as `retired:<id>`) until `fileDelete` has taken them, and a failed delete fails the
 * record, whose mirror row (with the old ids) is then kept, so the next run deletes them.
 */
const RETIRED = 'retired:';

/** `pim.media` as written: hash -> file id (and `retired:<id>` -> id); a hand-edited value counts as none. */
export function mediaMarker(value: string | null | undefined): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(value ?? '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

const sameMarker = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([key, id]) => b[key] === id);

const markerField = (productId: string, marker: Record<string, string>) => ({
  ownerId: productId,
  namespace: 'pim',
  key: 'media',
  type: 'json',
  value: JSON.stringify(marker),
});

async function setMarker(gql: ShopifyGraphql, productId: string, marker: Record<string, string>) {
  const result = await gql.request<{ metafieldsSet: UserErrors | null }>(METAFIELDS_SET, {
    metafields: [markerField(productId, marker)],
  });
  failOn('product.media', result, result.data?.metafieldsSet);
}

/** Metafields Shopify takes per metafieldsSet call. */
const MARKERS_PER_CALL = 25;

/**
 * A round's new markers (products whose files only grew: nothing to retire), gathered and
 * written 25 per metafieldsSet instead of one call each. A marker not written leaves files a
 * later write finds by name (`strayFiles`), as a crash before it does.
 */
export class MarkerWrites {
  readonly byProduct = new Map<string, Record<string, string>>();
}

/** Writes gathered markers; answers the failure per product id. */
export async function writeMarkers(gql: ShopifyGraphql, markers: MarkerWrites) {
  const failures = new Map<string, RecordFailure>();
  const entries = [...markers.byProduct];
  for (let i = 0; i < entries.length; i += MARKERS_PER_CALL) {
    const page = entries.slice(i, i + MARKERS_PER_CALL);
    const result = await gql.request<{ metafieldsSet: UserErrors | null }>(METAFIELDS_SET, {
      metafields: page.map(([productId, marker]) => markerField(productId, marker)),
    });
    const payload = result.data?.metafieldsSet;
    const reason = payload
      ? payload.userErrors.map((error) => error.message).join('; ')
      : graphqlErrorText(result.errors) || 'the shop refused the request';
    // metafieldsSet writes all or none: one refusal leaves every marker of the call unwritten.
    if (reason) for (const [productId] of page) failures.set(productId, new RecordFailure('product.media', reason));
  }
  return failures;
}

type FileDeleteAnswer = {
  fileDelete: { deletedFileIds: string[] | null; userErrors: { message: string; code?: string | null }[] } | null;
};

/** A file being processed can be deleted a moment later; other refusals wait for the next run. */
const LATER = new Set(['FILE_LOCKED', 'NON_READY_STATE']);

/** Deletes the files; one already gone (a crash after its delete, or the merchant) counts as deleted. */
export async function deleteFiles(gql: ShopifyGraphql, ids: string[]): Promise<void> {
  const result = await gql.request<FileDeleteAnswer>(FILE_DELETE, { fileIds: ids });
  const payload = result.data?.fileDelete;
  if (!payload)
    throw new RecordFailure('product.media', graphqlErrorText(result.errors) || 'the shop refused the delete');
  const errors = payload.userErrors;
  if (errors.length === 0) return;
  if (errors.every((error) => error.code === 'FILE_DOES_NOT_EXIST')) {
    // The shop refuses the whole list for one missing file: the others go one by one.
    if (ids.length > 1) for (const id of ids) await deleteFiles(gql, [id]);
    return;
  }
  throw new RecordFailure(
    'product.media',
    `the shop kept a replaced image file: ${errors.map((error) => error.message).join('; ')}`,
    errors.some((error) => LATER.has(error.code ?? '')),
  );
}

/** The last segment of a file's URL, decoded, without its query: the file's name in the library. */
function nameInUrl(url: string): string | null {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '') || null;
  } catch {
    return null;
  }
}

/**
 * Files the PIM made for this product's images that the product does not show and neither the
 * marker nor the mirror names: made by a productSet whose answer was lost and which was sent
 * again, or by a write that stopped before its first `metafieldsSet` (a crash, a refused
 * marker), and taken off the product by the next productSet. Shopify's answer was the only
 * place their ids were, so they are found by their names (`fileNameOf`: the product's handle
 * and the image's hash), which no merchant's file carries: `files(query: "filename:<name>*")`,
 * the prefix as Shopify's search syntax takes it (a name in use gets a suffix). A file is taken
 * only when its URL's last segment is that name or the name with a suffix, so a looser match
 * of the search never retires another file; one still processing (no image URL yet) waits for
 * a later write.
 */
export async function strayFiles(gql: ShopifyGraphql, names: string[], shown: Set<string>): Promise<string[]> {
  const stems = names.map((name) => name.replace(/\.[a-z0-9]{1,5}$/i, ''));
  if (stems.length === 0) return [];
  const result = await gql.request<{ files: { nodes: { id: string; image?: { url: string } | null }[] } | null }>(
    FILES_BY_NAME,
    { query: stems.map((stem) => `filename:${stem}*`).join(' OR ') },
  );
  const files = result.data?.files;
  if (!files)
    throw new RecordFailure(
      'product.media',
      graphqlErrorText(result.errors) || 'the shop refused the file search',
      true,
    );
  return files.nodes
    .filter((file) => !shown.has(file.id))
    .filter((file) => {
      const name = file.image?.url ? nameInUrl(file.image.url) : null;
      return name !== null && stems.some((stem) => name.startsWith(stem) && /^[._]/.test(name.slice(stem.length)));
    })
    .map((file) => file.id);
}

/**
 * After productSet: `media` (hash -> file id) is what the product shows now; every other file of
 * the mirror's ids (`known`), of the marker productSet's answer read, or found astray
 * (`strays`, above) is retired, deleted, and the marker ends as `media`. Requests only when
 * something changed: none for a product whose files are as before, one `metafieldsSet` for new
 * files (gathered in `markers` for a round of many), and for retired ones the marker with them,
 * `fileDelete`, the marker without them.
 */
export async function settleFiles(
  gql: ShopifyGraphql,
  productId: string,
  media: Record<string, string>,
  known: Record<string, string>,
  marker: Record<string, string>,
  strays: string[] = [],
  markers?: MarkerWrites,
): Promise<void> {
  const shown = new Set(Object.values(media));
  const retired = [...new Set([...Object.values(known), ...Object.values(marker), ...strays])].filter(
    (id) => !shown.has(id),
  );
  const pending = { ...media, ...Object.fromEntries(retired.map((id) => [`${RETIRED}${id}`, id])) };
  if (!sameMarker(pending, marker)) {
    if (retired.length === 0 && markers) {
      markers.byProduct.set(productId, pending);
      return;
    }
    await setMarker(gql, productId, pending);
  }
  if (retired.length === 0) return;
  await deleteFiles(gql, retired);
  await setMarker(gql, productId, media);
}
