import { and, eq, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { type Database, runBatch } from '../db/client';
import { customRoles, memberChanges, memberships } from '../db/schema';
import { badRequest, conflict, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { newId } from '../kernel/ids';
import {
  isBuiltInRole,
  type MemberRole,
  PERMISSIONS,
  type Permission,
  ROLE_PERMISSIONS,
  ROLES,
} from '../kernel/permissions';
import { assertAdmin } from './admin-only';
import { recordMemberChange } from './member-audit';

/**
 * Custom roles (docs/teams.md "Custom roles", migration 0068): a company names its own sets of
 * permissions from the fixed list, `company.admin` excepted, `read` always included. A member
 * holds one by its id in `memberships.role`; the permission check reads its permissions with the
 * membership at every request (sessions, agent tokens), so an update or a reassignment counts
 * at the member's next request, without a new security stamp, exactly like a built-in role
 * change. Agents act with it narrowed as always (never `review.decide`). A role still held by a
 * member, a deactivated member, an open invitation or the SSO group mapping cannot be deleted
 * (409): reassign first.
 */

/** The 409 of `CreateRole` / `UpdateRole`. */
export const ROLE_NAME_CONFLICT = 'the company already has a role with this name';
/** The 409 of `DeleteRole`. */
export const ROLE_IN_USE =
  'the role is held by a member, a deactivated member, an open invitation or the single sign-on group mapping; give them another role first';

/**
 * A custom role's permissions as the membership's select reads them: a JSON array, or null when
 * `role` is a built-in name (or names no role of the company).
 */
export function customPermissionsSql(companyId: SQLWrapper, role: SQLWrapper): SQL<string | null> {
  return sql<string | null>`(SELECT permissions FROM custom_roles WHERE id = ${role} AND company_id = ${companyId})`;
}

/** The stored permissions as the caller carries them; absent for a built-in role. */
export function customPermissionsOf(json: string | null | undefined): { permissions?: Permission[] } {
  if (!json) return {};
  const list = JSON.parse(json) as string[];
  return { permissions: PERMISSIONS.filter((p) => list.includes(p)) };
}

/** `read` always, `company.admin` never, each once, in the order of the fixed list. */
function normalise(permissions: readonly string[]): Permission[] {
  return PERMISSIONS.filter((p) => p !== 'company.admin' && (p === 'read' || permissions.includes(p)));
}

/**
 * The permissions of the role `SetMemberRole` or `InviteMember` names: a built-in role's, or the
 * company's custom role's (404 `role not found` for an id of nothing or of another company).
 */
export async function resolveRole(db: Database, companyId: string, role: MemberRole): Promise<readonly Permission[]> {
  if (isBuiltInRole(role)) return ROLE_PERMISSIONS[role];
  const [row] = await db
    .select({ permissions: customRoles.permissions })
    .from(customRoles)
    .where(and(eq(customRoles.id, role), eq(customRoles.companyId, companyId)))
    .limit(1);
  if (!row) throw notFound('role');
  return normalise(row.permissions);
}

/**
 * `Account/GetRoles`: the six built-in roles, then the company's custom roles by name, each with
 * its permissions and how many members hold it (deactivated members and open invitations
 * are not counted, but they hold a custom role against its deletion too).
 */
export async function listRoles(db: Database, admin: Caller) {
  assertAdmin(admin);
  const custom = await db
    .select({ id: customRoles.id, name: customRoles.name, permissions: customRoles.permissions })
    .from(customRoles)
    .where(eq(customRoles.companyId, admin.companyId))
    .orderBy(sql`lower(${customRoles.name})`);
  const counts = await db
    .select({ role: memberships.role, n: sql<number>`count(*)` })
    .from(memberships)
    .where(eq(memberships.companyId, admin.companyId))
    .groupBy(memberships.role);
  const held = new Map(counts.map((r) => [r.role as string, r.n]));
  return {
    items: [
      ...ROLES.map((role) => ({
        roleId: role,
        name: role,
        builtIn: true,
        permissions: [...ROLE_PERMISSIONS[role]],
        memberCount: held.get(role) ?? 0,
      })),
      ...custom.map((r) => ({
        roleId: r.id,
        name: r.name,
        builtIn: false,
        permissions: normalise(r.permissions),
        memberCount: held.get(r.id) ?? 0,
      })),
    ],
  };
}

/** A built-in role's name is not a custom role's (whatever the case): a member's role must read unambiguously. */
function assertName(name: string): void {
  if ((ROLES as readonly string[]).includes(name.toLowerCase()))
    throw badRequest(`name: "${name}" is a built-in role; choose another name`);
}

/** Whether the error is the unique index on the company's role names. */
function isNameTaken(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  return `${err.message} ${String(err.cause ?? '')}`.includes('UNIQUE constraint failed');
}

/** `Account/CreateRole`: one batch writes the role and its audit row (`create-role`). */
export async function createRole(db: Database, admin: Caller, input: { name: string; permissions: string[] }) {
  assertAdmin(admin);
  assertName(input.name);
  const permissions = normalise(input.permissions);
  const id = newId();
  try {
    await runBatch(db, [
      db.insert(customRoles).values({ id, companyId: admin.companyId, name: input.name, permissions }),
      recordMemberChange(db, {
        companyId: admin.companyId,
        subjectId: id,
        changedBy: admin.userId,
        surface: admin.surface,
        action: 'create-role',
        changes: [
          ['name', null, input.name],
          ['permissions', null, permissions],
        ],
      }),
    ]);
  } catch (err) {
    if (isNameTaken(err)) throw conflict(ROLE_NAME_CONFLICT);
    throw err;
  }
  return { roleId: id, name: input.name, builtIn: false, permissions, memberCount: 0 };
}

async function findRole(db: Database, companyId: string, roleId: string) {
  const [row] = await db
    .select()
    .from(customRoles)
    .where(and(eq(customRoles.id, roleId), eq(customRoles.companyId, companyId)))
    .limit(1);
  // Another company's role is as unknown as none; a built-in role is not a custom role to change.
  if (!row) throw notFound('role');
  return row;
}

/**
 * `Account/UpdateRole`: a new name and/or a new set of permissions. One batch: the audit row
 * (`update-role`, with `before` read inside the batch from the row it replaces, written only when
 * something changes) and the update. Members holding the role act with the new permissions at
 * their next request.
 */
export async function updateRole(
  db: Database,
  admin: Caller,
  input: { roleId: string; name?: string | undefined; permissions?: string[] | undefined },
) {
  assertAdmin(admin);
  const current = await findRole(db, admin.companyId, input.roleId);
  if (input.name !== undefined) assertName(input.name);
  const name = input.name ?? current.name;
  const permissions = input.permissions ? normalise(input.permissions) : normalise(current.permissions);
  const after = JSON.stringify(permissions);
  const auditId = newId();
  try {
    await runBatch(db, [
      db.insert(memberChanges).select(
        sql`SELECT ${auditId} AS id, r.company_id, r.id AS user_id, ${admin.userId} AS changed_by, ${admin.surface} AS surface,
          json_array(json_array('name', r.name, ${name}), json_array('permissions', json(r.permissions), json(${after}))) AS changes,
          strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS at, 'update-role' AS action
        FROM custom_roles r
        WHERE r.id = ${input.roleId} AND r.company_id = ${admin.companyId}
          AND (r.name <> ${name} OR json(r.permissions) <> json(${after}))`,
      ),
      db
        .update(customRoles)
        .set({ name, permissions, updatedAt: sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` })
        .where(and(eq(customRoles.id, input.roleId), eq(customRoles.companyId, admin.companyId))),
    ]);
  } catch (err) {
    if (isNameTaken(err)) throw conflict(ROLE_NAME_CONFLICT);
    throw err;
  }
  return {
    roleId: input.roleId,
    name,
    permissions,
    changed: name !== current.name || after !== JSON.stringify(normalise(current.permissions)),
  };
}

/**
 * `Account/DeleteRole`: 409 while a member, a deactivated member, an open invitation or the SSO
 * group mapping (a group's role or the default role) holds the role (reassign them first: a membership never points at nothing). The condition is part of
 * the batch's statements, so a member given the role meanwhile keeps it and the role stays.
 */
export async function deleteRole(db: Database, admin: Caller, input: { roleId: string }) {
  assertAdmin(admin);
  const role = await findRole(db, admin.companyId, input.roleId);
  const unheld = sql`NOT EXISTS (SELECT 1 FROM memberships m WHERE m.company_id = ${admin.companyId} AND m.role = ${input.roleId})
    AND NOT EXISTS (SELECT 1 FROM member_deactivations d WHERE d.company_id = ${admin.companyId} AND d.role = ${input.roleId})
    AND NOT EXISTS (SELECT 1 FROM invitations i WHERE i.company_id = ${admin.companyId} AND i.role = ${input.roleId}
      AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
    AND NOT EXISTS (SELECT 1 FROM sso_settings s WHERE s.company_id = ${admin.companyId} AND (s.default_role = ${input.roleId}
      OR EXISTS (SELECT 1 FROM json_each(s.group_roles) g WHERE json_extract(g.value, '$.role') = ${input.roleId})))`;
  const exists = sql`EXISTS (SELECT 1 FROM custom_roles r WHERE r.id = ${input.roleId} AND r.company_id = ${admin.companyId})`;
  await runBatch(db, [
    recordMemberChange(
      db,
      {
        companyId: admin.companyId,
        subjectId: input.roleId,
        changedBy: admin.userId,
        surface: admin.surface,
        action: 'delete-role',
        changes: [
          ['name', role.name, null],
          ['permissions', normalise(role.permissions), null],
        ],
      },
      sql`${exists} AND ${unheld}`,
    ),
    db
      .delete(customRoles)
      .where(and(eq(customRoles.id, input.roleId), eq(customRoles.companyId, admin.companyId), unheld)),
  ]);
  const left = await db.$count(customRoles, eq(customRoles.id, input.roleId));
  if (left) throw conflict(ROLE_IN_USE);
  return { roleId: input.roleId, deleted: true as const };
}
