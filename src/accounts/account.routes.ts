import { Hono } from 'hono';
import type { AppEnv } from '../env';
import { unauthorized } from '../kernel/app-error';
import { cellPrimaryOf, prepareScopeSetAfter } from '../http/cell';
import { clientIp, rateLimit } from '../http/rate-limit';
import { validate } from '../http/validate';
import { describeOperation } from '../openapi/describe-operation';
import { revokeUserGrants } from '../oauth/revoke-grants';
import { changePassword, describeAccount, login, logout, switchDepartment } from './accounts';
import {
  AcceptInvitationDto,
  AccountDto,
  ChangePasswordDto,
  CreateRoleDto,
  DeleteRoleDto,
  DeleteRoleOut,
  RoleListOut,
  RoleOut,
  UpdateRoleDto,
  UpdateRoleOut,
  DeactivateMemberOut,
  InvitationListOut,
  InvitationOut,
  InvitationQuery,
  InviteMemberDto,
  InviteMemberOut,
  MemberStatusDto,
  ReactivateMemberOut,
  RevokeInvitationDto,
  RevokeInvitationOut,
  LoginDto,
  LoginResultDto,
  LogoutResultDto,
  OkDto,
  RevokeAiAccessDto,
  RevokeAiAccessOut,
  MemberChangesOut,
  MemberChangesQuery,
  SetAiSwitchDto,
  SetAiSwitchOut,
  SetMemberRoleDto,
  SetMemberRoleOut,
  SwitchDepartmentDto,
  UserListOut,
} from './account.schemas';
import { listUsers, revokeAiAccess, setAiSwitch } from './ai-access';
import {
  ACCEPT_CONFLICT,
  acceptInvitation,
  describeInvitation,
  INVITE_CONFLICT,
  inviteMember,
  listInvitations,
  REVOKE_CONFLICT,
  revokeInvitation,
} from './invitations';
import { createRole, deleteRole, listRoles, ROLE_IN_USE, ROLE_NAME_CONFLICT, updateRole } from './custom-roles';
import { listMemberChanges } from './member-audit';
import { OWN_ROLE, setMemberRole } from './member-roles';
import { DEACTIVATE_CONFLICT, deactivateMember, REACTIVATE_CONFLICT, reactivateMember } from './member-status';
import { providerSignOutUrl } from './sso/sso-sign-out';
import { checkOrigin, clearSessionCookie, requireSession, sessionToken, setSessionCookie } from './session-auth';

/** `/api/Account/*`: web sessions. */
export const accountRoutes = new Hono<AppEnv>()
  .use(checkOrigin)
  .post(
    '/Login',
    describeOperation({
      tag: 'Account',
      summary: 'Log in and receive the Service.Cookie session cookie',
      response: LoginResultDto,
      security: 'none',
      signIn: true,
      rateLimited: 'Too many tries from this IP, or for this email from this IP',
    }),
    validate('json', LoginDto),
    rateLimit('signIn', { failuresOnly: true }),
    async (c) => {
      const result = await login(c.var.dbSession.primary(), c.req.valid('json'), clientIp(c.req.raw));
      setSessionCookie(c, result.token, result.expiresAt);
      return c.json({ userId: result.userId, expiresAt: result.expiresAt });
    },
  )
  .post(
    '/Logout',
    describeOperation({
      tag: 'Account',
      summary:
        'End the web session; for a session opened through single sign-on whose provider offers it, answers the provider sign-out URL to send the browser to',
      response: LogoutResultDto,
      security: 'cookie',
      credentialOptional: true,
    }),
    async (c) => {
      const token = sessionToken(c);
      const db = c.var.dbSession.primary();
      const ended = token ? await logout(db, token) : null;
      clearSessionCookie(c);
      const redirectUrl = ended ? await providerSignOutUrl(db, c.env, ended, new URL(c.req.url).origin) : null;
      return c.json({ ok: true as const, ...(redirectUrl ? { redirectUrl } : {}) });
    },
  )
  .get(
    '/Me',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: 'The logged-in user, company and department',
      response: AccountDto,
      security: 'cookie',
    }),
    async (c) => c.json(await describeAccount(c.var.db, c.var.caller)),
  )
  .post(
    '/SwitchDepartment',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: "Change the session's current department",
      response: SwitchDepartmentDto,
      security: 'cookie',
      // Every member's own session and password, whatever the role.
      permission: 'read',
    }),
    validate('json', SwitchDepartmentDto),
    async (c) => {
      const token = sessionToken(c);
      if (!token) throw unauthorized();
      return c.json(
        await switchDepartment(
          c.var.dbSession.primary(),
          token,
          c.var.caller.companyId,
          c.req.valid('json').departmentId,
        ),
      );
    },
  )
  .post(
    '/ChangePassword',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: 'Change the password; ends all sessions and revokes AI access tokens',
      response: OkDto,
      security: 'cookie',
      permission: 'read',
      rateLimited: 'Too many wrong current passwords from this IP',
    }),
    validate('json', ChangePasswordDto),
    async (c) => {
      await changePassword(c.var.dbSession.primary(), c.var.caller.userId, c.req.valid('json'), clientIp(c.req.raw));
      await revokeGrantsQuietly(c.env, c.req.url, c.var.caller.userId);
      clearSessionCookie(c);
      return c.json({ ok: true as const });
    },
  )
  .post(
    '/RevokeAiAccess',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: "Admin: revoke a user's AI tokens now (new security stamp)",
      response: RevokeAiAccessOut,
      security: 'cookie',
      adminOnly: true,
    }),
    validate('json', RevokeAiAccessDto),
    async (c) => {
      const result = await revokeAiAccess(c.var.dbSession.primary(), c.var.caller, c.req.valid('json'));
      await revokeGrantsQuietly(c.env, c.req.url, result.userId);
      return c.json(result);
    },
  )
  .get(
    '/GetUsers',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: "Admin: the company's users with role and AI switch",
      response: UserListOut,
      security: 'cookie',
      adminOnly: true,
    }),
    async (c) => c.json(await listUsers(c.var.db, c.var.caller)),
  )
  .post(
    '/SetAiSwitch',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: 'Admin: set a user\'s switch "AI may edit classifications"',
      response: SetAiSwitchOut,
      security: 'cookie',
      adminOnly: true,
    }),
    validate('json', SetAiSwitchDto),
    async (c) => c.json(await setAiSwitch(c.var.db, c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/SetMemberRole',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary:
        "Admin: set a member's role and scopes: a translator's languages, the catalogs, category subtrees and channels a member is limited to (recorded)",
      response: SetMemberRoleOut,
      security: 'cookie',
      adminOnly: true,
      conflict: OWN_ROLE,
    }),
    validate('json', SetMemberRoleDto),
    async (c) => {
      const catalogDb = await cellPrimaryOf(c, c.var.caller.companyId);
      const input = c.req.valid('json');
      const answer = await setMemberRole(c.var.dbSession.primary(), c.var.caller, input, catalogDb);
      // The member's scoped counts read kept counters; their scope set is counted now, in the
      // background, rather than in the member's first request (docs/teams.md "Counts"); a scope
      // taken away drops the set no membership names any more.
      if (input.categoryIds !== undefined) prepareScopeSetAfter(c, c.var.caller.companyId, input.userId);
      return c.json(answer);
    },
  )
  .get(
    '/GetRoles',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: "Admin: the built-in roles and the company's custom roles, with their permissions and members",
      response: RoleListOut,
      security: 'cookie',
      adminOnly: true,
    }),
    async (c) => c.json(await listRoles(c.var.db, c.var.caller)),
  )
  .post(
    '/CreateRole',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary:
        'Admin: create a custom role: a name and permissions from the fixed list, never company.admin (recorded)',
      response: RoleOut,
      security: 'cookie',
      adminOnly: true,
      conflict: ROLE_NAME_CONFLICT,
    }),
    validate('json', CreateRoleDto),
    async (c) => c.json(await createRole(c.var.dbSession.primary(), c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/UpdateRole',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary:
        'Admin: rename a custom role or change its permissions; its members act with them at their next request (recorded)',
      response: UpdateRoleOut,
      security: 'cookie',
      adminOnly: true,
      conflict: ROLE_NAME_CONFLICT,
    }),
    validate('json', UpdateRoleDto),
    async (c) => c.json(await updateRole(c.var.dbSession.primary(), c.var.caller, c.req.valid('json'))),
  )
  .post(
    '/DeleteRole',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary:
        'Admin: delete a custom role that no member, deactivated member, open invitation or SSO group mapping holds (recorded)',
      response: DeleteRoleOut,
      security: 'cookie',
      adminOnly: true,
      conflict: ROLE_IN_USE,
    }),
    validate('json', DeleteRoleDto),
    async (c) => c.json(await deleteRole(c.var.dbSession.primary(), c.var.caller, c.req.valid('json'))),
  )
  .get(
    '/GetMemberChanges',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: "Admin: a member's role and scope changes, newest first (who, when, before -> after)",
      response: MemberChangesOut,
      security: 'cookie',
      adminOnly: true,
    }),
    validate('query', MemberChangesQuery),
    async (c) => c.json(await listMemberChanges(c.var.db, c.var.caller, c.req.valid('query'))),
  )
  .post(
    '/InviteMember',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary:
        "Admin: invite an e-mail address with a role (built-in or custom), a translator's languages and catalog, category and channel scopes; answers the single-use link, valid 7 days (recorded)",
      response: InviteMemberOut,
      security: 'cookie',
      adminOnly: true,
      conflict: INVITE_CONFLICT,
    }),
    validate('json', InviteMemberDto),
    async (c) => {
      const catalogDb = await cellPrimaryOf(c, c.var.caller.companyId);
      const origin = new URL(c.req.url).origin;
      return c.json(
        await inviteMember(c.var.dbSession.primary(), c.var.caller, c.req.valid('json'), origin, catalogDb),
      );
    },
  )
  .get(
    '/GetInvitations',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: "Admin: the company's invitations, newest first, with their status (open, accepted, revoked, expired)",
      response: InvitationListOut,
      security: 'cookie',
      adminOnly: true,
    }),
    async (c) => c.json(await listInvitations(c.var.db, c.var.caller)),
  )
  .post(
    '/RevokeInvitation',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: 'Admin: revoke an open invitation; its link stops working (recorded)',
      response: RevokeInvitationOut,
      security: 'cookie',
      adminOnly: true,
      conflict: REVOKE_CONFLICT,
    }),
    validate('json', RevokeInvitationDto),
    async (c) => c.json(await revokeInvitation(c.var.dbSession.primary(), c.var.caller, c.req.valid('json'))),
  )
  .get(
    '/GetInvitation',
    describeOperation({
      tag: 'Account',
      summary: 'The invitation an invitation link names (no session: the token is the credential)',
      response: InvitationOut,
      security: 'none',
      references: ['token'],
    }),
    validate('query', InvitationQuery),
    async (c) => c.json(await describeInvitation(c.var.dbSession.primary(), c.req.valid('query'))),
  )
  .post(
    '/AcceptInvitation',
    describeOperation({
      tag: 'Account',
      summary:
        "Accept an invitation: set a password (or give the existing account's), join the company with its role and receive the session cookie",
      response: LoginResultDto,
      security: 'none',
      signIn: true,
      references: ['token'],
      conflict: ACCEPT_CONFLICT,
      rateLimited: 'Too many tries from this IP, or for this email from this IP',
    }),
    validate('json', AcceptInvitationDto),
    rateLimit('signIn', { failuresOnly: true }),
    async (c) => {
      const result = await acceptInvitation(c.var.dbSession.primary(), c.req.valid('json'), clientIp(c.req.raw));
      prepareScopeSetAfter(c, result.companyId, result.userId);
      setSessionCookie(c, result.token, result.expiresAt);
      return c.json({ userId: result.userId, expiresAt: result.expiresAt });
    },
  )
  .post(
    '/DeactivateMember',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary:
        'Admin: deactivate a member: their sessions and agent tokens stop working at once; role and languages are kept for a reactivation (recorded)',
      response: DeactivateMemberOut,
      security: 'cookie',
      adminOnly: true,
      conflict: DEACTIVATE_CONFLICT,
    }),
    validate('json', MemberStatusDto),
    async (c) => {
      const result = await deactivateMember(c.var.dbSession.primary(), c.var.caller, c.req.valid('json'));
      await revokeGrantsQuietly(c.env, c.req.url, result.userId);
      return c.json(result);
    },
  )
  .post(
    '/ReactivateMember',
    requireSession,
    describeOperation({
      tag: 'Account',
      summary: 'Admin: reactivate a deactivated member with the role and languages they had (recorded)',
      response: ReactivateMemberOut,
      security: 'cookie',
      adminOnly: true,
      conflict: REACTIVATE_CONFLICT,
    }),
    validate('json', MemberStatusDto),
    async (c) => {
      const result = await reactivateMember(c.var.dbSession.primary(), c.var.caller, c.req.valid('json'));
      prepareScopeSetAfter(c, c.var.caller.companyId, result.userId);
      return c.json(result);
    },
  );

/**
 * The new security stamp already refuses every token; deleting the grants from KV is cleanup,
 * so a KV hiccup must not turn a completed password change into an error.
 */
async function revokeGrantsQuietly(env: AppEnv['Bindings'], url: string, userId: string): Promise<void> {
  try {
    await revokeUserGrants(env, url, userId);
  } catch (err) {
    console.error(JSON.stringify({ event: 'grant_revocation_failed', userId, error: (err as Error).message }));
  }
}
