import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { moveCategory } from '../src/catalog/categories';
import { prepareScopeSet, scopedCatalogCounts, scopedCategoryCounts } from '../src/db/scope-counts';
import { createDb } from '../src/db/client';
import { cellD1, placeInCell } from './helpers/cells';
import {
  asActor,
  db,
  makeCatalog,
  makeCategory,
  makeCompany,
  makeProduct,
  makeSession,
  makeUser,
} from './helpers/factories';
import { call, loginAs } from './helpers/http';
import { scopedMember, scopeSetKept, scopeSetState } from './helpers/members';
import { slowCatalogCounts, slowCategoryCounts } from './helpers/scope-counts';

/**
 * Scope sets made and counted after the answer, in the background (docs/teams.md "Counts"): a
 * membership given a category scope, on every path that gives one, and the sets a category move
 * made out of date, so neither the member's first count nor the move's request reads the scope's
 * products. Each test polls the set without any count being asked for: without the background
 * work it stays unmade (or out of date) until a count makes it, and such a count is exact.
 */
const POLL = { timeout: 5000, interval: 50 };

async function adminWithTree() {
  const admin = await makeSession({ role: 'admin' });
  const catalog = await makeCatalog(admin);
  const brand = await makeCategory(admin, catalog.catalogId, { name: 'Brand' });
  const other = await makeCategory(admin, catalog.catalogId, { name: 'Other' });
  const company = { companyId: admin.companyId, departmentId: admin.departmentId };
  return { admin, catalog, brand, other, company };
}

describe('scope sets prepared after the answer', () => {
  it('makes the set of an accepted invitation with a category scope', async () => {
    const { admin, brand } = await adminWithTree();
    const invited = await call('POST', '/api/Account/InviteMember', {
      cookie: admin.cookie,
      body: {
        email: `agency-${crypto.randomUUID().slice(0, 8)}@example.com`,
        role: 'editor',
        categoryIds: [brand.categoryId],
      },
    });
    expect(invited.status, invited.text).toBe(200);
    expect(await scopeSetKept(admin.companyId, [brand.categoryId])).toBe(false);
    const link: string = invited.json.link;
    const accepted = await call('POST', '/api/Account/AcceptInvitation', {
      body: { token: link.slice(link.indexOf('#') + 1), password: 'a-new-password-1234' },
    });
    expect(accepted.status, accepted.text).toBe(200);
    await expect.poll(() => scopeSetKept(admin.companyId, [brand.categoryId]), POLL).toBe(true);
  });

  it('makes the set again when a member whose set was dropped is reactivated', async () => {
    const { admin, brand, other, company } = await adminWithTree();
    const member = await scopedMember(admin.cookie, company, 'editor', { categoryIds: [brand.categoryId] });
    await expect.poll(() => scopeSetKept(admin.companyId, [brand.categoryId]), POLL).toBe(true);
    const deactivated = await call('POST', '/api/Account/DeactivateMember', {
      cookie: admin.cookie,
      body: { userId: member.userId },
    });
    expect(deactivated.status, deactivated.text).toBe(200);
    // another member's new set drops the sets no membership names any more: the deactivated one's
    await scopedMember(admin.cookie, company, 'editor', { categoryIds: [other.categoryId] });
    await expect.poll(() => scopeSetKept(admin.companyId, [other.categoryId]), POLL).toBe(true);
    expect(await scopeSetKept(admin.companyId, [brand.categoryId])).toBe(false);
    const reactivated = await call('POST', '/api/Account/ReactivateMember', {
      cookie: admin.cookie,
      body: { userId: member.userId },
    });
    expect(reactivated.status, reactivated.text).toBe(200);
    await expect.poll(() => scopeSetKept(admin.companyId, [brand.categoryId]), POLL).toBe(true);
  });
});

describe('a category move below a scoped root', () => {
  /** A member's root with one category below, and a category elsewhere holding three masters (one with a variant). */
  async function moving() {
    const { admin, catalog, brand, other, company } = await adminWithTree();
    const below = await makeCategory(admin, catalog.catalogId, { name: 'Lines', parentId: brand.categoryId });
    const moved = await makeCategory(admin, catalog.catalogId, { name: 'Moved', parentId: other.categoryId });
    await makeProduct(admin, catalog.catalogId, { sku: 'MV-0', name: 'Inside', categoryIds: [below.categoryId] });
    for (const i of [1, 2, 3]) {
      const master = await makeProduct(admin, catalog.catalogId, {
        sku: `MV-${i}`,
        name: `Moved ${i}`,
        categoryIds: [moved.categoryId],
      });
      if (i === 1)
        await makeProduct(admin, catalog.catalogId, { sku: 'MV-1-V', name: 'Variant', parentId: master.productId });
    }
    const roots = [brand.categoryId];
    await prepareScopeSet(db(), admin.companyId, roots);
    expect(await scopeSetKept(admin.companyId, roots)).toBe(true);
    const member = { companyId: admin.companyId, productScope: { catalogIds: [], categoryIds: roots } };
    const move = { departmentId: company.departmentId, categoryId: moved.categoryId, parentId: below.categoryId };
    return { admin, catalog, roots, member, move };
  }

  it('marks the sets above it out of date instead of counting them in its own request', async () => {
    const { admin, roots, move } = await moving();
    await moveCategory(db(), asActor(admin), move);
    // nothing counted it since: the move's statement left the set marked, not counted again
    expect(await scopeSetState(admin.companyId, roots)).toEqual({ built: 1, stale: 3 });
  });

  it('counts them again after its answer, exactly, with no count asked for', async () => {
    const { admin, catalog, roots, move } = await moving();
    const moved = await call('POST', '/api/Catalog/MoveCategory', { cookie: admin.cookie, body: move });
    expect(moved.status, moved.text).toBe(200);
    await expect.poll(() => scopeSetKept(admin.companyId, roots), POLL).toBe(true);
    // the counters as kept (read without a count, which would count them itself)
    const [kept] = await db().all<{ n: number }>(
      sql`SELECT masters + variants AS n FROM scope_set_counts WHERE catalog_id = ${catalog.catalogId}
        AND set_id = (SELECT id FROM scope_sets WHERE company_id = ${admin.companyId} AND key = ${roots[0]})`,
    );
    expect({ [catalog.catalogId]: Number(kept?.n) }).toEqual(await slowCatalogCounts(admin.companyId, roots));
    expect(Number(kept?.n)).toBe(5);
  });

  it('answers a count read before the background work (or without it) exactly, counting the set then', async () => {
    const { admin, catalog, roots, member, move } = await moving();
    await moveCategory(db(), asActor(admin), move);
    const counts = Object.fromEntries((await scopedCatalogCounts(db(), member)) ?? new Map());
    expect(counts).toEqual(await slowCatalogCounts(admin.companyId, roots));
    expect(counts[catalog.catalogId]).toBe(5);
    expect(await scopedCategoryCounts(db(), member, catalog.catalogId)).toEqual(
      new Map(Object.entries(await slowCategoryCounts(admin.companyId, roots, catalog.catalogId))),
    );
    expect(await scopeSetKept(admin.companyId, roots)).toBe(true);
  });
});

describe('scope sets of a company in another cell', () => {
  it("keeps a member's set when another member's set is made (memberships are read from the directory)", async () => {
    const company = await makeCompany();
    const admin = await makeUser(company, { role: 'admin' });
    await placeInCell(company.companyId, 'cell-2');
    const cookie = await loginAs(admin.email);
    const cell = createDb(cellD1('cell-2'));
    const keptInCell = async (roots: string[]) => {
      const rows = await cell.all<{ kept: number }>(sql`SELECT built = 1 AND stale = 0 AS kept FROM scope_sets
        WHERE company_id = ${company.companyId} AND key = ${[...roots].sort().join(',')}`);
      return rows[0]?.kept === 1;
    };
    const catalog = await call('POST', '/api/Catalog/AddCatalog', {
      cookie,
      body: { departmentId: company.departmentId, name: 'Catalog in cell-2' },
    });
    expect(catalog.status, catalog.text).toBe(200);
    const [brand, other] = await Promise.all(
      ['Brand', 'Other'].map(async (name) => {
        const made = await call('POST', '/api/Catalog/AddCategory', {
          cookie,
          body: { departmentId: company.departmentId, catalogId: catalog.json.catalogId, name },
        });
        expect(made.status, made.text).toBe(200);
        return made.json.categoryId as string;
      }),
    );
    await scopedMember(cookie, company, 'editor', { categoryIds: [brand!] });
    await expect.poll(() => keptInCell([brand!]), POLL).toBe(true);
    await scopedMember(cookie, company, 'editor', { categoryIds: [other!] });
    await expect.poll(() => keptInCell([other!]), POLL).toBe(true);
    // before: the cell has no memberships, so making the second set dropped the first
    expect(await keptInCell([brand!])).toBe(true);
  });
});
