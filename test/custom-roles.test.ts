import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ONLY } from '../src/accounts/admin-only';
import { ROLE_IN_USE, ROLE_NAME_CONFLICT } from '../src/accounts/custom-roles';
import { customRoles, memberChanges, memberships } from '../src/db/schema';
import { NOT_PERMITTED } from '../src/kernel/permissions';
import { db, enableLanguages, makeCatalog, makeCompany, makeProduct, makeUser } from './helpers/factories';
import { send, tokensFor } from './oauth-helpers';
import { call, loginAs } from './helpers/http';
import { tenantDigest } from './helpers/tenant-digest';

/**
 * Custom roles (docs/teams.md "Custom roles", issue 33 item 1): a company's own named sets of
 * permissions, assigned like a built-in role, read by the permission check at every request,
 * recorded in the audit, deleted only when nobody holds them. Every company here is this file's.
 */

type Company = Awaited<ReturnType<typeof makeCompany>>;
let company: Company;
let adminCookie: string;

beforeAll(async () => {
  company = await makeCompany();
  const admin = await makeUser(company, { role: 'admin' });
  adminCookie = await loginAs(admin.email);
  await enableLanguages(company.companyId, ['fra']);
});

const post = (op: string, body: unknown, cookie = adminCookie) => call('POST', `/api/Account/${op}`, { cookie, body });
const uniqueName = (base: string) => `${base} ${crypto.randomUUID().slice(0, 6)}`;

async function makeRole(permissions: string[], name = uniqueName('Role')) {
  const res = await post('CreateRole', { name, permissions });
  expect(res.status, res.text).toBe(200);
  return res.json as { roleId: string; name: string; permissions: string[] };
}

async function memberWith(roleId: string) {
  const user = await makeUser(company, { role: 'viewer' });
  const set = await post('SetMemberRole', { userId: user.userId, role: roleId });
  expect(set.status, set.text).toBe(200);
  return { ...user, cookie: await loginAs(user.email) };
}

describe('creating, listing and changing custom roles', () => {
  it('creates a role with read always added, lists it after the built-in roles, and records it', async () => {
    const name = uniqueName('Data steward');
    const role = await makeRole(['product.write', 'text.write'], name);
    expect(role).toEqual({
      roleId: expect.any(String),
      name,
      builtIn: false,
      permissions: ['read', 'product.write', 'text.write'],
      memberCount: 0,
    });
    const list = await call('GET', '/api/Account/GetRoles', { cookie: adminCookie });
    expect(list.status).toBe(200);
    expect(list.json.items.slice(0, 6).map((r: any) => r.roleId)).toEqual([
      'viewer',
      'editor',
      'translator',
      'reviewer',
      'publisher',
      'admin',
    ]);
    expect(list.json.items.find((r: any) => r.roleId === 'translator')).toMatchObject({
      builtIn: true,
      permissions: ['read', 'text.write', 'review.submit'],
    });
    expect(list.json.items.find((r: any) => r.roleId === role.roleId)).toEqual(role);
    const audit = await call('GET', '/api/Account/GetMemberChanges', { cookie: adminCookie });
    expect(audit.json.items.find((i: any) => i.roleId === role.roleId)).toMatchObject({
      action: 'create-role',
      userId: null,
      invitationId: null,
      changes: [
        { path: 'name', before: null, after: name },
        { path: 'permissions', before: null, after: ['read', 'product.write', 'text.write'] },
      ],
    });
  });

  it('refuses company.admin, a built-in name, a taken name in any case, a bad name, and a member who is not an admin', async () => {
    const taken = await makeRole(['publish']);
    const editor = await makeUser(company, { role: 'editor' });
    const editorCookie = await loginAs(editor.email);
    const before = await tenantDigest([company.companyId]);
    const rolesBefore = await db().$count(customRoles, eq(customRoles.companyId, company.companyId));
    const admin = await post('CreateRole', { name: 'Boss', permissions: ['read', 'company.admin'] });
    expect(admin.status).toBe(400);
    expect(admin.json.error).toContain('company.admin');
    const builtIn = await post('CreateRole', { name: 'Editor', permissions: ['read'] });
    expect(builtIn.status).toBe(400);
    expect(builtIn.json.error).toContain('built-in role');
    const duplicate = await post('CreateRole', { name: taken.name.toUpperCase(), permissions: ['read'] });
    expect(duplicate.status).toBe(409);
    expect(duplicate.json.error).toBe(ROLE_NAME_CONFLICT);
    const empty = await post('CreateRole', { name: '  ', permissions: ['read'] });
    expect(empty.status).toBe(400);
    const unknown = await post('CreateRole', { name: 'X', permissions: ['fly'] });
    expect(unknown.status).toBe(400);
    const notAdmin = await post('CreateRole', { name: 'Mine', permissions: ['read'] }, editorCookie);
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.json.error).toBe(ADMIN_ONLY);
    expect((await call('GET', '/api/Account/GetRoles', { cookie: editorCookie })).status).toBe(403);
    const rename = await post('UpdateRole', { roleId: taken.roleId, name: 'Viewer' });
    expect(rename.status).toBe(400);
    expect(await db().$count(customRoles, eq(customRoles.companyId, company.companyId))).toBe(rolesBefore);
    expect(await tenantDigest([company.companyId])).toBe(before);
  });

  it("answers 404 for another company's role, to update, delete and assign", async () => {
    const other = await makeCompany();
    const otherAdmin = await makeUser(other, { role: 'admin' });
    const otherCookie = await loginAs(otherAdmin.email);
    const foreign = await post('CreateRole', { name: 'Theirs', permissions: ['read'] }, otherCookie);
    expect(foreign.status).toBe(200);
    const member = await makeUser(company, { role: 'viewer' });
    const before = await tenantDigest([company.companyId, other.companyId]);
    for (const [op, body] of [
      ['UpdateRole', { roleId: foreign.json.roleId, name: 'Mine now' }],
      ['DeleteRole', { roleId: foreign.json.roleId }],
      ['SetMemberRole', { userId: member.userId, role: foreign.json.roleId }],
      ['SetMemberRole', { userId: member.userId, role: crypto.randomUUID() }],
      ['InviteMember', { email: 'someone@roles.example', role: foreign.json.roleId }],
    ] as const) {
      const res = await post(op, body);
      expect(res.status, `${op} ${res.text}`).toBe(404);
      expect(res.json.error).toBe('role not found');
    }
    const badRole = await post('SetMemberRole', { userId: member.userId, role: 'superuser' });
    expect(badRole.status).toBe(400);
    expect(badRole.json.error).toContain("custom role's id");
    expect(await tenantDigest([company.companyId, other.companyId])).toBe(before);
  });
});

describe('a member with a custom role', () => {
  it('acts with its permissions, and with the new ones at the next request once the role is updated', async () => {
    const role = await makeRole([]);
    const member = await memberWith(role.roleId);
    const me = await call('GET', '/api/Account/Me', { cookie: member.cookie });
    expect(me.json).toMatchObject({ role: role.roleId, roleName: role.name, permissions: ['read'] });
    const add = () =>
      call('POST', '/api/Catalog/AddCatalog', {
        cookie: member.cookie,
        body: { departmentId: company.departmentId, name: 'By a custom role' },
      });
    const refused = await add();
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe(NOT_PERMITTED);
    expect((await call('GET', '/api/Catalog/GetCatalogs', { cookie: member.cookie })).status).toBe(200);

    const updated = await post('UpdateRole', { roleId: role.roleId, permissions: ['product.write'] });
    expect(updated.json).toEqual({
      roleId: role.roleId,
      name: role.name,
      permissions: ['read', 'product.write'],
      changed: true,
    });
    // The same session: the role's permissions are read at every request.
    const added = await add();
    expect(added.status, added.text).toBe(200);
    expect((await call('GET', '/api/Account/Me', { cookie: member.cookie })).json.permissions).toEqual([
      'read',
      'product.write',
    ]);
    const again = await post('UpdateRole', { roleId: role.roleId, permissions: ['read', 'product.write'] });
    expect(again.json.changed).toBe(false);
    const rows = await db()
      .select()
      .from(memberChanges)
      .where(and(eq(memberChanges.userId, role.roleId), eq(memberChanges.action, 'update-role')));
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.changes)).toEqual([
      ['name', role.name, role.name],
      ['permissions', ['read'], ['read', 'product.write']],
    ]);
    const users = await call('GET', '/api/Account/GetUsers', { cookie: adminCookie });
    expect(users.json.items.find((u: any) => u.userId === member.userId).role).toBe(role.roleId);
  });

  it("acts through an agent's token with the role as it is at each request", async () => {
    const role = await makeRole(['review.decide']);
    const member = await memberWith(role.roleId);
    const catalog = await makeCatalog(company, { languages: ['fra'] });
    const product = await makeProduct(company, catalog.catalogId, { name: 'Kabel' });
    const { access_token: token } = await tokensFor({ session: member.cookie });
    const write = () =>
      send('POST', '/api/ai/SetValue', {
        token,
        json: { elementId: product.productId, field: 'name', value: 'Câble', language: 'fra' },
      });
    const refused = await write();
    expect([refused.status, refused.json.error]).toEqual([403, NOT_PERMITTED]);
    expect(
      (await post('UpdateRole', { roleId: role.roleId, permissions: ['review.decide', 'text.write'] })).status,
    ).toBe(200);
    // The same token, no new authorization: the role's permissions are read at every use.
    const written = await write();
    expect(written.status, written.text).toBe(200);
  });

  it('takes a language scope when it writes texts but not products, and not otherwise', async () => {
    const texts = await makeRole(['text.write', 'review.submit']);
    const products = await makeRole(['product.write']);
    const member = await makeUser(company, { role: 'viewer' });
    const scoped = await post('SetMemberRole', { userId: member.userId, role: texts.roleId, languages: ['fra'] });
    expect(scoped.status, scoped.text).toBe(200);
    expect(scoped.json).toMatchObject({ role: texts.roleId, languages: ['fra'], changed: true });
    const refused = await post('SetMemberRole', { userId: member.userId, role: products.roleId, languages: ['fra'] });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toContain('languages');
    const [row] = await db()
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.userId, member.userId), eq(memberships.companyId, company.companyId)));
    expect(row!.role).toBe(texts.roleId);
  });
});

describe('deleting a custom role', () => {
  it('is refused while a member, a deactivated member or an open invitation holds it, then deletes and records it', async () => {
    const role = await makeRole(['publish']);
    const member = await memberWith(role.roleId);
    const refuse = async () => {
      const res = await post('DeleteRole', { roleId: role.roleId });
      expect(res.status).toBe(409);
      expect(res.json.error).toBe(ROLE_IN_USE);
      expect(await db().$count(customRoles, eq(customRoles.id, role.roleId))).toBe(1);
    };
    await refuse();
    expect(
      (await call('GET', '/api/Account/GetRoles', { cookie: adminCookie })).json.items.find(
        (r: any) => r.roleId === role.roleId,
      ).memberCount,
    ).toBe(1);

    expect((await post('DeactivateMember', { userId: member.userId })).status).toBe(200);
    await refuse();
    expect((await post('ReactivateMember', { userId: member.userId })).json.role).toBe(role.roleId);
    expect((await post('SetMemberRole', { userId: member.userId, role: 'viewer' })).status).toBe(200);

    const invited = await post('InviteMember', {
      email: `${crypto.randomUUID().slice(0, 8)}@roles.example`,
      role: role.roleId,
    });
    expect(invited.status, invited.text).toBe(200);
    expect(invited.json.role).toBe(role.roleId);
    await refuse();
    expect((await post('RevokeInvitation', { invitationId: invited.json.invitationId })).status).toBe(200);

    const deleted = await post('DeleteRole', { roleId: role.roleId });
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json).toEqual({ roleId: role.roleId, deleted: true });
    expect(await db().$count(customRoles, eq(customRoles.id, role.roleId))).toBe(0);
    expect((await post('DeleteRole', { roleId: role.roleId })).status).toBe(404);
    const rows = await db()
      .select({ action: memberChanges.action })
      .from(memberChanges)
      .where(eq(memberChanges.userId, role.roleId))
      .orderBy(memberChanges.id);
    expect(rows.map((r) => r.action)).toEqual(['create-role', 'delete-role']);
  });
});
