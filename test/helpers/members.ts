import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { db, makeUser } from './factories';
import { call, loginAs } from './http';

/** What SetMemberRole grants beside the role: catalog, category (subtree) and channel scopes, languages. */
export interface MemberScopes {
  catalogIds?: string[];
  categoryIds?: string[];
  channelIds?: string[];
  languages?: string[];
}

/**
 * A new member of the company given `role` and `scopes` by the admin through SetMemberRole (the
 * way Administration does it), signed in: the user with its session cookie.
 */
export async function scopedMember(
  adminCookie: string,
  company: { companyId: string; departmentId: string },
  role: string,
  scopes: MemberScopes = {},
  options: { aiSwitch?: boolean } = {},
) {
  const user = await makeUser(company, options);
  const set = await call('POST', '/api/Account/SetMemberRole', {
    cookie: adminCookie,
    body: { userId: user.userId, role, ...scopes },
  });
  expect(set.status, set.text).toBe(200);
  return { ...user, cookie: await loginAs(user.email) };
}

/**
 * Whether the company's scope set of these root categories is made and counted (`built`,
 * migration 0083, docs/teams.md "Counts"): what the background work after a scope is given
 * does before the member's first count would.
 */
export async function scopeSetBuilt(companyId: string, categoryIds: readonly string[]): Promise<boolean> {
  const key = [...new Set(categoryIds)].sort().join(',');
  const rows = await db().all<{ built: number }>(
    sql`SELECT built FROM scope_sets WHERE company_id = ${companyId} AND key = ${key}`,
  );
  return rows[0]?.built === 1;
}
