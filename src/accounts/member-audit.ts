import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  invitations,
  type MemberChangeAction,
  memberChanges,
  memberDeactivations,
  memberships,
  users,
} from '../db/schema';
import { notFound } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { newId } from '../kernel/ids';
import { keysetPage } from '../kernel/pagination';
import { assertAdmin } from './admin-only';

/**
 * The audit of permission changes (docs/teams.md): every role or scope change, invitation,
 * acceptance, deactivation and reactivation is one `member_changes` row written in the same
 * batch as the change itself, with who made it, through what and when. `changes` is
 * `[[path, before, after], ...]`.
 */

/**
 * One audit row, as a statement for the caller's batch; with `onlyIf`, written only when that
 * SQL condition holds inside the batch (the change it records really happened).
 */
export function recordMemberChange(
  db: Database,
  entry: {
    companyId: string;
    /** The member; for `invite` and `revoke-invitation` the invitation's id (the invitee may have no account); for the role actions the custom role's id. */
    subjectId: string;
    changedBy: string;
    surface: string;
    action: MemberChangeAction;
    changes: [string, unknown, unknown][];
  },
  onlyIf?: SQL,
) {
  const values = {
    id: newId(),
    companyId: entry.companyId,
    userId: entry.subjectId,
    changedBy: entry.changedBy,
    surface: entry.surface,
    action: entry.action,
    changes: JSON.stringify(entry.changes),
  };
  if (!onlyIf) return db.insert(memberChanges).values(values);
  // The columns in the table's order, as drizzle's INSERT ... SELECT lists them.
  return db.insert(memberChanges).select(
    sql`SELECT ${values.id} AS id, ${values.companyId} AS company_id, ${values.userId} AS user_id,
      ${values.changedBy} AS changed_by, ${values.surface} AS surface, ${values.changes} AS changes,
      strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS at, ${values.action} AS action
      WHERE ${onlyIf}`,
  );
}

const INVITATION_ACTIONS: readonly MemberChangeAction[] = ['invite', 'revoke-invitation'];
const ROLE_ACTIONS: readonly MemberChangeAction[] = ['create-role', 'update-role', 'delete-role'];
const PAGE_SIZE = 50;

/**
 * `Account/GetMemberChanges`: the company's permission changes newest first, in keyset pages
 * (UUIDv7 ids are creation order; index `member_changes_company_id_idx`), or one member's when
 * `userId` is given (a deactivated member's too). Each item names the member or invitation and
 * its e-mail address.
 */
export async function listMemberChanges(
  db: Database,
  admin: Caller,
  query: { userId?: string | undefined; cursor?: string | undefined; limit?: number | undefined },
) {
  assertAdmin(admin);
  if (query.userId) await assertKnownMember(db, admin.companyId, query.userId);
  const page = await keysetPage(
    { cursor: query.cursor, limit: query.limit ?? PAGE_SIZE },
    { column: memberChanges.id, order: 'desc' },
    (q) =>
      db
        .select({
          id: memberChanges.id,
          at: memberChanges.at,
          action: memberChanges.action,
          subjectId: memberChanges.userId,
          changedBy: memberChanges.changedBy,
          surface: memberChanges.surface,
          changes: memberChanges.changes,
          memberEmail: users.email,
          invitationEmail: invitations.email,
        })
        .from(memberChanges)
        .leftJoin(users, eq(users.id, memberChanges.userId))
        .leftJoin(
          invitations,
          and(eq(invitations.id, memberChanges.userId), eq(invitations.companyId, admin.companyId)),
        )
        .where(
          and(
            eq(memberChanges.companyId, admin.companyId),
            query.userId ? eq(memberChanges.userId, query.userId) : undefined,
            q.after,
          ),
        )
        .orderBy(q.orderBy)
        .limit(q.limit),
    (row) => row.id,
  );
  return { items: page.items.map(auditItem), nextCursor: page.nextCursor };
}

/** An audit row as the API answers it: the member or the invitation it is about, and its e-mail address. */
function auditItem(r: {
  id: string;
  at: string;
  action: MemberChangeAction;
  subjectId: string;
  changedBy: string;
  surface: string;
  changes: string;
  memberEmail: string | null;
  invitationEmail: string | null;
}) {
  const forInvitation = INVITATION_ACTIONS.includes(r.action);
  const forRole = ROLE_ACTIONS.includes(r.action);
  return {
    changeId: r.id,
    at: r.at,
    action: r.action,
    userId: forInvitation || forRole ? null : r.subjectId,
    invitationId: forInvitation ? r.subjectId : null,
    roleId: forRole ? r.subjectId : null,
    email: (forInvitation ? r.invitationEmail : r.memberEmail) ?? null,
    changedBy: r.changedBy,
    surface: r.surface,
    changes: (JSON.parse(r.changes) as [string, unknown, unknown][]).map(([path, before, after]) => ({
      path,
      before,
      after,
    })),
  };
}

/** A member or deactivated member of the admin's company; anyone else is unknown (404). */
async function assertKnownMember(db: Database, companyId: string, userId: string) {
  const member = await db.$count(
    memberships,
    and(eq(memberships.userId, userId), eq(memberships.companyId, companyId)),
  );
  const deactivated = member
    ? 0
    : await db.$count(
        memberDeactivations,
        and(eq(memberDeactivations.userId, userId), eq(memberDeactivations.companyId, companyId)),
      );
  if (!member && !deactivated) throw notFound('user');
}
