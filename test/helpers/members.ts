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
 * The state of the company's scope set of these root categories (migrations 0083 and 0087,
 * docs/teams.md "Counts"): absent, or whether it is made and counted (`built`) and its counts
 * are out of date (`stale`: 3 after a category move, until counted again).
 */
export async function scopeSetState(companyId: string, categoryIds: readonly string[]) {
  const key = [...new Set(categoryIds)].sort().join(',');
  const rows = await db().all<{ built: number; stale: number }>(
    sql`SELECT built, stale FROM scope_sets WHERE company_id = ${companyId} AND key = ${key}`,
  );
  return rows[0];
}

/** Whether that set is made, counted and up to date: what a member's count then reads as it is. */
export async function scopeSetKept(companyId: string, categoryIds: readonly string[]): Promise<boolean> {
  const state = await scopeSetState(companyId, categoryIds);
  return state?.built === 1 && state.stale === 0;
}
