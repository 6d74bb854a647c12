import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { z } from 'zod';
import type { AppEnv } from '../env';
import { MAX_BODY_BYTES } from '../http/middleware';
import { clientIp } from '../http/rate-limit';
import { revokeUserGrants } from '../oauth/revoke-grants';
import {
  applyScimRole,
  companyOfScimToken,
  createGroup,
  createUser,
  deleteGroup,
  deleteUser,
  getGroup,
  getUser,
  listGroups,
  listUsers,
  MAX_COUNT,
  updateGroup,
  updateUser,
} from './scim/scim';
import { ScimError } from './scim/scim-error';

type ScimEnv = AppEnv & { Variables: AppEnv['Variables'] & { scimCompanyId: string } };

const SCIM_JSON = 'application/scim+json';
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'control characters are not allowed');
/** SCIM booleans; some identity providers send "True"/"False". */
const scimBoolean = z.union([
  z.boolean(),
  z.enum(['true', 'false', 'True', 'False']).transform((v) => v.toLowerCase() === 'true'),
]);

const UserBody = z.looseObject({
  userName: text(254).refine((v) => /^[^\s@]+@[^\s@]+$/.test(v.trim()), 'userName must be an e-mail address'),
  displayName: text(200).optional(),
  name: z
    .looseObject({ formatted: text(200).optional(), givenName: text(100).optional(), familyName: text(100).optional() })
    .optional(),
  externalId: text(255).nullable().optional(),
  active: scimBoolean.optional(),
});

const MemberRefs = z.array(z.looseObject({ value: z.string().max(100) })).max(1000);
const GroupBody = z.looseObject({
  displayName: text(255).refine((v) => v.trim().length > 0, 'displayName must not be empty'),
  externalId: text(255).nullable().optional(),
  members: MemberRefs.optional(),
});

const PatchBody = z.looseObject({
  Operations: z
    .array(
      z.looseObject({
        op: z
          .string()
          .transform((v) => v.toLowerCase())
          .pipe(z.enum(['add', 'replace', 'remove'])),
        path: z.string().max(300).optional(),
        value: z.unknown().optional(),
      }),
    )
    .min(1)
    .max(100),
});

function parse<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.path.map(String).join('.');
    throw ScimError.invalidValue(path ? `${path}: ${issue.message}` : issue.message);
  }
  return result.data;
}

async function jsonBody(c: Context<ScimEnv>): Promise<unknown> {
  const type = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== SCIM_JSON && type !== 'application/json') {
    throw new ScimError(415, 'Content-Type must be application/scim+json or application/json');
  }
  try {
    return JSON.parse(await c.req.text());
  } catch {
    throw ScimError.invalidSyntax('the body is not valid JSON');
  }
}

/** `attr eq "value"`, the filter identity providers send (RFC 7644 3.4.2.2); nothing else. */
function parseFilter(filter: string | undefined, attributes: readonly string[]): Record<string, string> {
  if (filter === undefined) return {};
  const match = /^\s*([A-Za-z.]+)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(filter);
  const attribute = attributes.find((a) => a.toLowerCase() === match?.[1]?.toLowerCase());
  if (!match || !attribute) {
    throw ScimError.invalidFilter(`only ${attributes.map((a) => `${a} eq "..."`).join(' or ')} filters are supported`);
  }
  return { [attribute]: match[2]!.replace(/\\(.)/g, '$1') };
}

function paging(c: Context<ScimEnv>) {
  const number = (name: string, fallback: number) => {
    const raw = c.req.query(name);
    if (raw === undefined) return fallback;
    if (!/^\d{1,9}$/.test(raw)) throw ScimError.invalidValue(`${name} must be a non-negative integer`);
    return Number(raw);
  };
  return { startIndex: Math.max(1, number('startIndex', 1)), count: Math.min(MAX_COUNT, number('count', 100)) };
}

const requireScimToken: MiddlewareHandler<ScimEnv> = async (c, next) => {
  const header = c.req.header('Authorization') ?? '';
  const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
  const companyId = token ? await companyOfScimToken(c.var.dbSession.primary(), token) : null;
  if (!companyId) {
    console.warn(JSON.stringify({ event: 'scim_token_refused', ip: clientIp(c.req.raw) }));
    throw new ScimError(401, 'a valid SCIM bearer token is required');
  }
  c.set('scimCompanyId', companyId);
  await next();
};

const baseOf = (c: Context<ScimEnv>) => `${new URL(c.req.url).origin}/scim/v2`;
const db = (c: Context<ScimEnv>) => c.var.dbSession.primary();
const scimJson = (c: Context<ScimEnv>, body: unknown, status: 200 | 201 = 200) =>
  c.body(JSON.stringify(body), status, { 'Content-Type': SCIM_JSON });

/** Works the users' roles out again and revokes the OAuth grants of those who lost access. */
async function applyRoles(c: Context<ScimEnv>, userIds: string[]) {
  for (const userId of userIds) {
    const { revoked } = await applyScimRole(db(c), c.var.scimCompanyId, userId);
    if (revoked) await revokeQuietly(c, userId);
  }
}

async function revokeQuietly(c: Context<ScimEnv>, userId: string) {
  // The new security stamp already refuses every token; deleting the grants is cleanup.
  try {
    await revokeUserGrants(c.env, c.req.url, userId);
  } catch (err) {
    console.error(JSON.stringify({ event: 'grant_revocation_failed', userId, error: (err as Error).message }));
  }
}

const userInput = (body: z.infer<typeof UserBody>) => ({
  userName: body.userName,
  displayName:
    body.displayName ??
    body.name?.formatted ??
    ([body.name?.givenName, body.name?.familyName].filter(Boolean).join(' ') || undefined),
  externalId: body.externalId,
  active: body.active,
});

/** A User PATCH (RFC 7644 3.5.2) as the attributes it sets; paths other than these are refused. */
function userPatch(body: z.infer<typeof PatchBody>) {
  const out: Partial<Record<'userName' | 'displayName' | 'externalId' | 'active', unknown>> = {};
  const setAttribute = (path: string, value: unknown) => {
    const key = path.toLowerCase();
    if (key === 'active') out.active = parse(scimBoolean, value);
    else if (key === 'username') out.userName = value;
    else if (key === 'displayname' || key === 'name.formatted') out.displayName = value;
    else if (key === 'externalid') out.externalId = value;
    else if (key === 'name.givenname' || key === 'name.familyname' || key === 'emails' || key.startsWith('emails['))
      return; // the name parts and addresses follow displayName and userName
    else throw ScimError.invalidValue(`path "${path}" is not supported`);
  };
  for (const op of body.Operations) {
    if (op.op === 'remove') throw ScimError.mutability('remove is not supported on Users; set active to false');
    if (op.path) setAttribute(op.path, op.value);
    else if (op.value && typeof op.value === 'object' && !Array.isArray(op.value)) {
      for (const [key, value] of Object.entries(op.value)) {
        if (key === 'name' && value && typeof value === 'object') {
          const formatted = (value as { formatted?: unknown }).formatted;
          if (formatted !== undefined) out.displayName = formatted;
        } else setAttribute(key, value);
      }
    } else throw ScimError.invalidValue('an operation without path needs an object value');
  }
  return parse(UserBody.partial(), out);
}

const memberIds = (value: unknown) => parse(MemberRefs, value).map((m) => m.value);

/** A Group PATCH: members added, removed (also `members[value eq "id"]`) or replaced; displayName. */
function groupPatch(body: z.infer<typeof PatchBody>) {
  const change: {
    displayName?: string;
    externalId?: string | null;
    add: string[];
    remove: string[];
    replace?: string[];
  } = {
    add: [],
    remove: [],
  };
  for (const op of body.Operations) {
    const path = op.path?.trim();
    const filtered = path ? /^members\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i.exec(path) : null;
    if (filtered) {
      if (op.op !== 'remove') throw ScimError.invalidValue(`path "${path}" works with remove only`);
      change.remove.push(filtered[1]!);
    } else if (path?.toLowerCase() === 'members') {
      if (op.op === 'add') change.add.push(...memberIds(op.value));
      else if (op.op === 'remove') change.remove.push(...(op.value === undefined ? ['*'] : memberIds(op.value)));
      else change.replace = memberIds(op.value);
    } else if (path?.toLowerCase() === 'displayname' && op.op !== 'remove') {
      change.displayName = parse(GroupBody.shape.displayName, op.value);
    } else if (path?.toLowerCase() === 'externalid') {
      change.externalId = op.op === 'remove' ? null : parse(text(255), op.value);
    } else if (!path && op.op !== 'remove' && op.value && typeof op.value === 'object') {
      const value = parse(GroupBody.partial(), op.value);
      if (value.displayName !== undefined) change.displayName = value.displayName;
      if (value.externalId !== undefined) change.externalId = value.externalId;
      if (value.members) {
        if (op.op === 'add') change.add.push(...value.members.map((m) => m.value));
        else change.replace = value.members.map((m) => m.value);
      }
    } else throw ScimError.invalidValue(`path "${path ?? ''}" is not supported`);
  }
  return change;
}

/**
 * SCIM 2.0 for the company's identity provider (docs/sso.md): `/scim/v2/Users` and `/Groups`
 * with a per-company bearer token (Settings → Single sign-on). Not in the JSON API document:
 * SCIM has its own (`/scim/v2/ServiceProviderConfig`).
 */
export const scimRoutes = new Hono<ScimEnv>()
  .use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ScimError(413, `request body exceeds ${MAX_BODY_BYTES} bytes`);
      },
    }),
  )
  .get('/ServiceProviderConfig', (c) =>
    scimJson(c, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
      documentationUri: `${new URL(c.req.url).origin}/api/docs`,
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: MAX_COUNT },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [
        {
          type: 'oauthbearertoken',
          name: 'Bearer token',
          description: 'A SCIM token created by a company admin',
          primary: true,
        },
      ],
    }),
  )
  .use(requireScimToken)
  .get('/Users', async (c) => {
    const filter = parseFilter(c.req.query('filter'), ['userName', 'externalId']);
    return scimJson(c, await listUsers(db(c), c.var.scimCompanyId, { ...filter, ...paging(c) }, baseOf(c)));
  })
  .post('/Users', async (c) => {
    const input = userInput(parse(UserBody, await jsonBody(c)));
    const userId = await createUser(db(c), c.var.scimCompanyId, input);
    return scimJson(c, await getUser(db(c), c.var.scimCompanyId, userId, baseOf(c)), 201);
  })
  .get('/Users/:id', async (c) => scimJson(c, await getUser(db(c), c.var.scimCompanyId, c.req.param('id'), baseOf(c))))
  .put('/Users/:id', async (c) => {
    const input = userInput(parse(UserBody, await jsonBody(c)));
    // PUT replaces: an absent `active` means active (RFC 7643 default).
    const { revoked } = await updateUser(db(c), c.var.scimCompanyId, c.req.param('id'), {
      ...input,
      active: input.active ?? true,
    });
    if (revoked) await revokeQuietly(c, c.req.param('id'));
    return scimJson(c, await getUser(db(c), c.var.scimCompanyId, c.req.param('id'), baseOf(c)));
  })
  .patch('/Users/:id', async (c) => {
    const patch = userPatch(parse(PatchBody, await jsonBody(c)));
    const { revoked } = await updateUser(db(c), c.var.scimCompanyId, c.req.param('id'), {
      ...patch,
      ...(patch.displayName === undefined ? {} : { displayName: patch.displayName }),
    });
    if (revoked) await revokeQuietly(c, c.req.param('id'));
    return scimJson(c, await getUser(db(c), c.var.scimCompanyId, c.req.param('id'), baseOf(c)));
  })
  .delete('/Users/:id', async (c) => {
    await deleteUser(db(c), c.var.scimCompanyId, c.req.param('id'));
    await revokeQuietly(c, c.req.param('id'));
    return c.body(null, 204);
  })
  .get('/Groups', async (c) => {
    const filter = parseFilter(c.req.query('filter'), ['displayName', 'externalId']);
    const excludeMembers = (c.req.query('excludedAttributes') ?? '').toLowerCase().split(',').includes('members');
    return scimJson(
      c,
      await listGroups(db(c), c.var.scimCompanyId, { ...filter, ...paging(c), excludeMembers }, baseOf(c)),
    );
  })
  .post('/Groups', async (c) => {
    const body = parse(GroupBody, await jsonBody(c));
    const { groupId, affected } = await createGroup(db(c), c.var.scimCompanyId, {
      displayName: body.displayName.trim(),
      externalId: body.externalId,
      members: (body.members ?? []).map((m) => m.value),
    });
    await applyRoles(c, affected);
    return scimJson(c, await getGroup(db(c), c.var.scimCompanyId, groupId, baseOf(c)), 201);
  })
  .get('/Groups/:id', async (c) =>
    scimJson(c, await getGroup(db(c), c.var.scimCompanyId, c.req.param('id'), baseOf(c))),
  )
  .put('/Groups/:id', async (c) => {
    const body = parse(GroupBody, await jsonBody(c));
    const { affected } = await updateGroup(db(c), c.var.scimCompanyId, c.req.param('id'), {
      displayName: body.displayName.trim(),
      externalId: body.externalId ?? null,
      replace: (body.members ?? []).map((m) => m.value),
    });
    await applyRoles(c, affected);
    return scimJson(c, await getGroup(db(c), c.var.scimCompanyId, c.req.param('id'), baseOf(c)));
  })
  .patch('/Groups/:id', async (c) => {
    const change = groupPatch(parse(PatchBody, await jsonBody(c)));
    const current = await getGroup(db(c), c.var.scimCompanyId, c.req.param('id'), baseOf(c));
    // `remove members` without a value empties the group.
    if (change.remove.includes('*')) change.remove = current.members.map((m) => m.value);
    const { affected } = await updateGroup(db(c), c.var.scimCompanyId, c.req.param('id'), change);
    await applyRoles(c, affected);
    return scimJson(c, await getGroup(db(c), c.var.scimCompanyId, c.req.param('id'), baseOf(c)));
  })
  .delete('/Groups/:id', async (c) => {
    const { affected } = await deleteGroup(db(c), c.var.scimCompanyId, c.req.param('id'));
    await applyRoles(c, affected);
    return c.body(null, 204);
  })
  .notFound((c) =>
    c.body(JSON.stringify(new ScimError(404, 'no such SCIM endpoint').body()), 404, { 'Content-Type': SCIM_JSON }),
  )
  .onError((err, c) => {
    let error: ScimError;
    if (err instanceof ScimError) error = err;
    else if (err instanceof HTTPException && err.status < 500) error = new ScimError(err.status as 400, err.message);
    else {
      console.error(JSON.stringify({ event: 'scim_error', requestId: c.var.requestId, error: String(err) }));
      error = new ScimError(500, `internal error (request ${c.var.requestId})`);
    }
    return c.body(JSON.stringify(error.body()), error.status, { 'Content-Type': SCIM_JSON });
  });
