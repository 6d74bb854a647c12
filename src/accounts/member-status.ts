import { and, eq, sql } from 'drizzle-orm';
import { type BatchStatement, type Database, isUniqueViolation, runBatch } from '../db/client';
import {
  departments,
  type MEMBERSHIP_SCOPE_KINDS,
  memberDeactivations,
  membershipScopes,
  memberships,
} from '../db/schema';
import { conflict, notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { assertAdmin } from './admin-only';
import { removeAccessStatements } from './member-access';
import { recordMemberChange } from './member-audit';
import { languageScopeSql, languagesOf, memberScopeSql } from './member-scopes';
import { firstDepartment } from './sso/provisioning';

/** The 409 of `DeactivateMember`. */
export const DEACTIVATE_CONFLICT =
  'you cannot deactivate yourself, and a deactivated member stays so until reactivated';
/** The 409 of `ReactivateMember`. */
export const REACTIVATE_CONFLICT = 'the member is not deactivated';

const memberKey = (companyId: string, userId: string) =>
  and(eq(memberships.companyId, companyId), eq(memberships.userId, userId));
const deactivationKey = (companyId: string, userId: string) =>
  and(eq(memberDeactivations.companyId, companyId), eq(memberDeactivations.userId, userId));

/**
 * `Account/DeactivateMember` (docs/teams.md): the member's access ends as on SCIM deactivation
 * (`removeAccessStatements`: membership, sessions in the company, security stamp; the route then
 * deletes the stored OAuth grants), and `member_deactivations` keeps role, languages and
 * department for a reactivation. One batch, with the audit row; `before` is read in the batch.
 */
export async function deactivateMember(db: Database, admin: Caller, input: { userId: string }) {
  assertAdmin(admin);
  const member = await db.query.memberships.findFirst({ where: memberKey(admin.companyId, input.userId) });
  if (!member) {
    const deactivated = await db.$count(memberDeactivations, deactivationKey(admin.companyId, input.userId));
    // A user of another company is as unknown as a user that does not exist.
    if (!deactivated) throw notFound('user');
    throw conflict(DEACTIVATE_CONFLICT);
  }
  // Nobody locks themselves out; another admin can deactivate an admin.
  if (input.userId === admin.userId) throw conflict(DEACTIVATE_CONFLICT);
  const languages = languageScopeSql(sql`m.company_id`, sql`m.user_id`);
  const scopes = memberScopeSql(sql`m.company_id`, sql`m.user_id`);
  const stillMember = sql`EXISTS (SELECT 1 FROM memberships WHERE company_id = ${admin.companyId} AND user_id = ${input.userId})`;
  await runOnce(
    db,
    [
      // Read before the membership goes, in the same batch: what a reactivation restores.
      db.insert(memberDeactivations).select(
        sql`SELECT m.company_id, m.user_id, m.role, ${languages} AS languages, ${scopes} AS scopes, m.default_department_id,
        ${admin.userId} AS deactivated_by, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS deactivated_at
      FROM memberships m WHERE m.company_id = ${admin.companyId} AND m.user_id = ${input.userId}`,
      ),
      recordMemberChange(
        db,
        {
          companyId: admin.companyId,
          subjectId: input.userId,
          changedBy: admin.userId,
          surface: admin.surface,
          action: 'deactivate',
          changes: [['status', 'active', 'deactivated']],
        },
        stillMember,
      ),
      ...removeAccessStatements(db, admin.companyId, input.userId),
    ],
    DEACTIVATE_CONFLICT,
  );
  return { userId: input.userId, status: 'deactivated' as const };
}

/**
 * `Account/ReactivateMember`: the membership comes back with the role and languages it had, in
 * its department (the company's first when that one was deleted meanwhile). One batch with the
 * audit row. The member signs in again: their sessions and tokens ended at deactivation.
 */
export async function reactivateMember(db: Database, admin: Caller, input: { userId: string }) {
  assertAdmin(admin);
  const row = await db.query.memberDeactivations.findFirst({ where: deactivationKey(admin.companyId, input.userId) });
  if (!row) {
    const member = await db.$count(memberships, memberKey(admin.companyId, input.userId));
    if (!member) throw notFound('user');
    throw conflict(REACTIVATE_CONFLICT);
  }
  const departmentId = await departmentStill(db, admin.companyId, row.defaultDepartmentId);
  const languages = languagesOf(JSON.stringify(row.languages)) ?? [];
  await runOnce(
    db,
    [
      db
        .insert(memberships)
        .values({ userId: row.userId, companyId: row.companyId, role: row.role, defaultDepartmentId: departmentId }),
      ...languages.map((value) =>
        db.insert(membershipScopes).values({ companyId: row.companyId, userId: row.userId, kind: 'language', value }),
      ),
      // the catalog, category and channel scopes it had: an agency editor comes back as one
      ...row.scopes.map(([kind, value]) =>
        db.insert(membershipScopes).values({
          companyId: row.companyId,
          userId: row.userId,
          kind: kind as (typeof MEMBERSHIP_SCOPE_KINDS)[number],
          value,
        }),
      ),
      db.delete(memberDeactivations).where(deactivationKey(admin.companyId, input.userId)),
      recordMemberChange(db, {
        companyId: admin.companyId,
        subjectId: input.userId,
        changedBy: admin.userId,
        surface: admin.surface,
        action: 'reactivate',
        changes: [
          ['status', 'deactivated', 'active'],
          ['role', null, row.role],
          ['languages', null, languages],
        ],
      }),
    ],
    REACTIVATE_CONFLICT,
  );
  return { userId: input.userId, status: 'active' as const, role: row.role, languages };
}

/** The department the member had, when it still exists; else the company's first. */
async function departmentStill(db: Database, companyId: string, departmentId: string): Promise<string> {
  const kept = await db.$count(
    departments,
    and(eq(departments.id, departmentId), eq(departments.companyId, companyId)),
  );
  return kept ? departmentId : firstDepartment(db, companyId);
}

/** Whether the user is a deactivated member of the company (single sign-on must not let them back in). */
export async function isDeactivated(db: Database, companyId: string, userId: string): Promise<boolean> {
  return (await db.$count(memberDeactivations, deactivationKey(companyId, userId))) > 0;
}

/**
 * Runs the batch; a concurrent deactivation or reactivation of the same member makes one of the
 * key inserts collide, and then nothing of this batch is written: 409 with `message`.
 */
async function runOnce(db: Database, statements: BatchStatement[], message: string): Promise<void> {
  try {
    await runBatch(db, statements);
  } catch (err) {
    if (
      isUniqueViolation(err, 'member_deactivations.company_id, member_deactivations.user_id') ||
      isUniqueViolation(err, 'memberships.user_id, memberships.company_id')
    )
      throw conflict(message);
    throw err;
  }
}
