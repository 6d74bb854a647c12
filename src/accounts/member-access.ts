import { and, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { memberships, sessions, users } from '../db/schema';

/**
 * The statements that take a member's access to a company away, for a batch of the caller's:
 * the membership goes (its scopes with it, by cascade), so no sign-in, session or agent token
 * finds one; the member's sessions in the company end; and a new security stamp refuses every
 * OAuth token of the user at its next use. SCIM deactivation and an admin's `DeactivateMember`
 * both come through here; the caller then deletes the stored grants (`revokeUserGrants`).
 * The stamp belongs to the user, so their agent tokens for other companies end too: they sign
 * in again there.
 */
export function removeAccessStatements(db: Database, companyId: string, userId: string) {
  return [
    db
      .delete(memberships)
      .where(and(eq(memberships.userId, userId), eq(memberships.companyId, companyId)))
      .returning({ userId: memberships.userId }),
    db.delete(sessions).where(and(eq(sessions.userId, userId), eq(sessions.companyId, companyId))),
    db.update(users).set({ securityStamp: crypto.randomUUID() }).where(eq(users.id, userId)),
  ] as const;
}
