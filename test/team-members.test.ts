import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ONLY } from '../src/accounts/admin-only';
import { INVITATION_NOT_VALID } from '../src/accounts/invitations';
import { invitations, memberDeactivations, membershipScopes, memberships, users } from '../src/db/schema';
import { db, makeCompany, makeUser, PASSWORD } from './helpers/factories';
import { call, loginAs } from './helpers/http';
import { tenantDigest } from './helpers/tenant-digest';

/**
 * Invitations, deactivation and the audit of permission changes (docs/teams.md, issue 33 item 4),
 * through the Worker as the web app calls them. Every company here is this file's own.
 */

type Company = Awaited<ReturnType<typeof makeCompany>>;
let company: Company;
let adminCookie: string;
let admin: Awaited<ReturnType<typeof makeUser>>;

beforeAll(async () => {
  company = await makeCompany();
  admin = await makeUser(company, { role: 'admin' });
  adminCookie = await loginAs(admin.email);
});

const tokenOf = (link: string) => link.slice(link.indexOf('#') + 1);
const cookieOf = (res: { headers: Headers }) => (res.headers.get('Set-Cookie') ?? '').split(';')[0]!;
const invite = (body: unknown, cookie = adminCookie) => call('POST', '/api/Account/InviteMember', { cookie, body });

describe('invitations', () => {
  it('carries a custom role and catalog scope, shown to the invitee and given on acceptance', async () => {
    const role = await call('POST', '/api/Account/CreateRole', {
      cookie: adminCookie,
      body: { name: `Agency ${crypto.randomUUID().slice(0, 6)}`, permissions: ['product.write'] },
    });
    expect(role.status, role.text).toBe(200);
    const catalog = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: adminCookie,
      body: { name: 'Brand A', departmentId: company.departmentId },
    });
    const catalogId: string = catalog.json.catalogId;
    const email = `agency-${crypto.randomUUID().slice(0, 8)}@team.example`;
    const before = await tenantDigest([company.companyId]);
    const asAdmin = await invite({ email, role: 'admin', catalogIds: [catalogId] });
    expect(asAdmin.status).toBe(400);
    expect(asAdmin.json.error).toContain('catalogIds');
    const unknown = await invite({ email, role: role.json.roleId, catalogIds: [crypto.randomUUID()] });
    expect([unknown.status, unknown.json.error]).toEqual([404, 'catalogIds[0]: catalog not found']);
    expect(await tenantDigest([company.companyId])).toBe(before);

    const res = await invite({ email, role: role.json.roleId, catalogIds: [catalogId] });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({
      role: role.json.roleId,
      catalogIds: [catalogId],
      categoryIds: [],
      channelIds: [],
    });
    const token = tokenOf(res.json.link);
    const opened = await call('GET', `/api/Account/GetInvitation?token=${encodeURIComponent(token)}`);
    expect(opened.json).toMatchObject({ role: role.json.roleId, roleName: role.json.name, catalogIds: [catalogId] });
    const accepted = await call('POST', '/api/Account/AcceptInvitation', {
      body: { token, password: 'a-new-password-1234' },
    });
    expect(accepted.status, accepted.text).toBe(200);
    const me = await call('GET', '/api/Account/Me', { cookie: cookieOf(accepted) });
    expect(me.json).toMatchObject({
      role: role.json.roleId,
      roleName: role.json.name,
      catalogIds: [catalogId],
      permissions: ['read', 'product.write'],
    });
    const audit = await call('GET', `/api/Account/GetMemberChanges?userId=${accepted.json.userId}`, {
      cookie: adminCookie,
    });
    expect(audit.json.items[0].changes).toContainEqual({ path: 'catalogIds', before: null, after: [catalogId] });
  });

  it('invites with a role and languages; the link opens once, sets a password and joins the company', async () => {
    const email = `new-${crypto.randomUUID().slice(0, 8)}@team.example`;
    const res = await invite({ email: email.toUpperCase(), role: 'translator', languages: ['deu'] });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ email, role: 'translator', languages: ['deu'] });
    expect(res.json.link).toMatch(/^http:\/\/pim\.test\/invitation#[\w-]{40,}$/);
    const token = tokenOf(res.json.link);
    // Only the hash is stored.
    const [row] = await db().select().from(invitations).where(eq(invitations.id, res.json.invitationId));
    expect(row!.tokenHash).not.toContain(token);
    expect(Date.parse(row!.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);

    const opened = await call('GET', `/api/Account/GetInvitation?token=${encodeURIComponent(token)}`);
    expect(opened.status).toBe(200);
    expect(opened.json).toMatchObject({
      email,
      role: 'translator',
      languages: ['deu'],
      hasAccount: false,
      ssoSlug: null,
    });

    const short = await call('POST', '/api/Account/AcceptInvitation', { body: { token, password: 'short' } });
    expect(short.status).toBe(400);
    expect(short.json.error).toContain('12 characters');

    const accepted = await call('POST', '/api/Account/AcceptInvitation', {
      body: { token, password: 'a-new-password-1234', name: 'Nina Neu' },
    });
    expect(accepted.status, accepted.text).toBe(200);
    const me = await call('GET', '/api/Account/Me', { cookie: cookieOf(accepted) });
    expect(me.json).toMatchObject({
      role: 'translator',
      languages: ['deu'],
      company: { companyId: company.companyId },
    });
    expect(me.json.user).toMatchObject({ email, name: 'Nina Neu' });
    // Single use.
    const again = await call('POST', '/api/Account/AcceptInvitation', {
      body: { token, password: 'a-new-password-1234' },
    });
    expect(again.status).toBe(404);
    expect(again.json.error).toBe(INVITATION_NOT_VALID);
    expect((await call('GET', `/api/Account/GetInvitation?token=${token}`)).status).toBe(404);

    const list = await call('GET', '/api/Account/GetInvitations', { cookie: adminCookie });
    expect(list.json.items.find((i: any) => i.invitationId === res.json.invitationId)).toMatchObject({
      status: 'accepted',
      acceptedBy: accepted.json.userId,
    });
    const audit = await call('GET', '/api/Account/GetMemberChanges', { cookie: adminCookie });
    const actions = audit.json.items.map((i: any) => [i.action, i.email]);
    expect(actions).toContainEqual(['invite', email]);
    expect(actions).toContainEqual(['join', email]);
    const join = audit.json.items.find((i: any) => i.action === 'join');
    expect(join).toMatchObject({ userId: accepted.json.userId, changedBy: accepted.json.userId, invitationId: null });
  });

  it('lets an existing account join with its own password, never with a wrong one', async () => {
    const other = await makeCompany();
    const outsider = await makeUser(other, { role: 'editor' });
    const res = await invite({ email: outsider.email, role: 'viewer' });
    expect(res.status, res.text).toBe(200);
    const token = tokenOf(res.json.link);
    expect((await call('GET', `/api/Account/GetInvitation?token=${token}`)).json.hasAccount).toBe(true);
    const wrong = await call('POST', '/api/Account/AcceptInvitation', {
      body: { token, password: 'not-the-password!' },
    });
    expect(wrong.status).toBe(401);
    // Nothing but the sign-in throttle's count of the failed try (docs/reliability.md).
    expect(await db().$count(memberships, eq(memberships.userId, outsider.userId))).toBe(1);
    const [still] = await db().select().from(invitations).where(eq(invitations.id, res.json.invitationId));
    expect(still?.acceptedAt).toBeNull();
    const ok = await call('POST', '/api/Account/AcceptInvitation', { body: { token, password: PASSWORD } });
    expect(ok.status, ok.text).toBe(200);
    const membership = await db()
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, outsider.userId), eq(memberships.companyId, company.companyId)));
    expect(membership[0]?.role).toBe('viewer');
    // The other company's membership is untouched.
    const home = await db().select().from(memberships).where(eq(memberships.userId, outsider.userId));
    expect(home).toHaveLength(2);
  });

  it('refuses bad invitations with nothing changed', async () => {
    const member = await makeUser(company, { role: 'editor' });
    const open = `open-${crypto.randomUUID().slice(0, 8)}@team.example`;
    expect((await invite({ email: open, role: 'editor' })).status).toBe(200);
    const editorCookie = await loginAs(member.email);
    const before = await tenantDigest([company.companyId]);
    const cases = [
      [adminCookie, { email: 'not-an-address', role: 'editor' }, 400, 'email'],
      [adminCookie, { email: 'x@team.example', role: 'owner' }, 400, 'role'],
      [adminCookie, { email: 'x@team.example', role: 'editor', languages: ['deu'] }, 400, 'languages'],
      [adminCookie, { email: 'x@team.example', role: 'translator', languages: ['jpn'] }, 400, 'languages[0]'],
      [adminCookie, { email: member.email, role: 'viewer' }, 409, 'already a member'],
      [adminCookie, { email: open, role: 'viewer' }, 409, 'open invitation'],
      [editorCookie, { email: 'x@team.example', role: 'admin' }, 403, ADMIN_ONLY],
    ] as const;
    for (const [cookie, body, status, message] of cases) {
      const res = await invite(body, cookie);
      expect({ status: res.status, body }).toEqual({ status, body });
      expect(res.json.error).toContain(message);
    }
    expect(await tenantDigest([company.companyId])).toBe(before);
  });

  it('revokes an open invitation: its link stops working, a second revoke is a conflict', async () => {
    const res = await invite({ email: `revoke-${crypto.randomUUID().slice(0, 8)}@team.example`, role: 'editor' });
    const token = tokenOf(res.json.link);
    const revoke = () =>
      call('POST', '/api/Account/RevokeInvitation', {
        cookie: adminCookie,
        body: { invitationId: res.json.invitationId },
      });
    expect((await revoke()).json).toEqual({ invitationId: res.json.invitationId, status: 'revoked' });
    expect((await revoke()).status).toBe(409);
    const accept = await call('POST', '/api/Account/AcceptInvitation', {
      body: { token, password: 'a-new-password-1234' },
    });
    expect(accept.status).toBe(404);
    // Another company's admin does not see it.
    const stranger = await makeUser(await makeCompany(), { role: 'admin' });
    const foreign = await call('POST', '/api/Account/RevokeInvitation', {
      cookie: await loginAs(stranger.email),
      body: { invitationId: res.json.invitationId },
    });
    expect(foreign.status).toBe(404);
    const audit = await call('GET', '/api/Account/GetMemberChanges', { cookie: adminCookie });
    expect(
      audit.json.items.filter((i: any) => i.invitationId === res.json.invitationId).map((i: any) => i.action),
    ).toEqual(['revoke-invitation', 'invite']);
  });

  it('does not let a member deactivated meanwhile back in through an older invitation', async () => {
    const outsider = await makeUser(await makeCompany(), { role: 'editor' });
    const res = await invite({ email: outsider.email, role: 'editor' });
    // Joined another way (here: directly), then deactivated, before using the link.
    await db().insert(memberships).values({
      userId: outsider.userId,
      companyId: company.companyId,
      role: 'viewer',
      defaultDepartmentId: company.departmentId,
    });
    const off = await call('POST', '/api/Account/DeactivateMember', {
      cookie: adminCookie,
      body: { userId: outsider.userId },
    });
    expect(off.status).toBe(200);
    const accept = await call('POST', '/api/Account/AcceptInvitation', {
      body: { token: tokenOf(res.json.link), password: PASSWORD },
    });
    expect(accept.status).toBe(409);
    expect(
      await db().$count(
        memberships,
        and(eq(memberships.userId, outsider.userId), eq(memberships.companyId, company.companyId)),
      ),
    ).toBe(0);
  });

  it('refuses an expired invitation', async () => {
    const res = await invite({ email: `late-${crypto.randomUUID().slice(0, 8)}@team.example`, role: 'editor' });
    await db()
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(invitations.id, res.json.invitationId));
    const accept = await call('POST', '/api/Account/AcceptInvitation', {
      body: { token: tokenOf(res.json.link), password: 'a-new-password-1234' },
    });
    expect(accept.status).toBe(404);
    expect(await db().$count(users, eq(users.email, res.json.email))).toBe(0);
  });
});

describe('deactivation', () => {
  it('ends sessions and tokens, keeps role, languages and scopes, and reactivation restores them', async () => {
    const member = await makeUser(company, { role: 'editor' });
    const catalog = await call('POST', '/api/Catalog/AddCatalog', {
      cookie: adminCookie,
      body: { departmentId: company.departmentId, name: 'Agency brand', language: 'deu' },
    });
    expect(catalog.status, catalog.text).toBe(200);
    const catalogId = catalog.json.catalogId as string;
    const set = await call('POST', '/api/Account/SetMemberRole', {
      cookie: adminCookie,
      body: { userId: member.userId, role: 'translator', languages: ['deu'], catalogIds: [catalogId] },
    });
    expect(set.status, set.text).toBe(200);
    const cookie = await loginAs(member.email);
    const stampBefore = (await db().select().from(users).where(eq(users.id, member.userId)))[0]!.securityStamp;

    const off = await call('POST', '/api/Account/DeactivateMember', {
      cookie: adminCookie,
      body: { userId: member.userId },
    });
    expect(off.status, off.text).toBe(200);
    expect(off.json).toEqual({ userId: member.userId, status: 'deactivated' });
    expect((await call('GET', '/api/Account/Me', { cookie })).status).toBe(401);
    const stampAfter = (await db().select().from(users).where(eq(users.id, member.userId)))[0]!.securityStamp;
    expect(stampAfter).not.toBe(stampBefore);
    const login = await call('POST', '/api/Account/Login', { body: { email: member.email, password: PASSWORD } });
    expect(login.status).toBe(401);
    const [kept] = await db().select().from(memberDeactivations).where(eq(memberDeactivations.userId, member.userId));
    expect(kept).toMatchObject({
      role: 'translator',
      languages: ['deu'],
      scopes: [['catalog', catalogId]],
      deactivatedBy: admin.userId,
    });

    const listed = await call('GET', '/api/Account/GetUsers', { cookie: adminCookie });
    expect(listed.json.items.find((u: any) => u.userId === member.userId)).toMatchObject({
      status: 'deactivated',
      role: 'translator',
      languages: ['deu'],
      catalogIds: [catalogId],
    });
    const twice = await call('POST', '/api/Account/DeactivateMember', {
      cookie: adminCookie,
      body: { userId: member.userId },
    });
    expect(twice.status).toBe(409);

    const on = await call('POST', '/api/Account/ReactivateMember', {
      cookie: adminCookie,
      body: { userId: member.userId },
    });
    expect(on.json).toEqual({ userId: member.userId, status: 'active', role: 'translator', languages: ['deu'] });
    const me = await call('GET', '/api/Account/Me', { cookie: await loginAs(member.email) });
    expect(me.json).toMatchObject({ role: 'translator', languages: ['deu'], catalogIds: [catalogId] });
    expect(await db().$count(membershipScopes, eq(membershipScopes.userId, member.userId))).toBe(2);
    expect(
      (await call('POST', '/api/Account/ReactivateMember', { cookie: adminCookie, body: { userId: member.userId } }))
        .status,
    ).toBe(409);

    const audit = await call('GET', `/api/Account/GetMemberChanges?userId=${member.userId}`, { cookie: adminCookie });
    expect(audit.json.items.map((i: any) => [i.action, i.changedBy])).toEqual([
      ['reactivate', admin.userId],
      ['deactivate', admin.userId],
      ['role', admin.userId],
    ]);
  });

  it('refuses deactivating oneself, an unknown or foreign user, and callers who are not admins', async () => {
    const member = await makeUser(company, { role: 'editor' });
    const foreign = await makeUser(await makeCompany(), { role: 'editor' });
    const memberCookie = await loginAs(member.email);
    const before = await tenantDigest([company.companyId, foreign.companyId]);
    const deactivate = (cookie: string, userId: string) =>
      call('POST', '/api/Account/DeactivateMember', { cookie, body: { userId } });
    expect((await deactivate(adminCookie, admin.userId)).status).toBe(409);
    expect((await deactivate(adminCookie, foreign.userId)).status).toBe(404);
    expect((await deactivate(adminCookie, crypto.randomUUID())).status).toBe(404);
    expect((await deactivate(memberCookie, admin.userId)).status).toBe(403);
    expect(
      (await call('POST', '/api/Account/ReactivateMember', { cookie: adminCookie, body: { userId: member.userId } }))
        .status,
    ).toBe(409);
    expect(await tenantDigest([company.companyId, foreign.companyId])).toBe(before);
  });

  it('pages the company audit newest first with a cursor', async () => {
    const own = await makeCompany();
    const ownAdmin = await makeUser(own, { role: 'admin' });
    const cookie = await loginAs(ownAdmin.email);
    for (let i = 0; i < 3; i++) {
      expect((await invite({ email: `page-${i}@team.example`, role: 'viewer' }, cookie)).status).toBe(200);
    }
    const first = await call('GET', '/api/Account/GetMemberChanges?limit=2', { cookie });
    expect(first.json.items.map((i: any) => i.email)).toEqual(['page-2@team.example', 'page-1@team.example']);
    const second = await call('GET', `/api/Account/GetMemberChanges?limit=2&cursor=${first.json.nextCursor}`, {
      cookie,
    });
    expect(second.json.items.map((i: any) => i.email)).toEqual(['page-0@team.example']);
    expect(second.json.nextCursor).toBeNull();
  });
});
