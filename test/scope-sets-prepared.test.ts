import { describe, expect, it } from 'vitest';
import { makeCatalog, makeCategory, makeSession } from './helpers/factories';
import { call } from './helpers/http';
import { scopedMember, scopeSetBuilt } from './helpers/members';

/**
 * A membership given a category scope has its scope set made and counted after the answer, in
 * the background (docs/teams.md "Counts"), on every path that gives one, so the member's first
 * count never reads their products in that request. Each test polls the set without any count
 * being asked for: without the background work it stays unmade until a count makes it.
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
    expect(await scopeSetBuilt(admin.companyId, [brand.categoryId])).toBe(false);
    const link: string = invited.json.link;
    const accepted = await call('POST', '/api/Account/AcceptInvitation', {
      body: { token: link.slice(link.indexOf('#') + 1), password: 'a-new-password-1234' },
    });
    expect(accepted.status, accepted.text).toBe(200);
    await expect.poll(() => scopeSetBuilt(admin.companyId, [brand.categoryId]), POLL).toBe(true);
  });

  it('makes the set again when a member whose set was dropped is reactivated', async () => {
    const { admin, brand, other, company } = await adminWithTree();
    const member = await scopedMember(admin.cookie, company, 'editor', { categoryIds: [brand.categoryId] });
    await expect.poll(() => scopeSetBuilt(admin.companyId, [brand.categoryId]), POLL).toBe(true);
    const deactivated = await call('POST', '/api/Account/DeactivateMember', {
      cookie: admin.cookie,
      body: { userId: member.userId },
    });
    expect(deactivated.status, deactivated.text).toBe(200);
    // another member's new set drops the sets no membership names any more: the deactivated one's
    await scopedMember(admin.cookie, company, 'editor', { categoryIds: [other.categoryId] });
    await expect.poll(() => scopeSetBuilt(admin.companyId, [other.categoryId]), POLL).toBe(true);
    expect(await scopeSetBuilt(admin.companyId, [brand.categoryId])).toBe(false);
    const reactivated = await call('POST', '/api/Account/ReactivateMember', {
      cookie: admin.cookie,
      body: { userId: member.userId },
    });
    expect(reactivated.status, reactivated.text).toBe(200);
    await expect.poll(() => scopeSetBuilt(admin.companyId, [brand.categoryId]), POLL).toBe(true);
  });
});
