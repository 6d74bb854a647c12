import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { nowIso } from '../db/client';
import { companies, departments, memberships, sessions, users } from '../db/schema';
import { badRequest, notFound, unauthorized } from '../kernel/app-error';
import { hashPassword, randomToken, verifyPassword } from './passwords';
import { passwordRefusedBySso, SSO_REQUIRED } from './sso/mandatory';
import { claimSignInTry, clearSignInTries } from './sign-in-throttle';
import { assertDepartment } from '../db/scope';
import { sha256Hex } from '../kernel/hashing';
import { callerScopesOf, languageScopeSql, languagesOf, memberScopeSql, memberScopesOf } from './member-scopes';
import { permissionsOf } from '../kernel/permissions';
import { customPermissionsOf, customPermissionsSql } from './custom-roles';

/** How long a web session lasts (sign-in, an accepted invitation). */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

interface LoginResult {
  token: string;
  expiresAt: string;
  userId: string;
}

/** Stands in for a user's hash when the email is unknown, so both cost one PBKDF2 run. */
const DUMMY = { hash: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', salt: 'AAAAAAAAAAAAAAAAAAAAAA==' };

/**
 * Checks email and password and opens a session in the user's first company and its default
 * department. Every try is first claimed from the (email, client IP) throttle, which answers
 * 429 alike for known and unknown emails (docs/reliability.md); an unknown email spends the
 * same time as a real check, so neither status nor timing reveals which emails exist.
 */
export async function login(
  db: Database,
  input: { email: string; password: string },
  clientIp: string,
): Promise<LoginResult> {
  const email = input.email.trim().toLowerCase();
  await claimSignInTry(db, email, clientIp);
  const user = await db.query.users.findFirst({ where: eq(users.email, email) });
  const valid = await verifyPassword(
    input.password,
    user?.passwordHash ?? DUMMY.hash,
    user?.passwordSalt ?? DUMMY.salt,
  );
  if (!user || !valid) throw unauthorized('invalid email or password');
  // Asked only after a correct password, so the answer reveals nothing about unknown addresses.
  if (await passwordRefusedBySso(db, user.id)) {
    await clearSignInTries(db, email, clientIp);
    throw unauthorized(SSO_REQUIRED);
  }
  const now = Date.now();
  const membership = await db.query.memberships.findFirst({
    where: eq(memberships.userId, user.id),
    orderBy: (m, { asc }) => [asc(m.createdAt), asc(m.companyId)],
  });
  if (!membership) throw unauthorized('this account has no company');

  const token = randomToken();
  const expiresAt = new Date(now + SESSION_TTL_MS).toISOString();
  await db.insert(sessions).values({
    tokenHash: await sha256Hex(token),
    userId: user.id,
    companyId: membership.companyId,
    departmentId: membership.defaultDepartmentId,
    expiresAt,
  });
  await clearSignInTries(db, email, clientIp);
  return { token, expiresAt, userId: user.id };
}

/** Ends a web session; answers what an SSO session leaves for the sign-out at the provider, or null. */
export async function logout(db: Database, token: string) {
  const [ended] = await db
    .delete(sessions)
    .where(eq(sessions.tokenHash, await sha256Hex(token)))
    .returning({
      tokenHash: sessions.tokenHash,
      companyId: sessions.companyId,
      ssoIdToken: sessions.ssoIdToken,
      ssoLogoutUrl: sessions.ssoLogoutUrl,
    });
  return ended ?? null;
}

/** Resolves a cookie token to its live session, the member's role and whether the user is the service operator, or null. */
export async function resolveSession(db: Database, token: string) {
  const [row] = await db
    .select({
      userId: sessions.userId,
      companyId: sessions.companyId,
      departmentId: sessions.departmentId,
      expiresAt: sessions.expiresAt,
      role: memberships.role,
      customPermissions: customPermissionsSql(sessions.companyId, memberships.role),
      languages: languageScopeSql(sessions.companyId, sessions.userId),
      scopes: memberScopeSql(sessions.companyId, sessions.userId),
      operator: users.isOperator,
    })
    .from(sessions)
    .innerJoin(memberships, and(eq(memberships.userId, sessions.userId), eq(memberships.companyId, sessions.companyId)))
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, await sha256Hex(token)))
    .limit(1);
  if (!row || row.expiresAt <= nowIso()) return null;
  const { scopes, customPermissions, ...session } = row;
  return {
    ...session,
    ...customPermissionsOf(customPermissions),
    languages: languagesOf(row.languages),
    ...callerScopesOf(scopes),
  };
}

/** The account as the web application shows it (`GET /api/Account/Me`). */
export async function describeAccount(
  db: Database,
  caller: { userId: string; companyId: string; departmentId: string },
) {
  // The account, the number of its companies and the company's departments: independent reads, sent together.
  const accountRow = db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      aiMayEditClassifications: users.aiMayEditClassifications,
      operator: users.isOperator,
      companyId: companies.id,
      companyName: companies.name,
      role: memberships.role,
      customRole: sql<
        string | null
      >`(SELECT json_object('name', name, 'permissions', json(permissions)) FROM custom_roles WHERE id = ${memberships.role} AND company_id = ${memberships.companyId})`,
      languages: languageScopeSql(memberships.companyId, memberships.userId),
      scopes: memberScopeSql(memberships.companyId, memberships.userId),
    })
    .from(users)
    .innerJoin(memberships, eq(memberships.userId, users.id))
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .where(and(eq(users.id, caller.userId), eq(memberships.companyId, caller.companyId)))
    .limit(1);
  const [[row], companyCount, departmentList] = await Promise.all([
    accountRow,
    db.$count(memberships, eq(memberships.userId, caller.userId)),
    db
      .select({ departmentId: departments.id, name: departments.name })
      .from(departments)
      .where(eq(departments.companyId, caller.companyId))
      .orderBy(departments.name),
  ]);
  if (!row) throw unauthorized();
  const custom = row.customRole ? (JSON.parse(row.customRole) as { name: string; permissions: string[] }) : null;
  const customJson = custom ? JSON.stringify(custom.permissions) : null;
  return {
    user: { userId: row.userId, email: row.email, name: row.name },
    company: { companyId: row.companyId, name: row.companyName },
    departmentId: caller.departmentId,
    departments: departmentList,
    role: row.role,
    /** The role's name: a built-in role's own, or the custom role's. */
    roleName: custom?.name ?? row.role,
    languages: languagesOf(row.languages) ?? [],
    ...memberScopesOf(row.scopes),
    permissions: [
      ...(permissionsOf({ role: row.role, surface: 'web', ...customPermissionsOf(customJson) }) as readonly string[]),
    ],
    companyCount,
    aiMayEditClassifications: row.aiMayEditClassifications,
    operator: row.operator,
  };
}

/** Moves a session to another department of its company. */
export async function switchDepartment(db: Database, token: string, companyId: string, departmentId: string) {
  await assertDepartment(db, { companyId }, departmentId);
  await db
    .update(sessions)
    .set({ departmentId })
    .where(eq(sessions.tokenHash, await sha256Hex(token)));
  return { departmentId };
}

/**
 * Sets a new password and a new security stamp; all of the user's web sessions end, so every
 * credential issued under the old password stops working.
 */
export async function changePassword(
  db: Database,
  userId: string,
  input: { currentPassword: string; newPassword: string },
  clientIp: string,
): Promise<{ securityStamp: string }> {
  const user = await db.query.users.findFirst({ where: eq(users.id, userId) });
  if (!user) throw notFound('user');
  // currentPassword is a password guess like a sign-in: the same throttle (docs/reliability.md).
  await claimSignInTry(db, user.email, clientIp);
  if (!(await verifyPassword(input.currentPassword, user.passwordHash, user.passwordSalt))) {
    throw badRequest('currentPassword is not correct');
  }
  await clearSignInTries(db, user.email, clientIp);
  if (input.newPassword === input.currentPassword) throw badRequest('newPassword must differ from currentPassword');
  const { hash, salt } = await hashPassword(input.newPassword);
  const securityStamp = crypto.randomUUID();
  await db.batch([
    db.update(users).set({ passwordHash: hash, passwordSalt: salt, securityStamp }).where(eq(users.id, userId)),
    db.delete(sessions).where(eq(sessions.userId, userId)),
  ]);
  return { securityStamp };
}
