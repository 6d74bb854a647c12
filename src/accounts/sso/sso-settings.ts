import type { MemberRole } from '../../kernel/permissions';
import { resolveRole } from '../custom-roles';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { isUniqueViolation, nowIso } from '../../db/client';
import { scimTokens, ssoSettings, type SsoGroupRole } from '../../db/schema';
import { AppError, badRequest, conflict, notFound } from '../../kernel/app-error';
import type { Caller } from '../../kernel/caller';
import { sha256Hex } from '../../kernel/hashing';
import { newId } from '../../kernel/ids';
import { isUsableKey, seal, unseal } from '../../kernel/secret-box';
import { assertAdmin } from '../admin-only';
import { randomToken } from '../passwords';
import { fetchDiscovery, type IssuerEnv } from './issuer';

export interface SsoEnv extends IssuerEnv {
  /** Worker secret: key of the sealed OpenID client secrets. */
  SSO_ENCRYPTION_KEY?: string;
}

/** The path of the OpenID redirect URI under the PIM's origin, to register at the identity provider. */
export const CALLBACK_PATH = '/api/Account/SsoCallback';
/** Where the provider POSTs its logout tokens (register it at the provider as back-channel logout URI). */
export const BACKCHANNEL_LOGOUT_PATH = '/api/Account/SsoBackchannelLogout';
/** What the provider's logout page loads in an iframe (register it as front-channel logout URI, session required). */
export const FRONTCHANNEL_LOGOUT_PATH = '/api/Account/SsoFrontchannelLogout';

/** The key of everything SSO seals (client secrets, the ID tokens of SSO sessions); a 500 without it. */
export function keyOf(env: SsoEnv): string {
  if (!isUsableKey(env.SSO_ENCRYPTION_KEY)) {
    console.error(
      JSON.stringify({ where: 'sso', error: 'SSO_ENCRYPTION_KEY is not set (or shorter than 16 characters)' }),
    );
    throw new AppError('internal', 'single sign-on is not configured on this server');
  }
  return env.SSO_ENCRYPTION_KEY;
}

export async function sealClientSecret(env: SsoEnv, companyId: string, secret: string): Promise<string> {
  return seal(keyOf(env), `sso:${companyId}`, secret);
}

export async function openClientSecret(env: SsoEnv, companyId: string, sealed: string): Promise<string> {
  const opened = await unseal(keyOf(env), `sso:${companyId}`, sealed);
  if (typeof opened === 'string') {
    // A rotated SSO_ENCRYPTION_KEY: the admin enters the client secret again.
    throw conflict('the client secret cannot be decrypted (was SSO_ENCRYPTION_KEY changed?); enter it again');
  }
  return opened.plaintext;
}

export interface SsoSettingsInput {
  slug: string;
  issuer: string;
  clientId: string;
  /** Absent keeps the stored secret; required the first time. */
  clientSecret?: string;
  scopes: string;
  groupsClaim: string;
  groupRoles: SsoGroupRole[];
  defaultRole: MemberRole | null;
  mandatory: boolean;
}

/** What the admin screen shows: everything but the secret. */
async function describeSettings(db: Database, companyId: string, origin: string) {
  const row = await db.query.ssoSettings.findFirst({ where: eq(ssoSettings.companyId, companyId) });
  const tokens = await db
    .select({
      tokenId: scimTokens.id,
      name: scimTokens.name,
      createdAt: scimTokens.createdAt,
      lastUsedAt: scimTokens.lastUsedAt,
    })
    .from(scimTokens)
    .where(eq(scimTokens.companyId, companyId))
    .orderBy(asc(scimTokens.createdAt), asc(scimTokens.id));
  return {
    configured: !!row,
    redirectUri: `${origin}${CALLBACK_PATH}`,
    backchannelLogoutUri: `${origin}${BACKCHANNEL_LOGOUT_PATH}`,
    frontchannelLogoutUri: `${origin}${FRONTCHANNEL_LOGOUT_PATH}`,
    scimBaseUrl: `${origin}/scim/v2`,
    settings: row
      ? {
          slug: row.slug,
          issuer: row.issuer,
          clientId: row.clientId,
          hasClientSecret: true as const,
          scopes: row.scopes,
          groupsClaim: row.groupsClaim,
          groupRoles: row.groupRoles,
          defaultRole: row.defaultRole,
          mandatory: row.mandatory,
          breakGlassUserId: row.breakGlassUserId,
          updatedAt: row.updatedAt,
        }
      : null,
    scimTokens: tokens,
  };
}

export async function getSsoSettings(db: Database, admin: Caller, origin: string) {
  assertAdmin(admin);
  return describeSettings(db, admin.companyId, origin);
}

/**
 * Stores the company's identity provider after fetching its discovery document (so a typo in
 * the issuer is refused here, not at the first sign-in). Turning `mandatory` on records the
 * admin who did it: that admin keeps password sign-in as the break-glass (docs/sso.md).
 */
export async function setSsoSettings(
  db: Database,
  env: SsoEnv,
  admin: Caller,
  input: SsoSettingsInput,
  origin: string,
) {
  assertAdmin(admin);
  const existing = await db.query.ssoSettings.findFirst({ where: eq(ssoSettings.companyId, admin.companyId) });
  if (!existing && !input.clientSecret) throw badRequest('clientSecret is required when SSO is first set up');
  const taken = await db.query.ssoSettings.findFirst({
    where: and(eq(ssoSettings.slug, input.slug), ne(ssoSettings.companyId, admin.companyId)),
  });
  if (taken) throw conflict('slug: this sign-in name is used by another company');
  // A custom role must be the company's (404 naming the field, before the provider is asked).
  for (const [i, { role }] of input.groupRoles.entries())
    await resolveRole(db, admin.companyId, role).catch((err) => {
      throw err instanceof AppError && err.status === 404 ? notFound(`groupRoles[${i}].role: role`) : err;
    });
  if (input.defaultRole) await resolveRole(db, admin.companyId, input.defaultRole);
  const discovery = await fetchDiscovery(env, input.issuer);
  const clientSecret = input.clientSecret
    ? await sealClientSecret(env, admin.companyId, input.clientSecret)
    : existing!.clientSecret;
  const breakGlassUserId = input.mandatory ? (existing?.mandatory ? existing.breakGlassUserId : admin.userId) : null;
  const values = {
    slug: input.slug,
    issuer: input.issuer,
    clientId: input.clientId,
    clientSecret,
    scopes: input.scopes,
    groupsClaim: input.groupsClaim,
    groupRoles: input.groupRoles,
    defaultRole: input.defaultRole,
    mandatory: input.mandatory,
    breakGlassUserId,
    discovery,
    discoveryFetchedAt: nowIso(),
    updatedAt: nowIso(),
  };
  try {
    await db
      .insert(ssoSettings)
      .values({ companyId: admin.companyId, ...values })
      .onConflictDoUpdate({ target: ssoSettings.companyId, set: values });
  } catch (err) {
    if (isUniqueViolation(err, 'sso_settings.slug'))
      throw conflict('slug: this sign-in name is used by another company');
    throw err;
  }
  return describeSettings(db, admin.companyId, origin);
}

/** A new SCIM bearer token for the company; the token itself is returned this once. */
export async function createScimToken(db: Database, admin: Caller, input: { name: string }) {
  assertAdmin(admin);
  const token = `scim_${randomToken(32)}`;
  const tokenId = newId();
  await db.insert(scimTokens).values({
    id: tokenId,
    companyId: admin.companyId,
    name: input.name,
    tokenHash: await sha256Hex(token),
  });
  return { tokenId, name: input.name, token };
}

export async function revokeScimToken(db: Database, admin: Caller, input: { tokenId: string }) {
  assertAdmin(admin);
  const deleted = await db
    .delete(scimTokens)
    .where(and(eq(scimTokens.id, input.tokenId), eq(scimTokens.companyId, admin.companyId)))
    .returning({ id: scimTokens.id });
  if (!deleted.length) throw notFound('SCIM token');
  return { tokenId: input.tokenId, revoked: true as const };
}
