import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs, memberships, membershipScopes } from '../src/db/schema';
import { cancelJob } from '../src/jobs/jobs';
import { asActor, db, makeCompany, makeUser } from './helpers/factories';
import { SetSsoSettingsDto } from '../src/accounts/sso/sso.schemas';
import { roleForGroups } from '../src/accounts/sso/provisioning';
import { isPermitted, PERMISSIONS, ROLE_PERMISSIONS, ROLES } from '../src/kernel/permissions';

/** The rules of kernel/permissions.ts on their own (docs/teams.md); the matrix over every operation is permission-matrix.test.ts. */
describe('what each role permits', () => {
  it('keeps admin and editor as they were: admin everything, editor everything of the catalog but the company and decisions', () => {
    expect([...ROLE_PERMISSIONS.admin]).toEqual([...PERMISSIONS]);
    expect(PERMISSIONS.filter((p) => !ROLE_PERMISSIONS.editor.includes(p))).toEqual(['review.decide', 'company.admin']);
    for (const role of ROLES) expect(ROLE_PERMISSIONS[role], role).toContain('read');
  });

  it('lets a translator write texts only in the languages of their scope, and in any without one', () => {
    const french = { role: 'translator' as const, surface: 'web', languages: ['fra'] };
    expect(isPermitted(french, 'text.write', { language: 'fra' })).toBe(true);
    expect(isPermitted(french, 'text.write', { language: 'deu' })).toBe(false);
    expect(isPermitted(french, 'text.write', {})).toBe(false);
    expect(isPermitted(french, 'product.write')).toBe(false);
    expect(isPermitted({ role: 'translator', surface: 'web' }, 'text.write', { language: 'deu' })).toBe(true);
    // An editor's language scope does not narrow product.write, which includes every text.
    expect(isPermitted({ role: 'editor', surface: 'web', languages: ['fra'] }, 'text.write', { language: 'deu' })).toBe(
      true,
    );
  });

  it('never gives an agent company administration or a review decision, whatever the role', () => {
    for (const surface of ['agent', 'mcp']) {
      expect(isPermitted({ role: 'admin', surface }, 'company.admin')).toBe(false);
      expect(isPermitted({ role: 'reviewer', surface }, 'review.decide')).toBe(false);
      expect(isPermitted({ role: 'editor', surface }, 'product.write')).toBe(true);
      expect(isPermitted({ role: 'viewer', surface }, 'product.write')).toBe(false);
    }
  });

  it('refuses a caller without a role except a job, which acts with the rights its start was checked for', () => {
    expect(isPermitted({ surface: 'web' }, 'read')).toBe(false);
    expect(isPermitted({ surface: 'job' }, 'product.write')).toBe(true);
  });
});

describe('single sign-on and SCIM map groups to every built-in role', () => {
  const mapping = [
    { group: 'translators', role: 'translator' as const },
    { group: 'reviewers', role: 'reviewer' as const },
    { group: 'staff', role: 'viewer' as const },
    { group: 'pim-admins', role: 'admin' as const },
  ];

  it('gives the role that permits the most of the mapped groups, else the default', () => {
    expect(roleForGroups(['staff', 'translators'], mapping, null)).toBe('translator');
    expect(roleForGroups(['staff', 'reviewers', 'translators'], mapping, null)).toBe('reviewer');
    expect(roleForGroups(['staff', 'pim-admins'], mapping, null)).toBe('admin');
    expect(roleForGroups(['others'], mapping, 'viewer')).toBe('viewer');
    expect(roleForGroups(['others'], mapping, null)).toBeNull();
  });

  it('accepts the new roles in the settings and refuses an unknown one, naming the field', () => {
    const settings = { slug: 'roles-sso', issuer: 'https://idp.example', clientId: 'pim', clientSecret: 's' };
    const parsed = SetSsoSettingsDto.safeParse({ ...settings, groupRoles: mapping, defaultRole: 'publisher' });
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const unknown = SetSsoSettingsDto.safeParse({ ...settings, groupRoles: [{ group: 'g', role: 'owner' }] });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0]?.path).toEqual(['groupRoles', 0, 'role']);
  });
});

describe('membership scopes (migration 0060)', () => {
  it('go with their membership: a member removed (SCIM deactivation) keeps no language scope', async () => {
    const company = await makeCompany();
    const member = await makeUser(company, { role: 'translator' });
    const own = and(eq(membershipScopes.companyId, company.companyId), eq(membershipScopes.userId, member.userId));
    await db()
      .insert(membershipScopes)
      .values({ companyId: company.companyId, userId: member.userId, kind: 'language', value: 'fra' });
    expect(await db().$count(membershipScopes, own)).toBe(1);
    await db()
      .delete(memberships)
      .where(and(eq(memberships.companyId, company.companyId), eq(memberships.userId, member.userId)));
    expect(await db().$count(membershipScopes, own)).toBe(0);
  });
});

describe('cancelling a job', () => {
  async function queuedJob(company: { companyId: string; departmentId: string }, userId: string) {
    const id = crypto.randomUUID();
    await db().insert(jobs).values({
      id,
      companyId: company.companyId,
      departmentId: company.departmentId,
      userId,
      kind: 'export',
      state: 'queued',
      params: {},
    });
    return id;
  }

  it('lets a publisher cancel the jobs they started and nobody else’s; an editor cancels any', async () => {
    const company = await makeCompany();
    const publisher = await makeUser(company, { role: 'publisher' });
    const editor = await makeUser(company, { role: 'editor' });
    const asPublisher = asActor({ ...company, userId: publisher.userId, role: 'publisher' });
    const asEditor = asActor({ ...company, userId: editor.userId, role: 'editor' });

    const own = await queuedJob(company, publisher.userId);
    expect(await cancelJob(db(), asPublisher, own)).toMatchObject({ state: 'cancelled' });

    const editors = await queuedJob(company, editor.userId);
    await expect(cancelJob(db(), asPublisher, editors)).rejects.toMatchObject({ status: 403 });
    const [still] = await db().select({ state: jobs.state }).from(jobs).where(eq(jobs.id, editors));
    expect(still!.state).toBe('queued');

    const publishers = await queuedJob(company, publisher.userId);
    expect(await cancelJob(db(), asEditor, publishers)).toMatchObject({ state: 'cancelled' });
  });
});
