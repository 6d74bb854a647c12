import { and, eq, isNull, ne, or } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { memberships, ssoSettings } from '../../db/schema';

/** The answer to a correct password of a member of a company where single sign-on is mandatory. */
export const SSO_REQUIRED = 'your company requires single sign-on: use "Sign in with SSO"';

/**
 * Whether a password sign-in is refused: the user is a member of a company that made single
 * sign-on mandatory and is not that company's break-glass admin (the admin who switched it on,
 * while still an admin), docs/sso.md.
 */
export async function passwordRefusedBySso(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ companyId: ssoSettings.companyId })
    .from(memberships)
    .innerJoin(ssoSettings, eq(ssoSettings.companyId, memberships.companyId))
    .where(
      and(
        eq(memberships.userId, userId),
        eq(ssoSettings.mandatory, true),
        or(
          isNull(ssoSettings.breakGlassUserId),
          ne(ssoSettings.breakGlassUserId, userId),
          ne(memberships.role, 'admin'),
        ),
      ),
    )
    .limit(1);
  return !!row;
}
