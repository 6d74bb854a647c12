import { retireDroppedImages } from '../common/retire-images';
import type { RecordOutcome, TargetRecord, WriteContext } from '../target-adapter';
import type { MedusaApi } from './medusa-api';
import { MedusaRefusal } from './medusa-api';
import { hashOfUrl } from './medusa-assets';

/**
 * The upload of a product image that nothing shows any more leaves Medusa's file storage
 * (docs/shops.md "Replaced product images"). An image is uploaded once per content hash
 * (`<sha256>.<ext>`) and shared by every product with those bytes, and Medusa cannot list the
 * products showing a file, so the connector's mirror answers: an image a record showed (its
 * mirror ids: hash -> URL) and no longer shows is retired when no record of the chunk shows it
 * or may (a refused record: its old and new images; a disabled product keeps its ids) and no
 * other product of the mirror does (`WriteContext.mediaShownElsewhere`). Only the PIM's uploads:
 * the URL's file name must carry the hash (file-local names the file `<timestamp>-<name>`, and
 * its file id is that name: `DELETE /admin/uploads/{id}`). The isolate's upload of that hash is
 * forgotten, so a later product with the same bytes uploads them again.
 *
 * Which images are dropped, and crash safety: common/retire-images.ts.
 */
function fileIdOf(url: string, sha256: string): string | null {
  const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  return hashOfUrl(url) === sha256 && name ? name : null;
}

/** The chunk's outcomes after its dropped images' uploads are deleted (a failed delete fails its records). */
export function retireUploads(
  api: MedusaApi,
  targets: TargetRecord[],
  outcomes: RecordOutcome[],
  ctx: Pick<WriteContext, 'mediaShownElsewhere'>,
  uploads: Map<string, string>,
): Promise<RecordOutcome[]> {
  return retireDroppedImages(
    targets,
    outcomes,
    ctx,
    async (sha, url) => {
      const id = fileIdOf(url, sha);
      if (!id) return;
      await api.delete(`/admin/uploads/${encodeURIComponent(id)}`);
      uploads.delete(sha);
    },
    (err) => err instanceof MedusaRefusal,
  );
}
