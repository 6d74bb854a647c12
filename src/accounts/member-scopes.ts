import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/**
 * The language scope of the membership of (`companyId`, `userId`) as a JSON array, for a select
 * that reads the membership anyway (the session, the agent's account): one subquery on the
 * primary key of `membership_scopes`, no second round trip.
 */
export function languageScopeSql(companyId: SQLWrapper, userId: SQLWrapper): SQL<string> {
  return sql<string>`(SELECT json_group_array(value) FROM (SELECT value FROM membership_scopes
    WHERE company_id = ${companyId} AND user_id = ${userId} AND kind = 'language' ORDER BY value))`;
}

/** The stored array as the caller carries it: absent when the membership has no language scope (every language). */
export function languagesOf(json: string | null | undefined): string[] | undefined {
  const list = json ? (JSON.parse(json) as string[]) : [];
  return list.length ? list : undefined;
}
