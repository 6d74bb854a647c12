import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sessions, ssoSettings } from '../../db/schema';

/** A front-channel logout request the PIM does not act on; the message is answered as `error`. */
export class FrontchannelLogoutError extends Error {}

/** Longest `iss` and `sid` taken (an issuer URL, a provider's session id). */
const MAX_PARAM = 2048;

/**
 * OpenID Connect Front-Channel Logout 1.0: the provider's logout page loads the PIM's
 * front-channel logout URI in an iframe with `iss` and `sid` (the client is registered with
 * `frontchannel_logout_session_required`), and the PIM ends the web sessions it opened through
 * SSO in that provider session: those whose ID token carried that `sid` (kept in the session row,
 * migration 0066), in the companies that registered that issuer. Nothing is signed in this
 * request (the specification has no token here), so it only ever ends sessions, of the named
 * provider session only; an unknown issuer ends nothing. Answers how many sessions ended and the
 * origins allowed to frame the answer (the issuer's, and its end-session endpoint's when the
 * cached discovery names one): the provider, and no one else.
 */
export async function acceptFrontchannelLogout(
  db: Database,
  input: { iss: string | undefined; sid: string | undefined },
): Promise<{ ended: number; frameAncestors: string[] }> {
  const { iss, sid } = input;
  if (!iss || !sid) throw new FrontchannelLogoutError('iss and sid are required');
  if (iss.length > MAX_PARAM || sid.length > MAX_PARAM) throw new FrontchannelLogoutError('iss or sid is too long');
  const companies = await db
    .select({ companyId: ssoSettings.companyId, issuer: ssoSettings.issuer, discovery: ssoSettings.discovery })
    .from(ssoSettings)
    .where(eq(ssoSettings.issuer, iss));
  if (companies.length === 0) throw new FrontchannelLogoutError('no company signs in with this issuer');
  const ended = await db
    .delete(sessions)
    .where(
      and(
        inArray(
          sessions.companyId,
          companies.map((c) => c.companyId),
        ),
        eq(sessions.ssoSid, sid),
      ),
    )
    .returning({ tokenHash: sessions.tokenHash });
  const origins = new Set<string>();
  for (const company of companies) {
    const issuerOrigin = originOf(company.issuer);
    if (issuerOrigin) origins.add(issuerOrigin);
    const endSession = company.discovery?.end_session_endpoint;
    const endOrigin = typeof endSession === 'string' ? originOf(endSession) : undefined;
    if (endOrigin) origins.add(endOrigin);
  }
  return { ended: ended.length, frameAncestors: [...origins].sort() };
}

/** The https (or http, for a local provider) origin of a URL, else nothing. */
function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
