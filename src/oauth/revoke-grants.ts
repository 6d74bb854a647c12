import type { Bindings } from '../env';
import { authorizationServerFor } from './server';

/**
 * Deletes every OAuth grant of a user, with its tokens, from OAUTH_KV. KV is eventually
 * consistent, so this is housekeeping, not the revocation itself: the new security stamp in
 * D1 is what refuses the user's tokens everywhere within one request.
 */
export async function revokeUserGrants(env: Bindings, requestUrl: string, userId: string): Promise<number> {
  // Grant records are keyed by user and grant, not by issuer: any origin's helpers reach them.
  const url = new URL(requestUrl);
  const server = authorizationServerFor(url) ?? authorizationServerFor(new URL('http://localhost'))!;
  const oauth = server.getOAuthApi(env);
  // List everything first: deleting while paging would shift the listing under the cursor.
  const grantIds: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await oauth.listUserGrants(userId, { cursor, limit: 1000 });
    grantIds.push(...page.items.map((g) => g.id));
    cursor = page.cursor;
  } while (cursor);
  for (const grantId of grantIds) await oauth.revokeGrant(grantId, userId);
  return grantIds.length;
}
