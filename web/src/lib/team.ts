import type { MemberChange } from '../api/models';
import type { MessageKey } from '../i18n/de';
import type { T } from '../i18n/i18n';

/**
 * The Team screen's logic (docs/teams.md, docs/web.md "Administration"): the token of an
 * invitation link, the languages an admin types for a translator, and the audit's entries in
 * the user's language.
 */

/**
 * The token of an invitation link (`/invitation#<token>`): the fragment, which the browser never
 * sends to a server. Null when there is none or it cannot be one (base64url, 20 to 200 characters).
 */
export function invitationToken(hash: string): string | null {
  const token = hash.replace(/^#/, '').trim();
  return /^[\w-]{20,200}$/.test(token) ? token : null;
}

/** "fra, eng" or "fra eng" as the codes the API takes: lower case, no duplicates, order kept. */
export function parseLanguages(text: string): string[] {
  const codes = text
    .split(/[\s,;]+/)
    .map((code) => code.trim().toLowerCase())
    .filter(Boolean);
  return [...new Set(codes)];
}

const ACTION_KEYS: Record<MemberChange['action'], MessageKey> = {
  'create-role': 'team.action.createRole',
  'update-role': 'team.action.updateRole',
  'delete-role': 'team.action.deleteRole',
  role: 'team.action.role',
  invite: 'team.action.invite',
  'revoke-invitation': 'team.action.revokeInvitation',
  join: 'team.action.join',
  deactivate: 'team.action.deactivate',
  reactivate: 'team.action.reactivate',
};

/** What happened, in words: "Role changed", "Invited", ... */
export function actionText(action: MemberChange['action'], t: T): string {
  return t(ACTION_KEYS[action]);
}

/** A recorded value in words: a role by its name, a language list joined, nothing as a dash. */
function valueText(path: string, value: unknown, t: T): string {
  if (value === null || value === undefined) return '–';
  if (Array.isArray(value) && path === 'permissions') return value.map((p) => permissionName(String(p), t)).join(', ');
  if (Array.isArray(value) && path !== 'languages') return value.length ? value.join(', ') : t('team.scope.none');
  if (Array.isArray(value)) return value.length ? value.join(', ') : t('team.allLanguages');
  if (path === 'role' && typeof value === 'string') return roleName(value, t);
  if (path === 'status' && (value === 'active' || value === 'deactivated' || value === 'open' || value === 'revoked'))
    return t(`team.status.${value}`);
  return String(value);
}

const ROLE_KEYS = new Set(['admin', 'editor', 'viewer', 'translator', 'reviewer', 'publisher']);
/**
 * A role in words: a built-in role in the user's language, a custom role by its name (from
 * `Account/GetRoles`, or the name the API gave with it), else its id.
 */
export function roleName(role: string, t: T, custom?: readonly { roleId: string; name: string }[] | string): string {
  if (ROLE_KEYS.has(role)) return t(`role.${role}` as MessageKey);
  if (typeof custom === 'string') return custom;
  return custom?.find((r) => r.roleId === role)?.name ?? role;
}

const PATH_KEYS: Record<string, MessageKey> = {
  role: 'account.role',
  name: 'account.name',
  permissions: 'team.permissions',
  catalogIds: 'team.scope.catalogs',
  categoryIds: 'team.scope.categories',
  channelIds: 'team.scope.channels',
  languages: 'admin.languages',
  status: 'team.status',
  email: 'signIn.email',
  invitation: 'team.invitation',
};

/**
 * The changes of one audit entry as "Role: Editor → Translator" lines; a change whose value
 * stayed the same (the languages of a role change that kept them) is left out.
 */
export function changeLines(item: Pick<MemberChange, 'changes'>, t: T): string[] {
  return item.changes
    .filter((c) => JSON.stringify(c.before) !== JSON.stringify(c.after))
    .map((c) => {
      const label = PATH_KEYS[c.path] ? t(PATH_KEYS[c.path]!) : c.path;
      return `${label}: ${valueText(c.path, c.before, t)} → ${valueText(c.path, c.after, t)}`;
    });
}

/**
 * What a custom role may grant (docs/teams.md "Custom roles"): every permission but
 * `company.admin`, which stays the built-in admin role's; `read` is always granted.
 */
export const GRANTABLE_PERMISSIONS = [
  'read',
  'product.write',
  'text.write',
  'classification.write',
  'review.submit',
  'review.decide',
  'publish',
] as const;

const PERMISSION_KEYS = new Set<string>([...GRANTABLE_PERMISSIONS, 'company.admin']);
/** A permission in words ("Write texts in their languages"); an unknown one as it is. */
export function permissionName(permission: string, t: T): string {
  return PERMISSION_KEYS.has(permission) ? t(`permission.${permission}` as MessageKey) : permission;
}

interface RoleLike {
  roleId: string;
  name: string;
  permissions: readonly string[];
}

/**
 * Whether a member with this role can have a language scope: the role writes texts but not
 * products (the translator, or a custom role like it), as the server decides (SetMemberRole).
 */
export function takesLanguages(role: string, roles: readonly RoleLike[] | undefined): boolean {
  if (role === 'translator') return true;
  const permissions = roles?.find((r) => r.roleId === role)?.permissions ?? [];
  return permissions.includes('text.write') && !permissions.includes('product.write');
}

/** A member's catalog, category and channel scopes. */
export interface ScopeIds {
  catalogIds: readonly string[];
  categoryIds: readonly string[];
  channelIds: readonly string[];
}

/**
 * A member's scopes in a few words: "Catalogs: Brand A · Channels: Shop", or "everything" when
 * there is none. Ids whose names are unknown (deleted meanwhile) are shown as ids.
 */
export function scopeSummary(scope: ScopeIds, names: ReadonlyMap<string, string>, t: T): string {
  const parts = (
    [
      ['team.scope.catalogs', scope.catalogIds],
      ['team.scope.categories', scope.categoryIds],
      ['team.scope.channels', scope.channelIds],
    ] as const
  )
    .filter(([, ids]) => ids.length)
    .map(([key, ids]) => `${t(key)}: ${ids.map((id) => names.get(id) ?? id).join(', ')}`);
  return parts.length ? parts.join(' · ') : t('team.scope.everything');
}

/**
 * The mark beside an SSO member's role an admin gave by hand (docs/sso.md "Roles given by
 * hand"): the role the provider maps, which applies once its mapping changes; null when the role
 * is the mapped one or the member has no single sign-on.
 */
export function ssoRoleNote(
  member: { role: string; ssoMappedRole: string | null },
  t: T,
  custom?: readonly { roleId: string; name: string }[],
): string | null {
  if (member.ssoMappedRole === null || member.ssoMappedRole === member.role) return null;
  return t('team.ssoHandRole', { role: roleName(member.ssoMappedRole, t, custom) });
}

/** A category as GetCategory answers it: its id and the names from the top level down to it. */
export interface CategoryPathLike {
  categoryId: string;
  path: readonly { name: string }[];
}

/**
 * The names the access summary shows for category scopes: each category's path of names
 * ("Brand › Lines"), so two subcategories of the same name read apart. A category not loaded
 * (yet, or deleted since) is left out and shows as its id.
 */
export function categoryScopeNames(categories: readonly (CategoryPathLike | undefined)[]): Map<string, string> {
  return new Map(
    categories
      .filter((c): c is CategoryPathLike => c !== undefined && c.path.length > 0)
      .map((c) => [c.categoryId, c.path.map((p) => p.name).join(' › ')]),
  );
}

/** The permissions chosen for a custom role as the API takes them: `read` first, each once, in the fixed order. */
export function chosenPermissions(chosen: ReadonlySet<string>): (typeof GRANTABLE_PERMISSIONS)[number][] {
  return GRANTABLE_PERMISSIONS.filter((p) => p === 'read' || chosen.has(p));
}
