import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app';
import { ADMIN_ONLY } from '../src/accounts/admin-only';
import { AGENTS_NEVER_APPROVE } from '../src/completeness/review-scope';
import {
  type Acting,
  isPermitted,
  NOT_PERMITTED,
  type Permission,
  ROLE_PERMISSIONS,
  type Role,
} from '../src/kernel/permissions';
import { toolPermission } from '../src/mcp/tool-definition';
import { PIM_TOOLS } from '../src/mcp/tools';
import { openApiDocument } from '../src/openapi/openapi-document';
import { contractTenant, send, type ContractTenant } from './helpers/contract-fixtures';
import { operationsOf, type Operation } from './helpers/contract-request';
import { enableLanguages, makeUser } from './helpers/factories';
import { call, loginAs } from './helpers/http';
import { openSession, sessionCall } from './mcp-helpers';
import { tokensFor } from './oauth-helpers';
import { tenantDigest } from './helpers/tenant-digest';

/**
 * The permission matrix (docs/teams.md), generated from the OpenAPI document: every operation
 * names the permission it needs (`x-pim-permission`); each built-in role is sent a request with
 * nothing right in its body and must get 403 exactly where its role lacks that permission
 * (before the body is read, changing nothing), and anything but 403 where it has it. The same
 * for `/api/ai` with each role's agent token, and for every MCP tool.
 */
const DOC = await openApiDocument(createApp(), 'https://pim.test/api');
const OPERATIONS = operationsOf(DOC);
/**
 * The permission each operation documents in its 403 (error-responses.ts): `a role without the
 * permission "X"`, `company.admin` for an admin's operation, `read` (every role has it, so no
 * 403 names it) for any other with a caller; none without a caller or for the operator's.
 */
function documentedPermission(op: Operation): Permission | undefined {
  if (op.security === 'none' || op.credentialOptional || op.refusals.includes('not the service operator'))
    return undefined;
  const named = /a role without the permission "([a-z.]+)"/.exec(op.refusals)?.[1];
  if (named) return named as Permission;
  return op.refusals.includes('not a company admin') ? 'company.admin' : 'read';
}
const PERMISSION = new Map(OPERATIONS.map((op) => [op.name, documentedPermission(op)] as const));

/**
 * `custom`: a company's custom role (docs/teams.md "Custom roles") with a mix no built-in role
 * has, `review.decide` among it (which its agent must still be refused).
 */
type MatrixRole = Role | 'custom';
const CUSTOM_PERMISSIONS: Permission[] = ['read', 'classification.write', 'review.decide', 'publish'];
const WEB_ROLES: readonly MatrixRole[] = ['viewer', 'editor', 'translator', 'reviewer', 'publisher', 'admin', 'custom'];
/** Administrators cannot use agents at all (docs/spec.md 5.2); every other role can. */
const AGENT_ROLES: readonly MatrixRole[] = ['viewer', 'editor', 'translator', 'reviewer', 'publisher', 'custom'];
/** The role as the permission check reads it: a custom role by its id, with its permissions. */
let customRoleId = '';
const acting = (role: MatrixRole, surface: string): Acting =>
  role === 'custom' ? { role: customRoleId, permissions: CUSTOM_PERMISSIONS, surface } : { role, surface };

let a: ContractTenant;
const cookies = new Map<MatrixRole, string>();
/** Agent tokens that `send` renews after 3 minutes (contract-fixtures.ts): the matrix outlasts a 5-minute token. */
const tokens = new Map<MatrixRole, { session: string; value: string; issuedAt: number }>();
beforeAll(async () => {
  a = await contractTenant();
  await enableLanguages(a.companyId, ['fra']);
  const company = { companyId: a.companyId, departmentId: a.ids.departmentId! };
  cookies.set('admin', a.adminCookie);
  const created = await call('POST', '/api/Account/CreateRole', {
    cookie: a.adminCookie,
    body: { name: 'Channel manager', permissions: CUSTOM_PERMISSIONS },
  });
  expect(created.status, created.text).toBe(200);
  customRoleId = created.json.roleId;
  for (const role of AGENT_ROLES) {
    const user = await makeUser(company, { role: role === 'custom' ? 'viewer' : role, aiSwitch: true });
    if (role === 'custom') {
      const set = await call('POST', '/api/Account/SetMemberRole', {
        cookie: a.adminCookie,
        body: { userId: user.userId, role: customRoleId },
      });
      expect(set.status, set.text).toBe(200);
    }
    const cookie = await loginAs(user.email);
    cookies.set(role, cookie);
    tokens.set(role, {
      session: cookie,
      value: (await tokensFor({ session: cookie })).access_token,
      issuedAt: Date.now(),
    });
  }
}, 120_000);

const worthless = (op: Operation) => (op.body ? { body: { unknownField: true } } : { query: {} });

/** A request that would do something when permitted (a POST without a body to refuse): only its refusals are sent. */
const sendsOnlyRefusals = (op: Operation) => op.method !== 'GET' && !op.body;

function expected(op: Operation, role: MatrixRole): 'refused' | 'permitted' {
  const permission = PERMISSION.get(op.name)!;
  const surface = op.security === 'bearer' ? 'agent' : 'web';
  if (isPermitted(acting(role, surface), permission)) return 'permitted';
  // an import file's upload: a role writing texts sends it too, for its texts-only import
  const granted = role === 'custom' ? CUSTOM_PERMISSIONS : ROLE_PERMISSIONS[role];
  const uploadsTexts = op.refusals.includes('may upload a file for a texts-only import too');
  return uploadsTexts && granted.includes('text.write') ? 'permitted' : 'refused';
}

describe('the permission matrix of every operation', () => {
  const guarded = OPERATIONS.filter((op) => PERMISSION.get(op.name));

  it('names a permission for every operation with a caller', () => {
    expect(guarded.length).toBeGreaterThanOrEqual(140);
    const without = OPERATIONS.filter((op) => !PERMISSION.get(op.name)).map((op) => op.name);
    expect(without.sort()).toEqual(
      [
        'Account/Login',
        'Account/Logout',
        // The invitation link's token is the credential: no session, no role yet (docs/teams.md).
        'Account/GetInvitation',
        'Account/AcceptInvitation',
        'Account/SsoStart',
        'Classification/StartReleaseLoad',
        'contact/submit',
      ].sort(),
    );
    expect(PERMISSION.get('Catalog/GetProducts')).toBe('read');
    expect(PERMISSION.get('Catalog/AddProduct')).toBe('product.write');
    expect(PERMISSION.get('Catalog/SetValue')).toBe('text.write');
    expect(PERMISSION.get('Catalog/ApproveProducts')).toBe('review.decide');
    expect(PERMISSION.get('Export/StartExport')).toBe('publish');
    expect(PERMISSION.get('Sync/StartSync')).toBe('publish');
    expect(PERMISSION.get('Account/SetMemberRole')).toBe('company.admin');
    for (const name of [
      'InviteMember',
      'RevokeInvitation',
      'DeactivateMember',
      'ReactivateMember',
      'GetRoles',
      'CreateRole',
      'UpdateRole',
      'DeleteRole',
    ])
      expect(PERMISSION.get(`Account/${name}`)).toBe('company.admin');
    for (const op of guarded)
      if (PERMISSION.get(op.name) !== 'read') expect(op.statuses, `${op.name}: 403 documented`).toContain('403');
  });

  it('acts with the custom role as defined: approve on the web but not as an agent, no admin operation', () => {
    expect(expected(OPERATIONS.find((o) => o.name === 'Catalog/ApproveProducts')!, 'custom')).toBe('permitted');
    expect(expected(OPERATIONS.find((o) => o.name === 'Catalog/AddProduct')!, 'custom')).toBe('refused');
    expect(expected(OPERATIONS.find((o) => o.name === 'Account/GetUsers')!, 'custom')).toBe('refused');
    expect(isPermitted(acting('custom', 'mcp'), 'review.decide')).toBe(false);
  });

  it.each(guarded.map((op) => [op.name, op] as const))('%s', async (_name, op) => {
    const before = await tenantDigest([a.companyId]);
    const roles = op.security === 'bearer' ? AGENT_ROLES : WEB_ROLES;
    const seen: Record<string, string> = {};
    const want: Record<string, string> = {};
    for (const role of roles) {
      const outcome = expected(op, role);
      want[role] = outcome;
      if (outcome === 'permitted' && sendsOnlyRefusals(op)) {
        seen[role] = outcome;
        continue;
      }
      const tenant =
        op.security === 'bearer' ? { ...a, token: tokens.get(role)! } : { ...a, cookie: cookies.get(role)! };
      const res = await send(op, tenant, worthless(op));
      const refusedByRole = res.status === 403 && [NOT_PERMITTED, ADMIN_ONLY].includes(res.json?.error);
      seen[role] = refusedByRole ? 'refused' : res.status === 403 ? `403 ${res.json?.error}` : 'permitted';
      if (refusedByRole) expect(op.statuses, `${op.name}: 403 documented`).toContain('403');
    }
    expect(seen).toEqual(want);
    expect(await tenantDigest([a.companyId]), `${op.name} changed data`).toBe(before);
  });
});

describe('the permission matrix of every MCP tool', () => {
  it('refuses each agent role exactly the tools its role does not permit, before the input is read', async () => {
    const seen: Record<string, Record<string, string>> = {};
    const want: Record<string, Record<string, string>> = {};
    const before = await tenantDigest([a.companyId]);
    for (const role of AGENT_ROLES) {
      const token = (await tokensFor({ session: cookies.get(role)! })).access_token;
      const { sessionId } = await openSession(token);
      for (const tool of PIM_TOOLS) {
        const permitted = isPermitted(acting(role, 'mcp'), toolPermission(tool));
        (want[tool.name] ??= {})[role] = permitted ? 'permitted' : 'refused';
        const { response } = await sessionCall(token, sessionId, 'tools/call', { name: tool.name, arguments: {} });
        const text: string = response?.result?.content?.[0]?.text ?? '';
        const refused = response?.result?.isError === true && JSON.parse(text).error === NOT_PERMITTED;
        (seen[tool.name] ??= {})[role] = refused ? 'refused' : 'permitted';
      }
    }
    expect(seen).toEqual(want);
    expect(await tenantDigest([a.companyId])).toBe(before);
  }, 120_000);
});

describe('a translator writes texts in their languages and nothing else', () => {
  it('sets a French name, and is refused German, a price and a product write, on the web and as an agent', async () => {
    const translator = await makeUser(
      { companyId: a.companyId, departmentId: a.ids.departmentId! },
      {
        role: 'translator',
      },
    );
    const adminCookie = a.adminCookie;
    const op = (name: string) => OPERATIONS.find((o) => o.name === name)!;
    const set = await send(
      op('Account/SetMemberRole'),
      { ...a, cookie: adminCookie },
      {
        body: { userId: translator.userId, role: 'translator', languages: ['fra'] },
      },
    );
    expect(set.status, JSON.stringify(set.json)).toBe(200);
    expect(set.json).toEqual({
      userId: translator.userId,
      role: 'translator',
      languages: ['fra'],
      catalogIds: [],
      categoryIds: [],
      channelIds: [],
      changed: true,
    });
    const cookie = await loginAs(translator.email);
    const as = { ...a, cookie };
    const value = (language: string | undefined, field = 'name') => ({
      body: {
        departmentId: a.ids.departmentId,
        elementId: a.ids.productId,
        field,
        value: 'Câble',
        ...(language ? { language } : {}),
      },
    });
    const french = await send(op('Catalog/SetValue'), as, value('fra'));
    expect(french.status, JSON.stringify(french.json)).toBe(200);
    expect(french.json).toMatchObject({ elementId: a.ids.productId, field: 'name', value: 'Câble', language: 'fra' });

    const before = await tenantDigest([a.companyId]);
    for (const [label, request] of [
      ['German (the catalog default)', value('deu')],
      ['no language', value(undefined)],
      ['a price in French', value('fra', 'price')],
    ] as const) {
      const res = await send(op('Catalog/SetValue'), as, request);
      expect({ label, status: res.status, error: res.json.error }).toEqual({
        label,
        status: 403,
        error: NOT_PERMITTED,
      });
    }
    const update = await send(op('Catalog/UpdateProduct'), as, { body: { productId: a.ids.productId } });
    expect([update.status, update.json.error]).toEqual([403, NOT_PERMITTED]);
    // an import: only a texts-only one passes the guard (then validated: 400), any other mode is 403 first
    const importIn = (mode?: string) => send(op('Import/StartImport'), as, { body: mode ? { mode } : {} });
    for (const mode of [undefined, 'upsert', 'createOnly'])
      expect([mode, (await importIn(mode)).status]).toEqual([mode, 403]);
    expect((await importIn('texts')).status).toBe(400);
    expect(op('Import/StartImport').refusals).toContain('texts-only import');
    expect(await tenantDigest([a.companyId])).toBe(before);

    const token = (await tokensFor({ session: cookie })).access_token;
    const agent = { ...a, token: { session: '', value: token, issuedAt: Date.now() } };
    const agentGerman = await send(op('ai/SetValue'), agent, value('deu'));
    expect([agentGerman.status, agentGerman.json.error]).toEqual([403, NOT_PERMITTED]);
    const agentFrench = await send(op('ai/SetValue'), agent, value('fra', 'description'));
    expect(agentFrench.status, JSON.stringify(agentFrench.json)).toBe(200);
  }, 60_000);

  it('is recorded: the role change with before and after, and a second identical change records nothing', async () => {
    const member = await makeUser({ companyId: a.companyId, departmentId: a.ids.departmentId! });
    const op = (name: string) => OPERATIONS.find((o) => o.name === name)!;
    const as = { ...a, cookie: a.adminCookie };
    const body = { userId: member.userId, role: 'reviewer' };
    expect((await send(op('Account/SetMemberRole'), as, { body })).json.changed).toBe(true);
    expect((await send(op('Account/SetMemberRole'), as, { body })).json.changed).toBe(false);
    const log = await send(op('Account/GetMemberChanges'), as, { query: { userId: member.userId } });
    expect(log.status).toBe(200);
    expect(log.json.items).toHaveLength(1);
    expect(log.json.items[0]).toMatchObject({
      surface: 'web',
      changes: [
        { path: 'role', before: 'editor', after: 'reviewer' },
        { path: 'languages', before: [], after: [] },
        { path: 'catalogIds', before: [], after: [] },
        { path: 'categoryIds', before: [], after: [] },
        { path: 'channelIds', before: [], after: [] },
      ],
    });
    // The reviewer decides now, which an agent of theirs never does.
    const reviewerCookie = await loginAs(member.email);
    const approve = await send(
      op('Catalog/ApproveProducts'),
      { ...a, cookie: reviewerCookie },
      {
        body: { unknownField: true },
      },
    );
    expect(approve.status).toBe(400);
    const token = (await tokensFor({ session: reviewerCookie })).access_token;
    const agentApprove = await send(
      op('ai/ApproveProducts'),
      { ...a, token: { session: '', value: token, issuedAt: Date.now() } },
      {
        body: { channelId: a.ids.channelId, productIds: [a.ids.productId] },
      },
    );
    expect([agentApprove.status, agentApprove.json.error]).toEqual([403, AGENTS_NEVER_APPROVE]);
  }, 60_000);

  it('refuses bad role changes with nothing changed', async () => {
    const member = await makeUser({ companyId: a.companyId, departmentId: a.ids.departmentId! });
    const op = OPERATIONS.find((o) => o.name === 'Account/SetMemberRole')!;
    const before = await tenantDigest([a.companyId]);
    const cases = [
      [a.adminCookie, { userId: member.userId, role: 'editor', languages: ['fra'] }, 400, 'languages'],
      [a.adminCookie, { userId: member.userId, role: 'translator', languages: ['jpn'] }, 400, 'languages[0]'],
      [a.adminCookie, { userId: member.userId, role: 'owner' }, 400, 'role'],
      [a.editorCookie, { userId: member.userId, role: 'admin' }, 403, ADMIN_ONLY],
      // scopes (docs/teams.md): not for an admin, and only ids of the company (scopes.test.ts has the rest)
      [a.adminCookie, { userId: member.userId, role: 'admin', channelIds: [a.ids.channelId] }, 400, 'channelIds'],
      [a.adminCookie, { userId: member.userId, role: 'editor', catalogIds: [member.userId] }, 404, 'catalogIds[0]'],
    ] as const;
    for (const [cookie, body, status, message] of cases) {
      const res = await send(op, { ...a, cookie }, { body });
      expect({ status: res.status, body }).toEqual({ status, body });
      expect(res.json.error).toContain(message);
    }
    expect(await tenantDigest([a.companyId])).toBe(before);
  });
});
