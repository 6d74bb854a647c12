import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/client';
import {
  memberships,
  scimGroupMembers,
  scimGroups,
  scimTokens,
  ssoIdentities,
  ssoSettings,
  users,
} from '../../db/schema';
import { sha256Hex } from '../../kernel/hashing';
import { newId } from '../../kernel/ids';
import { applyMappedRole, firstDepartment, roleForGroups, scimGroupNames, unusablePassword } from '../sso/provisioning';
import { removeAccessStatements } from '../member-access';
import { isDeactivated } from '../member-status';
import { ScimError } from './scim-error';

/**
 * SCIM 2.0 (RFC 7643/7644) for identity providers that push users: the company's members are
 * its Users, the groups the provider pushes are its Groups, and a member's role follows the
 * company's group mapping over the SCIM groups they are in (docs/sso.md). A User without a
 * role (in no mapped group, no default role) or deactivated has no membership: they cannot sign
 * in, and their sessions and OAuth grants are revoked.
 */

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
/** A company has tens of users, not thousands: lists are read whole and paged in memory. */
const MAX_RESOURCES = 5000;
export const MAX_COUNT = 200;

/** The company whose SCIM token this is, or null. */
export async function companyOfScimToken(db: Database, token: string): Promise<string | null> {
  const row = await db.query.scimTokens.findFirst({ where: eq(scimTokens.tokenHash, await sha256Hex(token)) });
  if (!row) return null;
  await db.update(scimTokens).set({ lastUsedAt: new Date().toISOString() }).where(eq(scimTokens.id, row.id));
  return row.companyId;
}

export interface ScimUserInput {
  userName: string;
  displayName?: string;
  externalId?: string | null;
  active?: boolean;
}

interface ScimUserRow {
  id: string;
  email: string;
  name: string;
  createdAt: string;
  externalId: string | null;
  active: boolean;
}

/** The company's Users: its members and the users its provider created (deactivated ones too). */
async function userRows(db: Database, companyId: string, userIds?: string[]): Promise<ScimUserRow[]> {
  const memberRows = await db
    .select({ id: users.id, email: users.email, name: users.name, createdAt: users.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.companyId, companyId), userIds ? inArray(users.id, userIds) : undefined))
    .limit(MAX_RESOURCES);
  const identityRows = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      createdAt: users.createdAt,
      externalId: ssoIdentities.externalId,
      active: ssoIdentities.active,
    })
    .from(ssoIdentities)
    .innerJoin(users, eq(users.id, ssoIdentities.userId))
    .where(and(eq(ssoIdentities.companyId, companyId), userIds ? inArray(users.id, userIds) : undefined))
    .limit(MAX_RESOURCES);
  const byId = new Map<string, ScimUserRow>();
  for (const row of memberRows) byId.set(row.id, { ...row, externalId: null, active: true });
  for (const row of identityRows) byId.set(row.id, row);
  return [...byId.values()].sort((a, b) => a.email.localeCompare(b.email) || a.id.localeCompare(b.id));
}

async function groupsOfUsers(db: Database, companyId: string, userIds: string[]) {
  if (!userIds.length) return new Map<string, { value: string; display: string }[]>();
  const rows = await db
    .select({ userId: scimGroupMembers.userId, groupId: scimGroups.id, name: scimGroups.displayName })
    .from(scimGroupMembers)
    .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
    .where(and(eq(scimGroups.companyId, companyId), inArray(scimGroupMembers.userId, userIds)));
  const out = new Map<string, { value: string; display: string }[]>();
  for (const r of rows) out.set(r.userId, [...(out.get(r.userId) ?? []), { value: r.groupId, display: r.name }]);
  return out;
}

function userResource(row: ScimUserRow, groups: { value: string; display: string }[], base: string) {
  return {
    schemas: [USER_SCHEMA],
    id: row.id,
    ...(row.externalId ? { externalId: row.externalId } : {}),
    userName: row.email,
    displayName: row.name,
    name: { formatted: row.name },
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: row.active,
    groups,
    meta: { resourceType: 'User', created: row.createdAt, location: `${base}/Users/${row.id}` },
  };
}

export async function getUser(db: Database, companyId: string, userId: string, base: string) {
  const [row] = await userRows(db, companyId, [userId]);
  if (!row) throw ScimError.notFound('User');
  const groups = await groupsOfUsers(db, companyId, [userId]);
  return userResource(row, groups.get(userId) ?? [], base);
}

/** Pages of `ListResponse` (RFC 7644 3.4.2): startIndex is 1-based. */
function listResponse<T>(all: T[], startIndex: number, count: number) {
  const page = all.slice(startIndex - 1, startIndex - 1 + count);
  return { schemas: [LIST_SCHEMA], totalResults: all.length, startIndex, itemsPerPage: page.length, Resources: page };
}

export async function listUsers(
  db: Database,
  companyId: string,
  query: { userName?: string; externalId?: string; startIndex: number; count: number },
  base: string,
) {
  let rows = await userRows(db, companyId);
  if (query.userName !== undefined) rows = rows.filter((r) => r.email === query.userName!.trim().toLowerCase());
  if (query.externalId !== undefined) rows = rows.filter((r) => r.externalId === query.externalId);
  const page = rows.slice(query.startIndex - 1, query.startIndex - 1 + query.count);
  const groups = await groupsOfUsers(
    db,
    companyId,
    page.map((r) => r.id),
  );
  const resources = page.map((r) => userResource(r, groups.get(r.id) ?? [], base));
  return { ...listResponse(resources, 1, query.count), totalResults: rows.length, startIndex: query.startIndex };
}

/**
 * Sets the member's membership from their state: none while deactivated or without a role, else
 * the role the mapping gives their SCIM groups. Answers whether access was taken away, so the
 * caller revokes the user's OAuth grants as on a password change.
 */
export async function applyScimRole(db: Database, companyId: string, userId: string): Promise<{ revoked: boolean }> {
  const identity = await db.query.ssoIdentities.findFirst({
    where: and(eq(ssoIdentities.companyId, companyId), eq(ssoIdentities.userId, userId)),
  });
  const settings = await db.query.ssoSettings.findFirst({ where: eq(ssoSettings.companyId, companyId) });
  // Deactivated by an admin (docs/teams.md): the provider does not bring them back; an admin does.
  const role =
    (identity && !identity.active) || (await isDeactivated(db, companyId, userId))
      ? null
      : roleForGroups(
          await scimGroupNames(db, companyId, userId),
          settings?.groupRoles ?? [],
          settings?.defaultRole ?? null,
        );
  if (role) {
    await applyMappedRole(db, companyId, userId, role, 'scim');
    return { revoked: false };
  }
  return removeAccess(db, companyId, userId);
}

/** No membership, no session in the company, a new security stamp (every OAuth token refused at once). */
async function removeAccess(db: Database, companyId: string, userId: string): Promise<{ revoked: boolean }> {
  const [removed] = await db.batch(removeAccessStatements(db, companyId, userId));
  return { revoked: removed.length > 0 };
}

/** RFC 7644 3.3: creates a User; an address already in use is a `uniqueness` conflict. */
export async function createUser(db: Database, companyId: string, input: ScimUserInput) {
  const email = input.userName.trim().toLowerCase();
  const existing = await db.query.users.findFirst({ where: eq(users.email, email) });
  if (existing) throw ScimError.uniqueness('userName is already in use');
  const userId = newId();
  const { hash, salt } = await unusablePassword();
  await firstDepartment(db, companyId);
  try {
    await db.batch([
      db.insert(users).values({
        id: userId,
        email,
        name: input.displayName?.trim() || email,
        passwordHash: hash,
        passwordSalt: salt,
        securityStamp: crypto.randomUUID(),
      }),
      db.insert(ssoIdentities).values({
        companyId,
        userId,
        externalId: input.externalId ?? null,
        active: input.active ?? true,
      }),
    ]);
  } catch (err) {
    if (isUniqueViolation(err, 'users.email')) throw ScimError.uniqueness('userName is already in use');
    throw err;
  }
  await applyScimRole(db, companyId, userId);
  return userId;
}

/**
 * Replaces (PUT) or patches a User's attributes. The address changes only for an account that
 * belongs to this company alone; `active: false` deactivates (access removed, see applyScimRole).
 */
export async function updateUser(
  db: Database,
  companyId: string,
  userId: string,
  input: Partial<ScimUserInput>,
): Promise<{ revoked: boolean }> {
  const [row] = await userRows(db, companyId, [userId]);
  if (!row) throw ScimError.notFound('User');
  const email = input.userName?.trim().toLowerCase();
  if (email && email !== row.email) {
    const companies = await db.$count(memberships, eq(memberships.userId, userId));
    if (companies > 1) throw ScimError.mutability('userName of an account in several companies cannot be changed here');
    const taken = await db.query.users.findFirst({ where: eq(users.email, email) });
    if (taken) throw ScimError.uniqueness('userName is already in use');
  }
  const name = input.displayName?.trim();
  const userChange = { ...(email ? { email } : {}), ...(name ? { name } : {}) };
  const identityChange = {
    ...(input.externalId !== undefined ? { externalId: input.externalId } : {}),
    ...(input.active !== undefined ? { active: input.active } : {}),
  };
  const identity = db
    .insert(ssoIdentities)
    .values({ companyId, userId, externalId: input.externalId ?? null, active: input.active ?? true });
  try {
    await db.batch([
      Object.keys(identityChange).length
        ? identity.onConflictDoUpdate({ target: [ssoIdentities.companyId, ssoIdentities.userId], set: identityChange })
        : identity.onConflictDoNothing(),
      ...(Object.keys(userChange).length ? [db.update(users).set(userChange).where(eq(users.id, userId))] : []),
    ]);
  } catch (err) {
    if (isUniqueViolation(err, 'users.email')) throw ScimError.uniqueness('userName is already in use');
    throw err;
  }
  return applyScimRole(db, companyId, userId);
}

/** RFC 7644 3.6: the User leaves the company (the account itself may belong to others). */
export async function deleteUser(db: Database, companyId: string, userId: string): Promise<void> {
  const [row] = await userRows(db, companyId, [userId]);
  if (!row) throw ScimError.notFound('User');
  const groupIds = db.select({ id: scimGroups.id }).from(scimGroups).where(eq(scimGroups.companyId, companyId));
  await removeAccess(db, companyId, userId);
  await db.batch([
    db
      .delete(scimGroupMembers)
      .where(and(eq(scimGroupMembers.userId, userId), inArray(scimGroupMembers.groupId, groupIds))),
    db.delete(ssoIdentities).where(and(eq(ssoIdentities.companyId, companyId), eq(ssoIdentities.userId, userId))),
  ]);
}

// ---------------------------------------------------------------- groups

function groupResource(
  group: { id: string; displayName: string; externalId: string | null; createdAt: string },
  members: { value: string; display: string }[],
  base: string,
) {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...(group.externalId ? { externalId: group.externalId } : {}),
    displayName: group.displayName,
    members: members.map((m) => ({ ...m, $ref: `${base}/Users/${m.value}`, type: 'User' })),
    meta: { resourceType: 'Group', created: group.createdAt, location: `${base}/Groups/${group.id}` },
  };
}

async function membersOf(db: Database, groupIds: string[]) {
  if (!groupIds.length) return new Map<string, { value: string; display: string }[]>();
  const rows = await db
    .select({ groupId: scimGroupMembers.groupId, userId: users.id, email: users.email })
    .from(scimGroupMembers)
    .innerJoin(users, eq(users.id, scimGroupMembers.userId))
    .where(inArray(scimGroupMembers.groupId, groupIds))
    .orderBy(asc(users.email));
  const out = new Map<string, { value: string; display: string }[]>();
  for (const r of rows) out.set(r.groupId, [...(out.get(r.groupId) ?? []), { value: r.userId, display: r.email }]);
  return out;
}

async function findGroup(db: Database, companyId: string, groupId: string) {
  const group = await db.query.scimGroups.findFirst({
    where: and(eq(scimGroups.id, groupId), eq(scimGroups.companyId, companyId)),
  });
  if (!group) throw ScimError.notFound('Group');
  return group;
}

export async function getGroup(db: Database, companyId: string, groupId: string, base: string) {
  const group = await findGroup(db, companyId, groupId);
  const members = await membersOf(db, [groupId]);
  return groupResource(group, members.get(groupId) ?? [], base);
}

export async function listGroups(
  db: Database,
  companyId: string,
  query: { displayName?: string; externalId?: string; startIndex: number; count: number; excludeMembers: boolean },
  base: string,
) {
  let rows = await db
    .select()
    .from(scimGroups)
    .where(eq(scimGroups.companyId, companyId))
    .orderBy(asc(scimGroups.displayName))
    .limit(MAX_RESOURCES);
  if (query.displayName !== undefined) rows = rows.filter((g) => g.displayName === query.displayName);
  if (query.externalId !== undefined) rows = rows.filter((g) => g.externalId === query.externalId);
  const page = rows.slice(query.startIndex - 1, query.startIndex - 1 + query.count);
  const members = query.excludeMembers
    ? new Map()
    : await membersOf(
        db,
        page.map((g) => g.id),
      );
  const resources = page.map((g) => {
    const resource = groupResource(g, members.get(g.id) ?? [], base);
    if (query.excludeMembers) return { ...resource, members: undefined };
    return resource;
  });
  return { ...listResponse(resources, 1, query.count), totalResults: rows.length, startIndex: query.startIndex };
}

/** Member ids must name the company's Users. */
async function checkMembers(db: Database, companyId: string, userIds: string[]) {
  const unique = [...new Set(userIds)];
  const known = await userRows(db, companyId, unique);
  if (known.length !== unique.length) throw ScimError.invalidValue('members: unknown User id');
  return unique;
}

export async function createGroup(
  db: Database,
  companyId: string,
  input: { displayName: string; externalId?: string | null; members: string[] },
): Promise<{ groupId: string; affected: string[] }> {
  const members = await checkMembers(db, companyId, input.members);
  const groupId = newId();
  try {
    await db.batch([
      db
        .insert(scimGroups)
        .values({ id: groupId, companyId, displayName: input.displayName, externalId: input.externalId ?? null }),
      ...members.map((userId) => db.insert(scimGroupMembers).values({ groupId, userId })),
    ]);
  } catch (err) {
    if (isUniqueViolation(err, 'scim_groups.company_id, scim_groups.display_name')) {
      throw ScimError.uniqueness('displayName is already in use');
    }
    throw err;
  }
  return { groupId, affected: members };
}

/**
 * Changes a Group: a new name and/or members added, removed or replaced (PUT replaces all).
 * Answers the users whose role must be worked out again.
 */
export async function updateGroup(
  db: Database,
  companyId: string,
  groupId: string,
  change: { displayName?: string; externalId?: string | null; add?: string[]; remove?: string[]; replace?: string[] },
): Promise<{ affected: string[] }> {
  const group = await findGroup(db, companyId, groupId);
  const before = (await membersOf(db, [groupId])).get(groupId)?.map((m) => m.value) ?? [];
  const add = await checkMembers(db, companyId, [...(change.replace ?? []), ...(change.add ?? [])]);
  const remove = change.replace ? before.filter((id) => !change.replace!.includes(id)) : (change.remove ?? []);
  try {
    await db.batch([
      db
        .update(scimGroups)
        .set({
          displayName: change.displayName ?? group.displayName,
          ...(change.externalId !== undefined ? { externalId: change.externalId } : {}),
        })
        .where(eq(scimGroups.id, groupId)),
      ...(remove.length
        ? [
            db
              .delete(scimGroupMembers)
              .where(and(eq(scimGroupMembers.groupId, groupId), inArray(scimGroupMembers.userId, remove))),
          ]
        : []),
      ...add.map((userId) => db.insert(scimGroupMembers).values({ groupId, userId }).onConflictDoNothing()),
    ]);
  } catch (err) {
    if (isUniqueViolation(err, 'scim_groups.company_id, scim_groups.display_name')) {
      throw ScimError.uniqueness('displayName is already in use');
    }
    throw err;
  }
  // A renamed group may gain or lose its mapping: all its members' roles are worked out again.
  const renamed = change.displayName !== undefined && change.displayName !== group.displayName;
  const affected = new Set([...add, ...remove, ...(renamed ? before : [])]);
  return { affected: [...affected] };
}

export async function deleteGroup(db: Database, companyId: string, groupId: string): Promise<{ affected: string[] }> {
  await findGroup(db, companyId, groupId);
  const before = (await membersOf(db, [groupId])).get(groupId)?.map((m) => m.value) ?? [];
  await db.delete(scimGroups).where(eq(scimGroups.id, groupId));
  return { affected: before };
}
