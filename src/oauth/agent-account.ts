import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { memberships, users } from '../db/schema';
import type { MemberRole, Permission } from '../kernel/permissions';
import { customPermissionsOf, customPermissionsSql } from '../accounts/custom-roles';
import { callerScopesOf, languageScopeSql, languagesOf, memberScopeSql } from '../accounts/member-scopes';
import type { ProductScope } from '../kernel/caller';

/** What the agent rules need to know about a user, read in one query. */
interface AgentAccount {
  userId: string;
  securityStamp: string;
  aiMayEditClassifications: boolean;
  memberships: {
    companyId: string;
    role: MemberRole;
    /** A custom role's permissions; absent for a built-in role. */
    permissions?: Permission[];
    departmentId: string;
    languages?: string[];
    productScope?: ProductScope;
    channels?: string[];
  }[];
}

/**
 * Reads the user's stamp, switch and memberships from D1. Queries without the D1 Sessions API
 * go to the primary database, so a stamp written by ChangePassword or RevokeAiAccess is seen by
 * the very next read, from any location: this is what makes revocation immediate.
 */
export async function loadAgentAccount(db: Database, userId: string): Promise<AgentAccount | null> {
  const rows = await db
    .select({
      securityStamp: users.securityStamp,
      aiMayEditClassifications: users.aiMayEditClassifications,
      companyId: memberships.companyId,
      role: memberships.role,
      customPermissions: customPermissionsSql(memberships.companyId, memberships.role),
      departmentId: memberships.defaultDepartmentId,
      languages: languageScopeSql(memberships.companyId, memberships.userId),
      scopes: memberScopeSql(memberships.companyId, memberships.userId),
    })
    .from(users)
    .leftJoin(memberships, eq(memberships.userId, users.id))
    .where(eq(users.id, userId));
  const first = rows[0];
  if (!first) return null;
  return {
    userId,
    securityStamp: first.securityStamp,
    aiMayEditClassifications: first.aiMayEditClassifications,
    memberships: rows.flatMap((r) =>
      r.companyId && r.role && r.departmentId
        ? [
            {
              companyId: r.companyId,
              role: r.role,
              ...customPermissionsOf(r.customPermissions),
              departmentId: r.departmentId,
              languages: languagesOf(r.languages),
              ...callerScopesOf(r.scopes),
            },
          ]
        : [],
    ),
  };
}

/**
 * docs/spec.md 5.2 rule 2: only a single-company, non-admin user may delegate to an agent. Answers why
 * an account is refused, or null when it may.
 */
export function agentRefusal(account: AgentAccount): string | null {
  if (account.memberships.length === 0) return 'this account belongs to no company';
  if (account.memberships.length > 1)
    return 'accounts that belong to more than one company cannot be used by AI agents';
  if (account.memberships[0]!.role === 'admin') return 'administrator accounts cannot be used by AI agents';
  return null;
}
