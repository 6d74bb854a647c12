import { expect } from 'vitest';
import { makeUser } from './factories';
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
