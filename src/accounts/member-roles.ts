import { and, eq, inArray, sql } from 'drizzle-orm';
import { runBatch, type Database } from '../db/client';
import { catalogs, categories, channels, memberChanges, memberships, membershipScopes } from '../db/schema';
import { badRequest, conflict, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { newId } from '../kernel/ids';
import { type MemberRole, writesTextsOnly } from '../kernel/permissions';
import { assertEnabled, readCompanyLanguages } from '../model/company-languages';
import { assertAdmin } from './admin-only';
import { resolveRole } from './custom-roles';
import { scopeKindSql } from './member-scopes';

/** The one message for an admin who tries to change their own role. */
export const OWN_ROLE = 'you cannot change your own role; another company admin can';

/** The scopes `SetMemberRole` replaces, by the input field and the `membership_scopes` kind it is stored as. */
const SCOPE_FIELDS = [
  ['languages', 'language'],
  ['catalogIds', 'catalog'],
  ['categoryIds', 'category'],
  ['channelIds', 'channel'],
] as const;
type ScopeField = (typeof SCOPE_FIELDS)[number][0];

export type SetMemberRoleInput = { userId: string; role: MemberRole } & Partial<
  Record<ScopeField, string[] | undefined>
>;

/**
 * `Account/SetMemberRole` (docs/teams.md): a company admin gives a member a built-in role or one
 * of the company's custom roles (by id; 404 for another's or none), and its
 * scopes: to a translator the languages they write; to any member but an admin the catalogs,
 * category subtrees and channels they are limited to (each replaced when given, kept when left
 * out, `scopesAfter`). One batch: the audit row
 * (`member_changes`, with `before` read inside the batch from the rows it replaces, so a
 * concurrent change cannot be recorded wrongly), the role, and every scope replaced. Nothing is
 * written or recorded when the member already has this role and these scopes. The change counts
 * at the member's next request: sessions and agent tokens read the role at every use.
 *
 * `catalogDb` is the company's cell, where its catalogs, categories and channels live (the
 * membership is in the directory, `db`): each scope id must name one of the company's, else 404.
 */
export async function setMemberRole(db: Database, admin: Caller, input: SetMemberRoleInput, catalogDb: Database = db) {
  assertAdmin(admin);
  const member = await db.query.memberships.findFirst({
    where: and(eq(memberships.userId, input.userId), eq(memberships.companyId, admin.companyId)),
  });
  // A user of another company is as unknown as a user that does not exist.
  if (!member) throw notFound('user');
  const scopes = await scopesAfter(db, admin, input);
  // The last word on a company's admins stays with another admin: nobody demotes themselves by mistake.
  if (input.userId === admin.userId) throw conflict(OWN_ROLE);
  await assertLanguageScope(db, admin, input.role, input.languages);
  const limited = SCOPE_FIELDS.find(([field]) => field !== 'languages' && scopes[field].length);
  if (limited && input.role === 'admin')
    throw badRequest(`${limited[0]}: a company admin acts on the whole company; leave it out for this role`);
  await assertScopeTargets(catalogDb, admin, input);

  const key = and(eq(memberships.userId, input.userId), eq(memberships.companyId, admin.companyId));
  const id = newId();
  const changes = SCOPE_FIELDS.map(([field, kind]) => ({
    field,
    before: scopeKindSql(sql`m.company_id`, sql`m.user_id`, kind),
    after: JSON.stringify(scopes[field]),
  }));
  const recorded = sql.join(
    changes.map(({ field, before, after }) => sql`json_array(${field}, json(${before}), json(${after}))`),
    sql`, `,
  );
  const changed = sql.join(
    changes.map(({ before, after }) => sql`${before} <> ${after}`),
    sql` OR `,
  );
  await runBatch(db, [
    db.insert(memberChanges).select(
      sql`SELECT ${id} AS id, m.company_id, m.user_id, ${admin.userId} AS changed_by, ${admin.surface} AS surface,
        json_array(json_array('role', m.role, ${input.role}), ${recorded}) AS changes,
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS at, 'role' AS action
      FROM memberships m
      WHERE m.company_id = ${admin.companyId} AND m.user_id = ${input.userId}
        AND (m.role <> ${input.role} OR ${changed})`,
    ),
    db.update(memberships).set({ role: input.role }).where(key),
    db
      .delete(membershipScopes)
      .where(and(eq(membershipScopes.companyId, admin.companyId), eq(membershipScopes.userId, input.userId))),
    ...SCOPE_FIELDS.flatMap(([field, kind]) =>
      scopes[field].map((value) =>
        db.insert(membershipScopes).values({ companyId: admin.companyId, userId: input.userId, kind, value }),
      ),
    ),
  ]);
  const written = await db.$count(memberChanges, eq(memberChanges.id, id));
  return { userId: input.userId, role: input.role, ...scopes, changed: written > 0 };
}

/**
 * The member's scopes once the change is made: `languages` as given (absent: none, only a
 * translator has them); a catalog, category or channel scope as given, else kept as it is (a
 * role change from the Administration screen, which sends no scope, keeps them), except that an
 * admin keeps none.
 */
async function scopesAfter(db: Database, admin: Caller, input: SetMemberRoleInput) {
  const current = await db
    .select({ kind: membershipScopes.kind, value: membershipScopes.value })
    .from(membershipScopes)
    .where(and(eq(membershipScopes.companyId, admin.companyId), eq(membershipScopes.userId, input.userId)));
  const kept = (kind: string) =>
    input.role === 'admin' ? [] : current.filter((r) => r.kind === kind).map((r) => r.value);
  return Object.fromEntries(
    SCOPE_FIELDS.map(([field, kind]) => {
      const given = input[field] ?? (field === 'languages' ? [] : kept(kind));
      return [field, [...new Set(given)].sort()];
    }),
  ) as Record<ScopeField, string[]>;
}

/**
 * 404 naming the field (`catalogIds[1]: catalog not found`) for a scope id that names no catalog,
 * category or channel of the admin's company: another company's is as unknown as none.
 */
export async function assertScopeTargets(
  db: Database,
  admin: Caller,
  input: Partial<Record<'catalogIds' | 'categoryIds' | 'channelIds', string[] | undefined>>,
): Promise<void> {
  const checks = [
    { field: 'catalogIds', what: 'catalog', table: catalogs, id: catalogs.id, company: catalogs.companyId },
    { field: 'categoryIds', what: 'category', table: categories, id: categories.id, company: categories.companyId },
    { field: 'channelIds', what: 'channel', table: channels, id: channels.channelId, company: channels.companyId },
  ] as const;
  for (const { field, what, table, id, company } of checks) {
    const ids = input[field] ?? [];
    if (!ids.length) continue;
    const found = await db
      .select({ id })
      .from(table)
      .where(and(eq(company, admin.companyId), inArray(id, [...new Set(ids)])));
    const known = new Set(found.map((r) => r.id));
    const missing = ids.findIndex((value) => !known.has(value));
    if (missing >= 0) throw notFound(`${field}[${missing}]: ${what}`);
  }
}

/**
 * `languages` is for a role that writes texts but not products (the translator, or a custom role
 * like it), each an enabled company language (400 naming `languages[i]`); shared by
 * `SetMemberRole` and `InviteMember`. Resolves the role first: 404 for a custom role id of
 * nothing or of another company.
 */
export async function assertLanguageScope(
  db: Database,
  admin: Caller,
  role: MemberRole,
  languages: string[] | undefined,
): Promise<void> {
  const permissions = await resolveRole(db, admin.companyId, role);
  if (languages?.length && !writesTextsOnly(permissions))
    throw badRequest(
      'languages: only a role that writes texts but not products (a translator) has a language scope; leave it out for this role',
    );
  const settings = await readCompanyLanguages(db, admin);
  for (const [i, language] of (languages ?? []).entries()) assertEnabled(settings, language, `languages[${i}]`);
}
