import { z } from 'zod';
import { MEMBER_CHANGE_ACTIONS } from '../db/schema';
import { Page, PageQuery } from '../kernel/pagination';
import { PERMISSIONS, ROLES } from '../kernel/permissions';

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
  role: z.enum(ROLES),
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
      role: z.enum(ROLES),
      /** The member's language scope; empty: every language. */
      languages: z.array(z.string()),
      /** The member's catalog, category and channel scopes (docs/teams.md); all empty: no such limit. */
      catalogIds: z.array(z.string()),
      categoryIds: z.array(z.string()),
      channelIds: z.array(z.string()),
      aiMayEditClassifications: z.boolean(),
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
  role: z.enum(ROLES),
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
  role: z.enum(ROLES),
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
    /** The member; null for `invite` and `revoke-invitation`, which name `invitationId`. */
    userId: z.string().nullable(),
    invitationId: z.string().nullable(),
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
  role: z.enum(ROLES),
  languages: z.array(z.string().max(3)).max(50).optional(),
});
export const InvitationStatus = z.enum(['open', 'accepted', 'revoked', 'expired']);
export const InviteMemberOut = z.object({
  invitationId: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  languages: z.array(z.string()),
  expiresAt: z.string(),
  /** The link to pass on; shown once (only a hash of its token is stored). */
  link: z.string(),
});
export const InvitationListOut = z.object({
  items: z.array(
    z.object({
      invitationId: z.string(),
      email: z.string(),
      role: z.enum(ROLES),
      languages: z.array(z.string()),
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
  role: z.enum(ROLES),
  languages: z.array(z.string()),
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
  role: z.enum(ROLES),
  languages: z.array(z.string()),
});
