import { z } from 'zod';
import { ROLES } from '../../kernel/permissions';

/** A built-in role, or one of the company's custom roles by id (docs/teams.md "Custom roles"). */
const Role = z.union([
  z.enum(ROLES),
  z.uuid({ error: `must be a built-in role (${ROLES.join(', ')}) or a custom role's id` }),
]);

/** A company's sign-in name: lower-case letters, digits and hyphens, as in `/sign-in?sso=demo-elektro`. */
export const Slug = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'slug: use 1 to 63 lower-case letters, digits and hyphens');

export const SsoStartDto = z.strictObject({ slug: Slug });
export const SsoStartOut = z.object({ redirectUrl: z.string(), expiresInSeconds: z.number().int() });

const printable = (field: string, max: number) =>
  z
    .string()
    .trim()
    .min(1, `${field} must not be empty`)
    .max(max)
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), `${field}: control characters are not allowed`);

export const SetSsoSettingsDto = z.strictObject({
  slug: Slug,
  /** The issuer exactly as the provider names itself (`issuer` of its discovery document). */
  issuer: z
    .url({ protocol: /^https?$/, error: 'issuer must be an http(s) URL' })
    .max(500)
    .refine((v) => !v.includes('?') && !v.includes('#'), 'issuer must not carry a query or fragment'),
  clientId: printable('clientId', 255),
  /** Write-only: absent keeps the stored secret. */
  clientSecret: printable('clientSecret', 1024).optional(),
  scopes: printable('scopes', 500)
    .refine((v) => v.split(/\s+/).includes('openid'), 'scopes must include openid')
    .default('openid email profile'),
  groupsClaim: printable('groupsClaim', 100).default('groups'),
  groupRoles: z
    .array(z.strictObject({ group: printable('group', 255), role: Role }))
    .max(100)
    .refine((list) => new Set(list.map((g) => g.group)).size === list.length, 'groupRoles: each group once')
    .default([]),
  defaultRole: Role.nullable().default(null),
  mandatory: z.boolean().default(false),
});

export const SsoSettingsOut = z.object({
  configured: z.boolean(),
  redirectUri: z.string(),
  /** Where the provider POSTs logout tokens (OpenID Connect Back-Channel Logout 1.0). */
  backchannelLogoutUri: z.string(),
  /** What the provider's logout page loads in an iframe with iss and sid (OpenID Connect Front-Channel Logout 1.0). */
  frontchannelLogoutUri: z.string(),
  scimBaseUrl: z.string(),
  settings: z
    .object({
      slug: z.string(),
      issuer: z.string(),
      clientId: z.string(),
      hasClientSecret: z.literal(true),
      scopes: z.string(),
      groupsClaim: z.string(),
      groupRoles: z.array(z.object({ group: z.string(), role: Role })),
      defaultRole: Role.nullable(),
      mandatory: z.boolean(),
      breakGlassUserId: z.string().nullable(),
      updatedAt: z.string(),
    })
    .nullable(),
  scimTokens: z.array(
    z.object({ tokenId: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() }),
  ),
});

export const CreateScimTokenDto = z.strictObject({ name: printable('name', 100) });
export const CreateScimTokenOut = z.object({ tokenId: z.string(), name: z.string(), token: z.string() });
export const RevokeScimTokenDto = z.strictObject({ tokenId: z.uuid() });
export const RevokeScimTokenOut = z.object({ tokenId: z.string(), revoked: z.literal(true) });
