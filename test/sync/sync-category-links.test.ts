import { env } from 'cloudflare:workers';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { historyVersions, products } from '../../src/db/schema';
import { restoreVersion } from '../../src/history/restore';
import { deleteMedia } from '../../src/media/media';
import { addMediaLink } from '../../src/media/media-links';
import type { Product } from '../../src/sync/protocol/wire';
import { FakeConnector } from '../helpers/fake-connector';
import { db, makeCategory } from '../helpers/factories';
import { connect, product, runSync, syncDeps, syncSetup } from '../helpers/sync-fixtures';

const BANNER = 'https://cdn.example.com/groups/banner.jpg';

/** Issue 32: the wire carries a category's media links (`categories[].links`), the images a shop shows. */
describe('category links on the wire', () => {
  it('sends the links of a category in its media order, none for a category without; the links change only the fingerprints of products placed there', async () => {
    const setup = await syncSetup();
    const shown = await makeCategory(setup.company, setup.catalogId, { name: 'Zangen' });
    const plain = await makeCategory(setup.company, setup.catalogId, { name: 'Kabel' });
    const link = (url: string, purpose: 'normal' | 'logo') =>
      addMediaLink(db(), setup.caller, {
        departmentId: setup.company.departmentId,
        elementId: shown.categoryId,
        url,
        purpose,
      });
    const a = await product(setup, 'CL-A', { categoryIds: [shown.categoryId] });
    const b = await product(setup, 'CL-B', { categoryIds: [plain.categoryId] });
    const fingerprint = async (id: string) =>
      (await db().query.products.findFirst({ where: eq(products.id, id) }))!.fingerprint;
    const [beforeA, beforeB] = [await fingerprint(a.productId), await fingerprint(b.productId)];
    await link(BANNER, 'normal');
    await link('https://cdn.example.com/groups/logo.png', 'logo');
    // docs/shops.md "Category images": the links are part of the placed product's record.
    expect(await fingerprint(a.productId)).not.toBe(beforeA);
    expect(await fingerprint(b.productId)).toBe(beforeB);

    const connection = await connect(setup);
    const fake = new FakeConnector();
    const { deps } = syncDeps(fake);
    expect((await runSync(setup, connection.connectionId, deps)).report).toMatchObject({ created: 2 });
    expect((fake.products.get('CL-A')!.product as Product).categories).toEqual([
      {
        id: shown.categoryId,
        path: ['Zangen'],
        links: [
          {
            url: BANNER,
            contentType: 'image/jpeg',
            fileName: 'banner.jpg',
            purpose: 'normal',
            description: null,
            mimeCode: null,
            position: 0,
          },
          {
            url: 'https://cdn.example.com/groups/logo.png',
            contentType: 'image/png',
            fileName: 'logo.png',
            purpose: 'logo',
            description: null,
            mimeCode: null,
            position: 1,
          },
        ],
      },
    ]);
    expect((fake.products.get('CL-B')!.product as Product).categories).toEqual([
      { id: plain.categoryId, path: ['Kabel'] },
    ]);
  });

  it('a history restore that brings a category link back changes the fingerprints of the products placed there, and only theirs', async () => {
    const setup = await syncSetup();
    const shown = await makeCategory(setup.company, setup.catalogId, { name: 'Zangen' });
    const plain = await makeCategory(setup.company, setup.catalogId, { name: 'Kabel' });
    const a = await product(setup, 'CR-A', { categoryIds: [shown.categoryId] });
    const b = await product(setup, 'CR-B', { categoryIds: [plain.categoryId] });
    const fingerprint = async (id: string) =>
      (await db().query.products.findFirst({ where: eq(products.id, id) }))!.fingerprint;
    const link = await addMediaLink(db(), setup.caller, {
      departmentId: setup.company.departmentId,
      elementId: shown.categoryId,
      url: BANNER,
      purpose: 'normal',
    });
    const [withLink, beforeB] = [await fingerprint(a.productId), await fingerprint(b.productId)];
    const [version] = await db()
      .select({ id: historyVersions.id })
      .from(historyVersions)
      .where(eq(historyVersions.elementId, shown.categoryId))
      .orderBy(desc(historyVersions.id))
      .limit(1);
    const deps = { db: db(), files: env.FILES };
    await deleteMedia(deps, setup.caller, { departmentId: setup.company.departmentId, mediaId: link.mediaId });
    expect(await fingerprint(a.productId)).not.toBe(withLink);

    const restored = await restoreVersion(deps, setup.caller, {
      departmentId: setup.company.departmentId,
      elementId: shown.categoryId,
      versionId: version!.id,
    });
    expect(restored.changes).toEqual([expect.objectContaining({ path: `media.${link.mediaId}` })]);
    // The link is back under its old id, so the placed product's record is the one it was with it.
    expect(await fingerprint(a.productId)).toBe(withLink);
    expect(await fingerprint(b.productId)).toBe(beforeB);
    const placed = await db().query.products.findFirst({ where: eq(products.id, a.productId) });
    expect(placed!.fingerprintRevision).toBe(placed!.revision);
  });
});
