import { and, eq, sql } from 'drizzle-orm';
import { runBatch, type Database } from '../db/client';
import { memberChanges, memberships, membershipScopes } from '../db/schema';
import { badRequest, conflict, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { newId } from '../kernel/ids';
import type { Role } from '../kernel/permissions';
import { assertEnabled, readCompanyLanguages } from '../model/company-languages';
import { assertAdmin } from './admin-only';
import { languageScopeSql } from './member-scopes';

/** The one message for an admin who tries to change their own role. */
export const OWN_ROLE = 'you cannot change your own role; another company admin can';

/**
 * `Account/SetMemberRole` (docs/teams.md): a company admin gives a member a built-in role and, to
 * a translator, the languages they write. One batch: the audit row (`member_changes`, with
 * `before` read inside the batch from the rows it replaces, so a concurrent change cannot be
 * recorded wrongly), the role, and the language scope replaced. Nothing is written or recorded
 * when the member already has this role and scope. The change counts at the member's next
 * request: sessions and agent tokens read the role at every use.
 */
export async function setMemberRole(
  db: Database,
  admin: Caller,
  input: { userId: string; role: Role; languages?: string[] | undefined },
) {
  assertAdmin(admin);
  const languages = [...new Set(input.languages ?? [])].sort();
  const member = await db.query.memberships.findFirst({
    where: and(eq(memberships.userId, input.userId), eq(memberships.companyId, admin.companyId)),
  });
  // A user of another company is as unknown as a user that does not exist.
  if (!member) throw notFound('user');
  // The last word on a company's admins stays with another admin: nobody demotes themselves by mistake.
  if (input.userId === admin.userId) throw conflict(OWN_ROLE);
  await assertLanguageScope(db, admin, input.role, input.languages);

  const key = and(eq(memberships.userId, input.userId), eq(memberships.companyId, admin.companyId));
  const before = languageScopeSql(sql`m.company_id`, sql`m.user_id`);
  const after = JSON.stringify(languages);
  const id = newId();
  await runBatch(db, [
    db.insert(memberChanges).select(
      sql`SELECT ${id} AS id, m.company_id, m.user_id, ${admin.userId} AS changed_by, ${admin.surface} AS surface,
        json_array(json_array('role', m.role, ${input.role}), json_array('languages', json(${before}), json(${after}))) AS changes,
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS at, 'role' AS action
      FROM memberships m
      WHERE m.company_id = ${admin.companyId} AND m.user_id = ${input.userId}
        AND (m.role <> ${input.role} OR ${before} <> ${after})`,
    ),
    db.update(memberships).set({ role: input.role }).where(key),
    db
      .delete(membershipScopes)
      .where(
        and(
          eq(membershipScopes.companyId, admin.companyId),
          eq(membershipScopes.userId, input.userId),
          eq(membershipScopes.kind, 'language'),
        ),
      ),
    ...languages.map((value) =>
      db.insert(membershipScopes).values({ companyId: admin.companyId, userId: input.userId, kind: 'language', value }),
    ),
  ]);
  const recorded = await db.$count(memberChanges, eq(memberChanges.id, id));
  return { userId: input.userId, role: input.role, languages, changed: recorded > 0 };
}

/**
 * `languages` is for a translator only, each an enabled company language (400 naming
 * `languages[i]`); shared by `SetMemberRole` and `InviteMember`.
 */
export async function assertLanguageScope(
  db: Database,
  admin: Caller,
  role: Role,
  languages: string[] | undefined,
): Promise<void> {
  if (languages?.length && role !== 'translator')
    throw badRequest('languages: only a translator has a language scope; leave it out for this role');
  const settings = await readCompanyLanguages(db, admin);
  for (const [i, language] of (languages ?? []).entries()) assertEnabled(settings, language, `languages[${i}]`);
}
