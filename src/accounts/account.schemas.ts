import { z } from 'zod';
import { MEMBER_CHANGE_ACTIONS } from '../db/schema';
import { Page, PageQuery } from '../kernel/pagination';
import { GRANTABLE_PERMISSIONS, PERMISSIONS, ROLES } from '../kernel/permissions';

/**
 * A member's role as the API names it: a built-in role's name, or the id of one of the company's
 * custom roles (docs/teams.md "Custom roles", `Account/GetRoles`).
 */
const ROLE_RULE = `must be a built-in role (${ROLES.join(', ')}) or a custom role's id`;
export const MemberRoleSchema = z.union([z.enum(ROLES), z.uuid({ error: ROLE_RULE })], { error: ROLE_RULE });

export const LoginDto = z.strictObject({
  email: z.string().trim().min(3).max(254),
  password: z.string().min(1).max(1024),
});

export const ChangePasswordDto = z.strictObject({
  currentPassword: z.string().min(1).max(1024),
  newPassword: z.string().min(12, 'newPassword must have at least 12 characters').max(1024),
});

export const SwitchDepartmentDto = z.strictObject({ departmentId: z.uuid() });

export const AccountDto = z.object({
  user: z.object({ userId: z.string(), email: z.string(), name: z.string() }),
  company: z.object({ companyId: z.string(), name: z.string() }),
  departmentId: z.string(),
  departments: z.array(z.object({ departmentId: z.string(), name: z.string() })),
  role: MemberRoleSchema,
  /** The role's name: a built-in role's own, or the custom role's (docs/teams.md "Custom roles"). */
  roleName: z.string(),
  /** The membership's language scope (a translator's languages); empty: every language. */
  languages: z.array(z.string()),
  /** The membership's catalog scope (docs/teams.md); with `categoryIds` empty too: every product. */
  catalogIds: z.array(z.string()),
  /** The membership's category scope: each category with its whole subtree. */
  categoryIds: z.array(z.string()),
  /** The membership's channel scope (exports, review decisions); empty: every channel. */
  channelIds: z.array(z.string()),
  /** What the role permits (kernel/permissions.ts), for the web app to offer only what the user may do. */
  permissions: z.array(z.enum(PERMISSIONS)),
  companyCount: z.number().int(),
  aiMayEditClassifications: z.boolean(),
  /** The user is the service operator: may load and replace the classification releases every company shares. */
  operator: z.boolean(),
});

export const LoginResultDto = z.object({ userId: z.string(), expiresAt: z.string() });
export const OkDto = z.object({ ok: z.literal(true) });
/** Logout: `redirectUrl` only for a session opened through SSO whose provider offers sign-out (docs/sso.md). */
export const LogoutResultDto = OkDto.extend({ redirectUrl: z.url().optional() });

export const RevokeAiAccessDto = z.strictObject({ userId: z.uuid() });
export const RevokeAiAccessOut = z.object({ userId: z.string(), revoked: z.literal(true) });
export const SetAiSwitchDto = z.strictObject({ userId: z.uuid(), enabled: z.boolean() });
export const SetAiSwitchOut = z.object({ userId: z.string(), aiMayEditClassifications: z.boolean() });
export const UserListOut = z.object({
  items: z.array(
    z.object({
      userId: z.string(),
      email: z.string(),
      name: z.string(),
      role: MemberRoleSchema,
      /** The member's language scope; empty: every language. */
      languages: z.array(z.string()),
      /** The member's catalog, category and channel scopes (docs/teams.md); all empty: no such limit. */
      catalogIds: z.array(z.string()),
      categoryIds: z.array(z.string()),
      channelIds: z.array(z.string()),
      aiMayEditClassifications: z.boolean(),
      /**
       * The role the identity provider's groups last mapped the member to (docs/sso.md "Roles
       * given by hand"); null for a member without single sign-on (or not mapped since migration
       * 0077). Another `role`: given by an admin, kept until the provider's mapped role changes.
       */
      ssoMappedRole: z.string().nullable(),
      /** `deactivated`: no access until reactivated; `role` and `languages` are what a reactivation restores. */
      status: z.enum(['active', 'deactivated']),
    }),
  ),
});

/**
 * An admin sets a member's role and language scope (docs/teams.md). `languages` is for a
 * translator only: the company's enabled languages it may write texts in (empty or absent:
 * every language).
 */
/** Scope lists stay short: a member is limited to a few brands or channels, not thousands. */
export const MAX_SCOPE_IDS = 50;
const ScopeIds = (what: string) =>
  z
    .array(z.uuid(`must name ${what} by id`))
    .max(MAX_SCOPE_IDS, `at most ${MAX_SCOPE_IDS} ${what}`)
    .optional();

export const SetMemberRoleDto = z.strictObject({
  userId: z.uuid(),
  role: MemberRoleSchema,
  languages: z.array(z.string().max(3)).max(50).optional(),
  /**
   * The catalogs and categories (each with its whole subtree) whose products the member may
   * read and write; both empty: every product. Not for an admin. Each replaces the member's
   * scope of its kind when given, and leaves it as it is when absent.
   */
  catalogIds: ScopeIds('catalogs'),
  categoryIds: ScopeIds('categories'),
  /** The channels the member may export to and decide reviews in; empty: every channel; absent: kept. Not for an admin. */
  channelIds: ScopeIds('channels'),
});
export const SetMemberRoleOut = z.object({
  userId: z.string(),
  role: MemberRoleSchema,
  languages: z.array(z.string()),
  catalogIds: z.array(z.string()),
  categoryIds: z.array(z.string()),
  channelIds: z.array(z.string()),
  /** False when the member already had this role and scope: nothing was written or recorded. */
  changed: z.boolean(),
});

/** Without `userId`: the whole company's audit, newest first, in keyset pages. */
export const MemberChangesQuery = z.strictObject({ userId: z.uuid().optional(), ...PageQuery });
export const MemberChangesOut = Page(
  z.object({
    changeId: z.string(),
    at: z.string(),
    /** What happened (docs/teams.md): a role or scope change, an invitation and its fate, a (re)activation. */
    action: z.enum(MEMBER_CHANGE_ACTIONS),
    /** The member; null for `invite` and `revoke-invitation`, which name `invitationId`, and for the custom role rows. */
    userId: z.string().nullable(),
    invitationId: z.string().nullable(),
    /** The custom role of a `create-role`, `update-role` or `delete-role` row (whose `userId` is null). */
    roleId: z.string().nullable(),
    /** The member's or the invitation's e-mail address. */
    email: z.string().nullable(),
    /** Who made the change: an admin, or the invitee for `join`. */
    changedBy: z.string(),
    surface: z.string(),
    /** Each changed thing (`role`, `languages`, `status`, `email`, `invitation`) with its value before and after. */
    changes: z.array(z.object({ path: z.string(), before: z.unknown(), after: z.unknown() })),
  }),
);

/** An admin invites an address with a role (and a translator's languages), docs/teams.md. */
export const InviteMemberDto = z.strictObject({
  email: z.email().max(254),
  role: MemberRoleSchema,
  languages: z.array(z.string().max(3)).max(50).optional(),
  /** The scopes the member gets on joining (as `SetMemberRole`'s; not for an admin). */
  catalogIds: ScopeIds('catalogs'),
  categoryIds: ScopeIds('categories'),
  channelIds: ScopeIds('channels'),
});
const InvitationScopes = {
  catalogIds: z.array(z.string()),
  categoryIds: z.array(z.string()),
  channelIds: z.array(z.string()),
};
export const InvitationStatus = z.enum(['open', 'accepted', 'revoked', 'expired']);
export const InviteMemberOut = z.object({
  invitationId: z.string(),
  email: z.string(),
  role: MemberRoleSchema,
  languages: z.array(z.string()),
  ...InvitationScopes,
  expiresAt: z.string(),
  /** The link to pass on; shown once (only a hash of its token is stored). */
  link: z.string(),
});
export const InvitationListOut = z.object({
  items: z.array(
    z.object({
      invitationId: z.string(),
      email: z.string(),
      role: MemberRoleSchema,
      languages: z.array(z.string()),
      ...InvitationScopes,
      invitedBy: z.string(),
      createdAt: z.string(),
      expiresAt: z.string(),
      status: InvitationStatus,
      /** The account that accepted it. */
      acceptedBy: z.string().nullable(),
    }),
  ),
});
export const RevokeInvitationDto = z.strictObject({ invitationId: z.uuid() });
export const RevokeInvitationOut = z.object({ invitationId: z.string(), status: z.literal('revoked') });

/** The invitation link's token (no session: the token is the credential). */
export const InvitationQuery = z.strictObject({ token: z.string().min(1).max(200) });
export const InvitationOut = z.object({
  email: z.string(),
  companyName: z.string(),
  role: MemberRoleSchema,
  /** The role's name: a built-in role's own, or the custom role's. */
  roleName: z.string(),
  languages: z.array(z.string()),
  ...InvitationScopes,
  expiresAt: z.string(),
  /** The address has an account: accepting asks for its password instead of a new one. */
  hasAccount: z.boolean(),
  /** The company's single sign-on name, when it has one (`/sign-in?sso=<slug>`). */
  ssoSlug: z.string().nullable(),
  /** Single sign-on is mandatory: a password cannot accept; sign in through the provider. */
  ssoMandatory: z.boolean(),
});
export const AcceptInvitationDto = z.strictObject({
  token: z.string().min(1).max(200),
  /** A new password (at least 12 characters), or the existing account's password. */
  password: z.string().min(1).max(1024),
  /** The new account's name; ignored for an existing account. */
  name: z.string().trim().max(200).optional(),
});

export const MemberStatusDto = z.strictObject({ userId: z.uuid() });
export const DeactivateMemberOut = z.object({ userId: z.string(), status: z.literal('deactivated') });
export const ReactivateMemberOut = z.object({
  userId: z.string(),
  status: z.literal('active'),
  role: MemberRoleSchema,
  languages: z.array(z.string()),
});

/** A custom role's name: printable, short, unique in the company whatever the case. */
const RoleName = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(60, 'name: at most 60 characters')
  .regex(/^[^\p{Cc}]+$/u, 'name must be printable');
/** The permissions a custom role grants: from the fixed list, never `company.admin`; `read` is always added. */
const GrantedPermissions = z
  .array(
    z.enum(GRANTABLE_PERMISSIONS, {
      error: `each permission must be one of ${GRANTABLE_PERMISSIONS.join(', ')} (company.admin is the built-in admin role's)`,
    }),
  )
  .max(PERMISSIONS.length);

export const RoleOut = z.object({
  /** A built-in role's name, or the custom role's id: what `SetMemberRole` and `InviteMember` take as `role`. */
  roleId: z.string(),
  name: z.string(),
  builtIn: z.boolean(),
  permissions: z.array(z.enum(PERMISSIONS)),
  /** Active members holding the role. */
  memberCount: z.number().int(),
});
export const RoleListOut = z.object({ items: z.array(RoleOut) });
export const CreateRoleDto = z.strictObject({ name: RoleName, permissions: GrantedPermissions });
export const UpdateRoleDto = z.strictObject({
  roleId: z.uuid('roleId must name a custom role by id'),
  name: RoleName.optional(),
  permissions: GrantedPermissions.optional(),
});
export const UpdateRoleOut = z.object({
  roleId: z.string(),
  name: z.string(),
  permissions: z.array(z.enum(PERMISSIONS)),
  /** False when the role already had this name and these permissions: nothing was written or recorded. */
  changed: z.boolean(),
});
export const DeleteRoleDto = z.strictObject({ roleId: z.uuid('roleId must name a custom role by id') });
export const DeleteRoleOut = z.object({ roleId: z.string(), deleted: z.literal(true) });
