import { beforeAll, describe, expect, it } from 'vitest';
import { makeCatalog, makeCategory, makeSession } from './helpers/factories';
import { getApi as get, postApi as post } from './helpers/http';
import { scopedMember } from './helpers/members';

/**
 * RestoreVersion by a category-scoped editor (docs/teams.md, "Restore"): a version whose
 * placements would move the product out of the member's subtree, place it in a category
 * outside it or take away a placement outside it, is 403 before anything is written; a version
 * that changes only placements inside restores as for anyone.
 */
type Admin = Awaited<ReturnType<typeof makeSession>>;
let admin: Admin;
let catalogId: string;
let brand: string;
let sub: string;
let other: string;
let productId: string;
let agency: string;
const versions: Record<string, string> = {};

/** The admin places the product in `categoryIds`; returns the version that recorded it. */
async function place(categoryIds: string[], name: string) {
  const res = await post(admin.cookie, 'Catalog/UpdateProduct', {
    departmentId: admin.departmentId,
    catalogId,
    productId,
    name,
    categoryIds,
  });
  expect(res.status, res.text).toBe(200);
  const history = await get(admin.cookie, `Catalog/GetHistory?elementId=${productId}`);
  return history.json.items[0].versionId as string;
}

beforeAll(async () => {
  admin = await makeSession({ role: 'admin' });
  const t = admin.tenant;
  catalogId = (await makeCatalog(t, { name: 'A' })).catalogId;
  brand = (await makeCategory(t, catalogId, { name: 'Brand' })).categoryId;
  sub = (await makeCategory(t, catalogId, { name: 'Brand lines', parentId: brand })).categoryId;
  other = (await makeCategory(t, catalogId, { name: 'Other brand' })).categoryId;
  const added = await post(admin.cookie, 'Catalog/AddProduct', {
    departmentId: admin.departmentId,
    catalogId,
    sku: 'R-1',
    name: 'Schalter 1',
    categoryIds: [sub],
  });
  expect(added.status, added.text).toBe(200);
  productId = added.json.productId;
  versions.outside = await place([other], 'Schalter outside');
  versions.both = await place([sub, other], 'Schalter both');
  versions.inside = await place([brand], 'Schalter inside');
  versions.now = await place([sub], 'Schalter now');
  agency = (
    await scopedMember(admin.cookie, { companyId: admin.companyId, departmentId: admin.departmentId }, 'editor', {
      categoryIds: [brand],
    })
  ).cookie;
}, 60_000);

const restore = (cookie: string, versionId: string) =>
  post(cookie, 'Catalog/RestoreVersion', { departmentId: admin.departmentId, elementId: productId, versionId });

const state = async () => {
  const res = await get(admin.cookie, `Catalog/GetProduct?productId=${productId}`);
  const history = await get(admin.cookie, `Catalog/GetHistory?elementId=${productId}`);
  return { name: res.json.name, categoryIds: [...res.json.categoryIds].sort(), versions: history.json.items.length };
};

describe('RestoreVersion by a category-scoped editor', () => {
  it('refuses a version that moves the product out of the subtree or places it outside, changing nothing', async () => {
    const before = await state();
    expect(before.categoryIds).toEqual([sub]);
    for (const versionId of [versions.outside!, versions.both!]) {
      const res = await restore(agency, versionId);
      expect(res.status, res.text).toBe(403);
      expect(res.json.error).toBe('your role does not permit this');
      expect(await state()).toEqual(before);
    }
  });

  it('restores a version whose placements stay in the subtree', async () => {
    const res = await restore(agency, versions.inside!);
    expect(res.status, res.text).toBe(200);
    const after = await state();
    expect(after.name).toBe('Schalter inside');
    expect(after.categoryIds).toEqual([brand]);
  });

  it('lets a member without a product scope restore any version', async () => {
    const res = await restore(admin.cookie, versions.outside!);
    expect(res.status, res.text).toBe(200);
    expect((await state()).categoryIds).toEqual([other]);
    // now outside: the scoped member's restore is refused by the product as stored, even of a version inside
    const refused = await restore(agency, versions.now!);
    expect(refused.status, refused.text).toBe(403);
    expect((await state()).categoryIds).toEqual([other]);
  });

  it('refuses a version that takes away a placement outside, and restores one that keeps it', async () => {
    const added = await post(admin.cookie, 'Catalog/AddProduct', {
      departmentId: admin.departmentId,
      catalogId,
      sku: 'R-2',
      name: 'Schalter 2',
      categoryIds: [sub],
    });
    expect(added.status, added.text).toBe(200);
    const id = added.json.productId as string;
    const placeAs = async (categoryIds: string[]) => {
      const res = await post(admin.cookie, 'Catalog/UpdateProduct', {
        departmentId: admin.departmentId,
        catalogId,
        productId: id,
        categoryIds,
      });
      expect(res.status, res.text).toBe(200);
      return (await get(admin.cookie, `Catalog/GetHistory?elementId=${id}`)).json.items[0].versionId as string;
    };
    const insideOnly = (await get(admin.cookie, `Catalog/GetHistory?elementId=${id}`)).json.items[0].versionId;
    const both = await placeAs([sub, other]);
    await placeAs([brand, other]);
    const placements = async () =>
      [...(await get(admin.cookie, `Catalog/GetProduct?productId=${id}`)).json.categoryIds].sort();
    const restoreOf = (versionId: string) =>
      post(agency, 'Catalog/RestoreVersion', { departmentId: admin.departmentId, elementId: id, versionId });
    const refused = await restoreOf(insideOnly);
    expect([refused.status, refused.json.error]).toEqual([403, 'your role does not permit this']);
    expect(await placements()).toEqual([brand, other].sort());
    const restored = await restoreOf(both);
    expect(restored.status, restored.text).toBe(200);
    expect(await placements()).toEqual([sub, other].sort());
  });
});
