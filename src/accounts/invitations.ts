import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { isUniqueViolation, nowIso } from '../db/client';
import {
  companies,
  customRoles,
  invitations,
  memberDeactivations,
  membershipScopes,
  memberships,
  sessions,
  ssoSettings,
  users,
} from '../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '../kernel/app-error';
import type { Caller } from '../kernel/caller';
import { sha256Hex } from '../kernel/hashing';
import { newId } from '../kernel/ids';
import { type MemberRole, writesTextsOnly } from '../kernel/permissions';
import { SESSION_TTL_MS } from './accounts';
import { assertAdmin } from './admin-only';
import { recordMemberChange } from './member-audit';
import { assertLanguageScope, assertScopeTargets } from './member-roles';
import { resolveRole } from './custom-roles';
import { isDeactivated } from './member-status';
import { hashPassword, randomToken, verifyPassword } from './passwords';
import { claimSignInTry, clearSignInTries } from './sign-in-throttle';
import { firstDepartment } from './sso/provisioning';

/**
 * Invitations (docs/teams.md): an admin invites an e-mail address with a role; the answer
 * carries a link with a random token (only its SHA-256 is stored, so it is shown once); whoever
 * opens the link before it expires sets a password, or gives the password of the account the
 * address already has, and joins the company with that role. Single use, revocable.
 */

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The path of the web app's page that opens an invitation; the token rides in the fragment, which no server log sees. */
export const INVITATION_PATH = '/invitation';
/** The one answer for a token that is unknown, used, revoked or expired: it tells nothing about which. */
export const INVITATION_NOT_VALID = 'invitation not found: the link is wrong, used, revoked or expired';
/** The 409 of `InviteMember`. */
export const INVITE_CONFLICT =
  'this address is already a member, a deactivated member (reactivate them instead) or has an open invitation (revoke it first)';
/** The 409 of `AcceptInvitation`. */
export const ACCEPT_CONFLICT = 'this account is already a member of the company, or was deactivated there';
/** The 409 of `RevokeInvitation`. */
export const REVOKE_CONFLICT = 'the invitation was already accepted, revoked or has expired';
const MIN_PASSWORD = 12;

type InvitationRow = typeof invitations.$inferSelect;
export type InvitationStatus = 'open' | 'accepted' | 'revoked' | 'expired';

export function invitationStatus(row: Pick<InvitationRow, 'acceptedAt' | 'revokedAt' | 'expiresAt'>, now = nowIso()) {
  if (row.acceptedAt) return 'accepted' as const;
  if (row.revokedAt) return 'revoked' as const;
  return row.expiresAt <= now ? ('expired' as const) : ('open' as const);
}

/** SQL condition: the invitation can still be accepted or revoked. */
const isOpen = () =>
  and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, nowIso()));

/**
 * `Account/InviteMember`: one batch writes the invitation and its audit row. 409 for an address
 * that is a member or deactivated member of the company, or has an open invitation.
 */
export async function inviteMember(
  db: Database,
  admin: Caller,
  input: InviteInput,
  origin: string,
  catalogDb: Database = db,
) {
  assertAdmin(admin);
  const email = input.email.trim().toLowerCase();
  await assertLanguageScope(db, admin, input.role, input.languages);
  const languages = [...new Set(input.languages ?? [])].sort();
  const scopes = invitationScopes(input);
  if (scopes.length && input.role === 'admin')
    throw badRequest(`${scopes[0]![0]}Ids: a company admin acts on the whole company; leave it out for this role`);
  await assertScopeTargets(catalogDb, admin, input);
  if (await isTaken(db, admin.companyId, email)) throw conflict(INVITE_CONFLICT);

  const token = randomToken(32);
  const id = newId();
  const expiresAt = new Date(Date.now() + INVITATION_TTL_MS).toISOString();
  const byKind = scopesByKind(scopes);
  await db.batch([
    db.insert(invitations).values({
      id,
      companyId: admin.companyId,
      email,
      role: input.role,
      languages,
      scopes,
      tokenHash: await sha256Hex(token),
      invitedBy: admin.userId,
      expiresAt,
    }),
    recordMemberChange(db, {
      companyId: admin.companyId,
      subjectId: id,
      changedBy: admin.userId,
      surface: admin.surface,
      action: 'invite',
      changes: [
        ['email', null, email],
        ['role', null, input.role],
        ['languages', null, languages],
        ...scopeChanges(byKind),
      ],
    }),
  ]);
  const link = `${origin}${INVITATION_PATH}#${token}`;
  // No e-mail server: the admin passes the link on. On a developer's machine it is logged too.
  if (/^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(origin)) {
    console.log(JSON.stringify({ event: 'invitation_link', email, link }));
  }
  return { invitationId: id, email, role: input.role, languages, ...byKind, expiresAt, link };
}

export type InviteInput = {
  email: string;
  role: MemberRole;
  languages?: string[] | undefined;
  catalogIds?: string[] | undefined;
  categoryIds?: string[] | undefined;
  channelIds?: string[] | undefined;
};

/** The catalog, category and channel scopes an invitation carries, as `[kind, value]` pairs, sorted. */
function invitationScopes(input: InviteInput): [string, string][] {
  const pairs = (kind: string, ids: string[] | undefined) =>
    [...new Set(ids ?? [])].sort().map((id) => [kind, id] as [string, string]);
  return [
    ...pairs('catalog', input.catalogIds),
    ...pairs('category', input.categoryIds),
    ...pairs('channel', input.channelIds),
  ];
}

/** The stored pairs by kind, as the API answers them. */
export function scopesByKind(pairs: readonly [string, string][]) {
  const of = (kind: string) => pairs.filter(([k]) => k === kind).map(([, value]) => value);
  return { catalogIds: of('catalog'), categoryIds: of('category'), channelIds: of('channel') };
}

/** The audit's scope changes of an invitation or a join: only the kinds it has. */
function scopeChanges(byKind: ReturnType<typeof scopesByKind>): [string, unknown, unknown][] {
  return Object.entries(byKind)
    .filter(([, ids]) => ids.length)
    .map(([field, ids]) => [field, null, ids]);
}

/** Whether `email` is a member or deactivated member of the company, or has an open invitation there. */
async function isTaken(db: Database, companyId: string, email: string): Promise<boolean> {
  const user = await db.query.users.findFirst({ where: eq(users.email, email), columns: { id: true } });
  if (user) {
    const member = await db.$count(
      memberships,
      and(eq(memberships.companyId, companyId), eq(memberships.userId, user.id)),
    );
    const deactivated = await db.$count(
      memberDeactivations,
      and(eq(memberDeactivations.companyId, companyId), eq(memberDeactivations.userId, user.id)),
    );
    if (member || deactivated) return true;
  }
  const open = await db.$count(
    invitations,
    and(eq(invitations.companyId, companyId), eq(invitations.email, email), isOpen()),
  );
  return open > 0;
}

/** `Account/GetInvitations`: the company's invitations, newest first, with their status (never a token). */
export async function listInvitations(db: Database, admin: Caller) {
  assertAdmin(admin);
  const rows = await db
    .select()
    .from(invitations)
    .where(eq(invitations.companyId, admin.companyId))
    .orderBy(desc(invitations.id))
    .limit(MAX_INVITATIONS);
  const now = nowIso();
  return {
    items: rows.map((r) => ({
      invitationId: r.id,
      email: r.email,
      role: r.role,
      languages: r.languages,
      ...scopesByKind(r.scopes),
      invitedBy: r.invitedBy,
      createdAt: r.createdAt,
      expiresAt: r.expiresAt,
      status: invitationStatus(r, now),
      acceptedBy: r.acceptedBy,
    })),
  };
}

/** A company invites tens of people; the list is one page of the newest. */
const MAX_INVITATIONS = 500;

/** `Account/RevokeInvitation`: an open invitation stops working; 409 for one that is not open. */
export async function revokeInvitation(db: Database, admin: Caller, input: { invitationId: string }) {
  assertAdmin(admin);
  const row = await db.query.invitations.findFirst({
    where: and(eq(invitations.id, input.invitationId), eq(invitations.companyId, admin.companyId)),
  });
  if (!row) throw notFound('invitation');
  if (invitationStatus(row) !== 'open') throw conflict(REVOKE_CONFLICT);
  const revokedAt = nowIso();
  const [revoked] = await db.batch([
    db
      .update(invitations)
      .set({ revokedAt })
      .where(and(eq(invitations.id, row.id), isOpen()))
      .returning({ id: invitations.id }),
    // Recorded only when this batch revoked it: accepted meanwhile, nothing is claimed.
    recordMemberChange(
      db,
      {
        companyId: admin.companyId,
        subjectId: row.id,
        changedBy: admin.userId,
        surface: admin.surface,
        action: 'revoke-invitation',
        changes: [['status', 'open', 'revoked']],
      },
      sql`EXISTS (SELECT 1 FROM invitations WHERE id = ${row.id} AND revoked_at = ${revokedAt})`,
    ),
  ]);
  if (!revoked.length) throw conflict(REVOKE_CONFLICT);
  return { invitationId: row.id, status: 'revoked' as const };
}

/** The open invitation a link's token names, or 404 with the one message. */
async function openInvitationOf(db: Database, token: string): Promise<InvitationRow> {
  const row = await db.query.invitations.findFirst({
    where: and(eq(invitations.tokenHash, await sha256Hex(token)), isOpen()),
  });
  if (!row) throw new AppError('not_found', INVITATION_NOT_VALID);
  return row;
}

/**
 * `Account/GetInvitation` (no session: the token is the credential): what the invitee sees before
 * accepting, whether the address already has an account (then its password is asked for), and
 * the company's single sign-on name when it has one.
 */
export async function describeInvitation(db: Database, input: { token: string }) {
  const row = await openInvitationOf(db, input.token);
  const company = await db.query.companies.findFirst({ where: eq(companies.id, row.companyId) });
  const account = await db.query.users.findFirst({ where: eq(users.email, row.email), columns: { id: true } });
  const sso = await db.query.ssoSettings.findFirst({ where: eq(ssoSettings.companyId, row.companyId) });
  return {
    email: row.email,
    companyName: company?.name ?? '',
    role: row.role,
    roleName: await roleNameOf(db, row.companyId, row.role),
    languages: row.languages,
    ...scopesByKind(row.scopes),
    expiresAt: row.expiresAt,
    hasAccount: !!account,
    ssoSlug: sso?.slug ?? null,
    ssoMandatory: sso?.mandatory ?? false,
  };
}

/** A role's name: a built-in role's own, a custom role's (docs/teams.md "Custom roles"). */
async function roleNameOf(db: Database, companyId: string, role: string): Promise<string> {
  const custom = await db.query.customRoles.findFirst({
    where: and(eq(customRoles.id, role), eq(customRoles.companyId, companyId)),
    columns: { name: true },
  });
  return custom?.name ?? role;
}

/**
 * `Account/AcceptInvitation`: joins the company with the invitation's role and opens a session
 * there. A new address gets an account with the password given (at least 12 characters); an
 * address with an account must give its password (the sign-in throttle counts the tries). One
 * batch claims the invitation, creates the account, the membership, its language scope, the
 * audit row and the session: a membership whose role is read from the invitation claimed in the
 * same batch fails when a concurrent acceptance claimed it first, and then nothing is written.
 */
export async function acceptInvitation(
  db: Database,
  input: { token: string; password: string; name?: string | undefined },
  clientIp: string,
) {
  const invitation = await openInvitationOf(db, input.token);
  const sso = await db.query.ssoSettings.findFirst({ where: eq(ssoSettings.companyId, invitation.companyId) });
  if (sso?.mandatory) throw forbidden('your company requires single sign-on: use "Sign in with SSO"');
  const existing = await db.query.users.findFirst({ where: eq(users.email, invitation.email) });
  // Deactivated there after the invitation was made (having joined some other way): an admin reactivates, no link.
  if (existing && (await isDeactivated(db, invitation.companyId, existing.id))) throw conflict(ACCEPT_CONFLICT);
  if (existing) {
    await claimSignInTry(db, invitation.email, clientIp);
    if (!(await verifyPassword(input.password, existing.passwordHash, existing.passwordSalt))) {
      throw unauthorized('this address has an account: enter its password');
    }
    await clearSignInTries(db, invitation.email, clientIp);
  } else if (input.password.length < MIN_PASSWORD) {
    throw badRequest(`password must have at least ${MIN_PASSWORD} characters`);
  }
  const userId = existing?.id ?? newId();
  const departmentId = await firstDepartment(db, invitation.companyId);
  const token = randomToken();
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS).toISOString();
  const password = existing ? null : await hashPassword(input.password);
  const newAccount = password ? [newUserStatement(db, userId, invitation.email, input.name, password)] : [];
  try {
    await db.batch([
      db
        .update(invitations)
        .set({ acceptedAt: nowIso(), acceptedBy: userId })
        .where(and(eq(invitations.id, invitation.id), isOpen())),
      ...newAccount,
      db.insert(memberships).values({
        userId,
        companyId: invitation.companyId,
        // NULL (and the batch refused) unless the statement above claimed the invitation for this user.
        role: sql`(SELECT role FROM invitations WHERE id = ${invitation.id} AND accepted_by = ${userId})`,
        defaultDepartmentId: departmentId,
      }),
      ...invitation.languages.map((value) =>
        db.insert(membershipScopes).values({ companyId: invitation.companyId, userId, kind: 'language', value }),
      ),
      ...invitation.scopes.map(([kind, value]) =>
        db.insert(membershipScopes).values({ companyId: invitation.companyId, userId, kind: kind as never, value }),
      ),
      recordMemberChange(db, {
        companyId: invitation.companyId,
        subjectId: userId,
        changedBy: userId,
        surface: 'web',
        action: 'join',
        changes: [
          ['invitation', null, invitation.id],
          ['role', null, invitation.role],
          ['languages', null, invitation.languages],
          ...scopeChanges(scopesByKind(invitation.scopes)),
        ],
      }),
      db.insert(sessions).values({
        tokenHash: await sha256Hex(token),
        userId,
        companyId: invitation.companyId,
        departmentId,
        expiresAt,
      }),
    ]);
  } catch (err) {
    throw acceptFailure(err);
  }
  return { token, expiresAt, userId, companyId: invitation.companyId };
}

/** The invitee's new account; a builder, not run here (drizzle builders run when awaited). */
function newUserStatement(
  db: Database,
  userId: string,
  email: string,
  name: string | undefined,
  password: { hash: string; salt: string },
) {
  return db.insert(users).values({
    id: userId,
    email,
    name: name?.trim() || email,
    passwordHash: password.hash,
    passwordSalt: password.salt,
    securityStamp: crypto.randomUUID(),
  });
}

/** What a refused acceptance batch means to the invitee; anything else stays an internal error. */
function acceptFailure(err: unknown): unknown {
  const text = err instanceof Error ? `${err.message} ${String(err.cause ?? '')}` : '';
  if (text.includes('NOT NULL constraint failed: memberships.role'))
    return new AppError('not_found', INVITATION_NOT_VALID);
  if (isUniqueViolation(err, 'memberships.user_id, memberships.company_id')) return conflict(ACCEPT_CONFLICT);
  // Two first acceptances of invitations to the same new address: the other one made the account.
  if (isUniqueViolation(err, 'users.email')) return conflict(ACCEPT_CONFLICT);
  return err;
}

/**
 * The first single sign-on of an invited address (docs/teams.md "Invitations and single
 * sign-on"): the provider's group mapping has given the role, as at every sign-in; the open
 * invitation is consumed (accepted by this user, the link stops working) and its scopes are
 * given: the language scope when the mapped role writes texts only, the catalog, category and
 * channel scopes unless the mapped role is admin. One batch, written only when this batch claims
 * the invitation; recorded as `join` through the web. No open invitation: nothing happens.
 */
export async function consumeInvitationAtSignOn(
  db: Database,
  input: { companyId: string; email: string; userId: string; role: MemberRole },
): Promise<void> {
  const invitation = await db.query.invitations.findFirst({
    where: and(
      eq(invitations.companyId, input.companyId),
      eq(invitations.email, input.email.trim().toLowerCase()),
      isOpen(),
    ),
  });
  if (!invitation) return;
  const permissions = await resolveRole(db, input.companyId, input.role).catch(() => []);
  const languages = writesTextsOnly(permissions) ? invitation.languages : [];
  const scopes = input.role === 'admin' ? [] : invitation.scopes;
  const acceptedAt = nowIso();
  const claimed = sql`EXISTS (SELECT 1 FROM invitations WHERE id = ${invitation.id} AND accepted_by = ${input.userId} AND accepted_at = ${acceptedAt})`;
  const rows: [string, string][] = [...languages.map((l) => ['language', l] as [string, string]), ...scopes];
  await db.batch([
    db
      .update(invitations)
      .set({ acceptedAt, acceptedBy: input.userId })
      .where(and(eq(invitations.id, invitation.id), isOpen())),
    ...rows.map(([kind, value]) =>
      db
        .insert(membershipScopes)
        .select(
          sql`SELECT ${input.companyId} AS company_id, ${input.userId} AS user_id, ${kind} AS kind, ${value} AS value
          WHERE ${claimed}`,
        )
        .onConflictDoNothing(),
    ),
    recordMemberChange(
      db,
      {
        companyId: input.companyId,
        subjectId: input.userId,
        changedBy: input.userId,
        surface: 'web',
        action: 'join',
        changes: [
          ['invitation', null, invitation.id],
          ['role', null, input.role],
          ['languages', null, languages],
          ...scopeChanges(scopesByKind(scopes)),
        ],
      },
      claimed,
    ),
  ]);
}
