import { forbidden } from './app-error';

/**
 * The built-in roles of a company membership (docs/teams.md). `admin` and `editor` are the two
 * roles every company had before issue 33; the four others narrow what an editor may do.
 */
export const ROLES = ['viewer', 'editor', 'translator', 'reviewer', 'publisher', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What `memberships.role` holds: a built-in role's name, or the id (a UUID) of one of the
 * company's custom roles (migration 0068, `accounts/custom-roles.ts`). The two cannot collide:
 * a built-in name is never a UUID.
 */
export type MemberRole = Role | (string & {});

/** Whether a stored role names a built-in role (else it is a custom role's id). */
export function isBuiltInRole(role: string): role is Role {
  return (ROLES as readonly string[]).includes(role);
}

/**
 * What a role may do. Every operation of every surface names the one permission it needs
 * (`OperationTraits.permission`, `PimTool.permission`), and `assertPermitted` is the one check.
 *
 * - `read`: every read of the company's data (lists, search, history, exports' files, jobs).
 * - `product.write`: any write of the catalog: catalogs, categories, products, values, prices,
 *   media, references, attributes, imports, mass edit, upserts, restore.
 * - `text.write`: texts in a language (a value written with `language`, a media description);
 *   limited to the membership's language scope when it has one. `product.write` includes it.
 * - `classification.write`: classify an element, change or remove its classification.
 * - `review.submit`: send products to review in a channel.
 * - `review.decide`: approve or reject products in review (never an agent: review-scope.ts).
 * - `publish`: exports (runs and templates), shop sync runs and connection tests.
 * - `company.admin`: users and their roles, languages, channels, connections, webhooks, SSO.
 */
export const PERMISSIONS = [
  'read',
  'product.write',
  'text.write',
  'classification.write',
  'review.submit',
  'review.decide',
  'publish',
  'company.admin',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * What a company's custom role may grant: every permission but `company.admin` (administration
 * stays with the built-in `admin` role, whose holders alone pass `assertAdmin`), and `read`
 * always (every role reads; the permission matrix documents no 403 for it).
 */
export const GRANTABLE_PERMISSIONS = PERMISSIONS.filter((p) => p !== 'company.admin');

/** The one table of what each built-in role may do. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  viewer: ['read'],
  translator: ['read', 'text.write', 'review.submit'],
  reviewer: ['read', 'review.decide'],
  publisher: ['read', 'publish'],
  editor: ['read', 'product.write', 'text.write', 'classification.write', 'review.submit', 'publish'],
  admin: PERMISSIONS,
};

/**
 * What an agent's token can carry at most (the `agent` and `mcp` surfaces): the token's scopes
 * (`mcp`, `api`) choose the surface and narrow nothing further, and no scope grants company
 * administration or a review decision (agents never approve, docs/review.md).
 */
const AGENT_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter(
  (p) => p !== 'company.admin' && p !== 'review.decide',
);

/** The one message of a refusal by role: it names neither the data nor whether it exists. */
export const NOT_PERMITTED = 'your role does not permit this';

/** The part of a `Caller` (caller.ts) the checks read. */
export interface Acting {
  role?: MemberRole;
  /**
   * A custom role's permissions, read with the membership at every request (sessions, agent
   * tokens); absent for a built-in role, whose permissions are `ROLE_PERMISSIONS`'.
   */
  permissions?: readonly Permission[];
  surface: string;
  /** The membership's language scope; absent or empty: every language. */
  languages?: readonly string[];
}

/** What a request asks beyond its permission: the language of a text it writes. */
export interface PermissionTarget {
  language?: unknown;
}

/**
 * The permissions the caller acts with: its role's, intersected on the agent surfaces with what
 * a token may carry. A caller without a role is a job (it acts with the rights its start was
 * checked for, `jobCaller`); any other surface without a role may do nothing.
 */
export function permissionsOf(caller: Acting): readonly Permission[] | 'job' {
  if (caller.surface === 'job') return 'job';
  if (!caller.role) return [];
  const own = rolePermissionsOf(caller.role, caller.permissions);
  return caller.surface === 'agent' || caller.surface === 'mcp'
    ? own.filter((p) => AGENT_PERMISSIONS.includes(p))
    : own;
}

/**
 * A member's own permissions: a built-in role's from the table, a custom role's as read with the
 * membership (none when the custom role is unknown: a role id of nothing grants nothing).
 */
export function rolePermissionsOf(role: MemberRole, custom: readonly Permission[] | undefined): readonly Permission[] {
  if (isBuiltInRole(role)) return ROLE_PERMISSIONS[role];
  return (custom ?? []).filter((p) => p !== 'company.admin');
}

/**
 * Whether a role with these permissions has a language scope: it writes texts but not the
 * product itself (the built-in translator, or a custom role like it).
 */
export function writesTextsOnly(permissions: readonly Permission[]): boolean {
  return permissions.includes('text.write') && !permissions.includes('product.write');
}

/**
 * Whether the caller may do what needs `permission`. `text.write` with a `language` passes for
 * a role with `product.write`, or with `text.write` when the language is in the membership's
 * language scope (no scope: every language); without a language it is a write of the product
 * itself and needs `product.write`.
 */
export function isPermitted(caller: Acting, permission: Permission, target: PermissionTarget = {}): boolean {
  const granted = permissionsOf(caller);
  if (granted === 'job') return true;
  if (permission !== 'text.write') return granted.includes(permission);
  if (granted.includes('product.write')) return true;
  if (!granted.includes('text.write') || typeof target.language !== 'string') return false;
  return !caller.languages?.length || caller.languages.includes(target.language);
}

/** 403 with `NOT_PERMITTED` unless `isPermitted`: the check of every surface (operation guard, MCP tools, domain functions). */
export function assertPermitted(caller: Acting, permission: Permission, target?: PermissionTarget): void {
  if (!isPermitted(caller, permission, target)) throw forbidden(NOT_PERMITTED);
}

/**
 * A product write by a role without `product.write` (a translator, or a custom role like it):
 * allowed when it writes texts and nothing else (docs/teams.md "Language scope"). The request
 * may name the product (`identity`: its id, catalog, department) and `translations`, each of
 * whose languages the caller may write (`text.write` in that language, within the language
 * scope); any other field (a price, the name without a language, a status, placements) or
 * language is 403 `NOT_PERMITTED`, before the input is validated. A role with `product.write`
 * passes. The same rule for `UpdateProduct` (REST, `/api/ai`), the MCP `update_product` and the
 * domain function; what `translations` holds is validated afterwards (fields, enabled languages).
 */
export function assertProductWrite(
  caller: Acting,
  input: Record<string, unknown> | undefined,
  identity: readonly string[],
): void {
  if (isPermitted(caller, 'product.write')) return;
  const translations = input?.translations;
  const texts =
    translations && typeof translations === 'object' && !Array.isArray(translations) ? Object.keys(translations) : [];
  const onlyTexts =
    texts.length > 0 &&
    Object.entries(input ?? {}).every(
      ([field, value]) => field === 'translations' || identity.includes(field) || value === undefined,
    ) &&
    texts.every((language) => isPermitted(caller, 'text.write', { language }));
  if (!onlyTexts) throw forbidden(NOT_PERMITTED);
}

/**
 * An import's mode (`Import/StartImport`, docs/teams.md "Language scope"): a role with
 * `product.write` imports in any mode; one with `text.write` alone (a translator) only a
 * texts-only import (`mode: "texts"`); any other role nothing: 403 `NOT_PERMITTED`, before the
 * request is validated or the file read.
 */
export function assertImportMode(caller: Acting, mode: unknown): void {
  if (isPermitted(caller, 'product.write')) return;
  const granted = permissionsOf(caller);
  if (mode === 'texts' && granted !== 'job' && granted.includes('text.write')) return;
  throw forbidden(NOT_PERMITTED);
}

/**
 * An import file's upload (`Import/Upload`, `CreateUpload`, `UploadPart`, `CompleteUpload`): a
 * role writing products, or one writing texts (the file of a texts-only import, which
 * `assertImportMode` alone lets it start); 403 `NOT_PERMITTED` otherwise. A file uploaded
 * writes nothing of the catalog: what an import writes is judged when it starts.
 */
export function assertMayUploadImport(caller: Acting): void {
  if (isPermitted(caller, 'product.write')) return;
  const granted = permissionsOf(caller);
  if (granted !== 'job' && granted.includes('text.write')) return;
  throw forbidden(NOT_PERMITTED);
}

/**
 * The languages a texts-only import of the caller writes: null for every language (a role with
 * `product.write`, or a language scope of none), else the membership's language scope.
 */
export function textLanguagesOf(caller: Acting): string[] | null {
  if (isPermitted(caller, 'product.write') || !caller.languages?.length) return null;
  return [...caller.languages];
}
