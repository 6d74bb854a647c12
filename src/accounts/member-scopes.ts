import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { MEMBERSHIP_SCOPE_KINDS } from '../db/schema';
import type { ProductScope } from '../kernel/caller';

type MembershipScopeKind = (typeof MEMBERSHIP_SCOPE_KINDS)[number];

/**
 * The language scope of the membership of (`companyId`, `userId`) as a JSON array, for a select
 * that reads the membership anyway (the session, the agent's account): one subquery on the
 * primary key of `membership_scopes`, no second round trip.
 */
export function languageScopeSql(companyId: SQLWrapper, userId: SQLWrapper): SQL<string> {
  return scopeKindSql(companyId, userId, 'language');
}

/** One kind of the membership's scope as a sorted JSON array of its values (what `member_changes` records). */
export function scopeKindSql(companyId: SQLWrapper, userId: SQLWrapper, kind: MembershipScopeKind): SQL<string> {
  return sql<string>`(SELECT json_group_array(value) FROM (SELECT value FROM membership_scopes
    WHERE company_id = ${companyId} AND user_id = ${userId} AND kind = ${kind} ORDER BY value))`;
}

/** The stored array as the caller carries it: absent when the membership has no language scope (every language). */
export function languagesOf(json: string | null | undefined): string[] | undefined {
  const list = json ? (JSON.parse(json) as string[]) : [];
  return list.length ? list : undefined;
}

/**
 * The catalog, category and channel scopes of the membership as a JSON array of `[kind, value]`,
 * read in the same select as the language scope (one range of the primary key).
 */
export function memberScopeSql(companyId: SQLWrapper, userId: SQLWrapper): SQL<string> {
  return sql<string>`(SELECT json_group_array(json_array(kind, value)) FROM (SELECT kind, value FROM membership_scopes
    WHERE company_id = ${companyId} AND user_id = ${userId} AND kind IN ('catalog', 'category', 'channel') ORDER BY kind, value))`;
}

/** A member's catalog, category and channel scopes by kind (each sorted, empty when none). */
export interface MemberScopes {
  catalogIds: string[];
  categoryIds: string[];
  channelIds: string[];
}

/** The stored `[kind, value]` pairs of `memberScopeSql` by kind. */
export function memberScopesOf(json: string | null | undefined): MemberScopes {
  const pairs = json ? (JSON.parse(json) as [string, string][]) : [];
  const of = (kind: string) => pairs.filter(([k]) => k === kind).map(([, value]) => value);
  return { catalogIds: of('catalog'), categoryIds: of('category'), channelIds: of('channel') };
}

/**
 * The scopes as a caller carries them (kernel/caller.ts): `productScope` only when the member has
 * a catalog or category scope, `channels` only when it has a channel scope; absent means all.
 */
export function callerScopesOf(json: string | null | undefined): {
  productScope?: ProductScope;
  channels?: string[];
} {
  const { catalogIds, categoryIds, channelIds } = memberScopesOf(json);
  return {
    ...(catalogIds.length || categoryIds.length ? { productScope: { catalogIds, categoryIds } } : {}),
    ...(channelIds.length ? { channels: channelIds } : {}),
  };
}
