import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { memberDeactivations, memberships, ssoIdentities, users } from '../db/schema';
import { notFound } from '../kernel/app-error';
import { assertAdmin } from './admin-only';
import type { Caller } from '../kernel/caller';
import { languageScopeSql, languagesOf, memberScopeSql, memberScopesOf } from './member-scopes';

/** Only an administrator of the session's company manages other users' AI access. */
async function findMemberForAdmin(db: Database, admin: Caller, userId: string) {
  assertAdmin(admin);
  const member = await db.query.memberships.findFirst({
    where: and(eq(memberships.userId, userId), eq(memberships.companyId, admin.companyId)),
  });
  // A user of another company is as unknown as a user that does not exist.
  if (!member) throw notFound('user');
  return member;
}

/**
 * "Revoke AI access": a new security stamp. Every token and refresh token carries the stamp it
 * was issued under and is checked against D1 at each use, so all of them stop working with
 * the next request. The caller also revokes the stored grants (`revokeUserGrants`).
 */
export async function revokeAiAccess(db: Database, admin: Caller, input: { userId: string }) {
  await findMemberForAdmin(db, admin, input.userId);
  await db.update(users).set({ securityStamp: crypto.randomUUID() }).where(eq(users.id, input.userId));
  return { userId: input.userId, revoked: true as const };
}

/** Sets the account switch "AI may edit classifications"; it is read at every agent write. */
export async function setAiSwitch(db: Database, admin: Caller, input: { userId: string; enabled: boolean }) {
  await findMemberForAdmin(db, admin, input.userId);
  await db.update(users).set({ aiMayEditClassifications: input.enabled }).where(eq(users.id, input.userId));
  return { userId: input.userId, aiMayEditClassifications: input.enabled };
}

/** The company's users with their role and AI switch, for the administration screen (admins only). */
export async function listUsers(db: Database, admin: Caller) {
  assertAdmin(admin);
  const items = await db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      role: memberships.role,
      languages: languageScopeSql(memberships.companyId, memberships.userId),
      scopes: memberScopeSql(memberships.companyId, memberships.userId),
      aiMayEditClassifications: users.aiMayEditClassifications,
      ssoMappedRole: ssoIdentities.mappedRole,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(
      ssoIdentities,
      and(eq(ssoIdentities.companyId, memberships.companyId), eq(ssoIdentities.userId, memberships.userId)),
    )
    .where(eq(memberships.companyId, admin.companyId))
    .orderBy(asc(users.email))
    .limit(MAX_USERS);
  const deactivated = await db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      role: memberDeactivations.role,
      languages: memberDeactivations.languages,
      scopes: memberDeactivations.scopes,
      aiMayEditClassifications: users.aiMayEditClassifications,
      ssoMappedRole: ssoIdentities.mappedRole,
    })
    .from(memberDeactivations)
    .innerJoin(users, eq(users.id, memberDeactivations.userId))
    .leftJoin(
      ssoIdentities,
      and(
        eq(ssoIdentities.companyId, memberDeactivations.companyId),
        eq(ssoIdentities.userId, memberDeactivations.userId),
      ),
    )
    .where(eq(memberDeactivations.companyId, admin.companyId))
    .orderBy(asc(users.email))
    .limit(MAX_USERS);
  return {
    items: [
      ...items.map(({ scopes, ...item }) => ({
        ...item,
        languages: languagesOf(item.languages) ?? [],
        ...memberScopesOf(scopes),
        status: 'active' as const,
      })),
      // Deactivated members (docs/teams.md) with the role, languages and scopes a reactivation restores.
      ...deactivated.map(({ scopes, ...item }) => ({
        ...item,
        ...memberScopesOf(JSON.stringify(scopes)),
        status: 'deactivated' as const,
      })),
    ].sort((a, b) => a.email.localeCompare(b.email)),
  };
}

/** A company has tens of users, not thousands; the list is one page. */
const MAX_USERS = 1000;
