import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Database, runBatch } from '../../db/client';
import { recordMemberChange } from '../member-audit';
import {
  departments,
  memberships,
  scimGroupMembers,
  scimGroups,
  ssoIdentities,
  type SsoGroupRole,
  users,
} from '../../db/schema';
import { forbidden } from '../../kernel/app-error';
import { newId } from '../../kernel/ids';
import { isBuiltInRole, type MemberRole, type Role } from '../../kernel/permissions';
import { hashPassword, randomToken } from '../passwords';

export type { Role };

/**
 * Which role wins when a member is in groups mapped to several: the one that permits the most
 * (kernel/permissions.ts). Reviewer and publisher permit different things; a member who needs
 * both is an editor or admin, or a custom role once there are any (docs/teams.md).
 */
const PRECEDENCE: readonly Role[] = ['admin', 'editor', 'publisher', 'reviewer', 'translator', 'viewer'];

/**
 * The role the company's mapping gives to a member of `groups`: the first of PRECEDENCE that any
 * mapped group of theirs says, else the custom role of the first such group in the mapping's
 * order (docs/teams.md "Custom roles": a built-in role wins over a custom one, whose permissions
 * are not ranked against the built-in ones), else the default role; null when there is none (the
 * member is refused). Group names compare exactly, as the identity provider sends them.
 */
export function roleForGroups(
  groups: readonly string[],
  mapping: readonly SsoGroupRole[],
  defaultRole: MemberRole | null,
): MemberRole | null {
  const mapped = mapping.filter((m) => groups.includes(m.group)).map((m) => m.role);
  const roles = new Set<string>(mapped);
  return PRECEDENCE.find((role) => roles.has(role)) ?? mapped.find((role) => !isBuiltInRole(role)) ?? defaultRole;
}

/** The department a new member starts in: the company's oldest. */
export async function firstDepartment(db: Database, companyId: string): Promise<string> {
  const department = await db.query.departments.findFirst({
    where: eq(departments.companyId, companyId),
    orderBy: [asc(departments.createdAt), asc(departments.id)],
  });
  if (!department) throw forbidden('the company has no department to sign in to');
  return department.id;
}

/**
 * A password nobody knows: accounts created by the identity provider sign in through it only.
 * The PBKDF2 cost is paid once, at creation.
 */
export async function unusablePassword() {
  return hashPassword(randomToken(32));
}

/** The SCIM groups a member is in, by display name. */
export async function scimGroupNames(db: Database, companyId: string, userId: string): Promise<string[]> {
  const rows = await db
    .select({ name: scimGroups.displayName })
    .from(scimGroupMembers)
    .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
    .where(and(eq(scimGroupMembers.userId, userId), eq(scimGroups.companyId, companyId)));
  return rows.map((r) => r.name);
}

export interface ProvisionInput {
  companyId: string;
  email: string;
  name: string;
  role: MemberRole;
  subject?: string;
  externalId?: string | null;
}

/**
 * Makes `email` a member of the company with `role`: creates the user when the address is new;
 * links an existing member; refuses an address that belongs to another company's account,
 * since an identity provider speaks for its own company only (docs/sso.md). One batch.
 */
export async function provisionMember(
  db: Database,
  input: ProvisionInput,
): Promise<{ userId: string; created: boolean }> {
  const email = input.email.trim().toLowerCase();
  const existing = await db.query.users.findFirst({ where: eq(users.email, email) });
  if (existing) {
    const member = await db.query.memberships.findFirst({
      where: and(eq(memberships.userId, existing.id), eq(memberships.companyId, input.companyId)),
    });
    const identity = await db.query.ssoIdentities.findFirst({
      where: and(eq(ssoIdentities.userId, existing.id), eq(ssoIdentities.companyId, input.companyId)),
    });
    // A member, or one the company's IdP provisioned before (deactivated by SCIM meanwhile).
    if (!member && !identity) {
      throw forbidden('this e-mail address belongs to an account outside your company; ask your administrator');
    }
    const departmentId = member?.defaultDepartmentId ?? (await firstDepartment(db, input.companyId));
    await db.batch([
      db
        .insert(memberships)
        .values({
          userId: existing.id,
          companyId: input.companyId,
          role: input.role,
          defaultDepartmentId: departmentId,
        })
        .onConflictDoUpdate({ target: [memberships.userId, memberships.companyId], set: { role: input.role } }),
      db
        .insert(ssoIdentities)
        .values({
          companyId: input.companyId,
          userId: existing.id,
          subject: input.subject ?? null,
          externalId: input.externalId ?? null,
          mappedRole: input.role,
        })
        .onConflictDoUpdate({
          target: [ssoIdentities.companyId, ssoIdentities.userId],
          set: {
            active: true,
            mappedRole: input.role,
            ...(input.subject ? { subject: input.subject } : {}),
            ...(input.externalId !== undefined ? { externalId: input.externalId } : {}),
          },
        }),
    ]);
    return { userId: existing.id, created: false };
  }
  const userId = newId();
  const { hash, salt } = await unusablePassword();
  const departmentId = await firstDepartment(db, input.companyId);
  await db.batch([
    db.insert(users).values({
      id: userId,
      email,
      name: input.name || email,
      passwordHash: hash,
      passwordSalt: salt,
      securityStamp: crypto.randomUUID(),
    }),
    db
      .insert(memberships)
      .values({ userId, companyId: input.companyId, role: input.role, defaultDepartmentId: departmentId }),
    db.insert(ssoIdentities).values({
      companyId: input.companyId,
      userId,
      subject: input.subject ?? null,
      externalId: input.externalId ?? null,
      mappedRole: input.role,
    }),
  ]);
  return { userId, created: true };
}

/**
 * Applies the role the provider's groups map the member to (`mapped`), at an SSO sign-in or a
 * SCIM change (docs/sso.md "Roles given by hand"). The provider decides the role whenever its
 * mapping says something new: when `mapped` differs from the role it last mapped
 * (`sso_identities.mapped_role`; null before migration 0077 counts as different), the member
 * gets `mapped`. When it maps as before, the member keeps their role: one an admin gave by hand
 * (SetMemberRole) holds until the provider's mapped role changes. A change of role is audited
 * (`member_changes`, action `role`, by the member through `sso` or `scim`) in the same batch;
 * a missing membership (SCIM reactivation) is added with `mapped`. Answers the member's role.
 */
export async function applyMappedRole(
  db: Database,
  companyId: string,
  userId: string,
  mapped: MemberRole,
  surface: 'sso' | 'scim',
): Promise<MemberRole> {
  const key = and(eq(memberships.userId, userId), eq(memberships.companyId, companyId));
  const identityKey = and(eq(ssoIdentities.companyId, companyId), eq(ssoIdentities.userId, userId));
  const [member, identity] = await Promise.all([
    db.query.memberships.findFirst({ where: key }),
    db.query.ssoIdentities.findFirst({ where: identityKey }),
  ]);
  const remember =
    identity && identity.mappedRole !== mapped
      ? [db.update(ssoIdentities).set({ mappedRole: mapped }).where(identityKey)]
      : [];
  // The provider maps as it did: the member's role stands, whoever gave it.
  if (member && (member.role === mapped || identity?.mappedRole === mapped)) {
    if (remember.length) await runBatch(db, remember);
    return member.role as MemberRole;
  }
  const audit = (before: string | null) =>
    recordMemberChange(
      db,
      { companyId, subjectId: userId, changedBy: userId, surface, action: 'role', changes: [['role', before, mapped]] },
      // written only when the role is still the one read (the update below then changes it)
      before === null
        ? undefined
        : sql`EXISTS (SELECT 1 FROM ${memberships} WHERE ${memberships.userId} = ${userId}
            AND ${memberships.companyId} = ${companyId} AND ${memberships.role} = ${before})`,
    );
  if (member) {
    // conditional on the role read, so a concurrent change is neither overwritten nor audited twice
    await runBatch(db, [
      audit(member.role),
      db
        .update(memberships)
        .set({ role: mapped })
        .where(and(key, eq(memberships.role, member.role))),
      ...remember,
    ]);
    return mapped;
  }
  const departmentId = await firstDepartment(db, companyId);
  await runBatch(db, [
    db
      .insert(memberships)
      .values({ userId, companyId, role: mapped, defaultDepartmentId: departmentId })
      .onConflictDoUpdate({ target: [memberships.userId, memberships.companyId], set: { role: mapped } }),
    audit(null),
    ...remember,
  ]);
  return mapped;
}

/** Users linked to the company's identity provider, by id (for SCIM reads). */
export async function identitiesOf(db: Database, companyId: string, userIds: string[]) {
  if (!userIds.length) return [];
  return db
    .select()
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.companyId, companyId), inArray(ssoIdentities.userId, userIds)));
}
