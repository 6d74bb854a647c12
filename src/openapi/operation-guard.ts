import type { Context, MiddlewareHandler } from 'hono';
import { assertAdmin } from '../accounts/admin-only';
import { assertOperator } from '../accounts/operator-only';
import {
  assertChannelInScope,
  assertNamedInScope,
  namedTargets,
  perRecordTargets,
  type ScopeMode,
  scopeModeOf,
} from '../db/product-scope';
import { assertDepartment } from '../db/scope';
import { assertMayEditClassifications } from '../classification/ai-switch';
import type { AppEnv } from '../env';
import { requiredPermission, type OperationTraits } from './operation-traits';
import type { Caller } from '../kernel/caller';
import { assertImportMode, assertMayUploadImport, assertPermitted, assertProductWrite } from '../kernel/permissions';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The request's JSON body as an object, read before validation (Hono caches the parsed body, so
 * the validator does not read it twice); undefined when there is none or it is not an object.
 * The body of an upload is the file, whatever its Content-Type says (an xChange file sent as
 * application/json): it is never read here, or the route would find the stream locked.
 */
async function jsonBodyOf(c: Context<AppEnv>, rawBody: boolean): Promise<Record<string, unknown> | undefined> {
  const type = (c.req.header('Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (rawBody || c.req.method === 'GET' || type !== 'application/json') return undefined;
  try {
    const body: unknown = await c.req.json();
    return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A field the request names, from the query or else the JSON body; anything malformed is left for the validator. */
function requestField(c: Context<AppEnv>, body: Record<string, unknown> | undefined, name: string): unknown {
  const fromQuery = c.req.query(name);
  return fromQuery !== undefined ? fromQuery : body?.[name];
}

/** The `departmentId` the request names, when it is a well-formed id. */
function departmentOf(c: Context<AppEnv>, body: Record<string, unknown> | undefined): string | undefined {
  const id = requestField(c, body, 'departmentId');
  return typeof id === 'string' && UUID.test(id) ? id : undefined;
}

/**
 * "Authorization before validation" (STYLE.md): a caller who may not make a request is refused
 * with 403 whatever its body says; only a permitted caller learns what is wrong with the body.
 * `describeOperation` puts this in front of the operation's validator, driven by the same traits
 * that document its 403 (error-responses.ts), so the document and the check cannot disagree.
 *
 * - `adminOnly`: the caller must be a company admin.
 * - `adminOnlyFields`: a caller who sends one of these body fields (not null) must be a company admin.
 * - `permission` (declared or derived, `requiredPermission`): the caller's role must permit it
 *   (kernel/permissions.ts); for `text.write`, in the language the request names; with
 *   `textsOnlyWith`, a role without `product.write` may send `translations` in its languages only;
 *   with `textsImport`, one with `text.write` may start a texts-only import (`mode: "texts"`);
 *   with `textsUpload`, one with `text.write` may upload the import file for it.
 * - `operatorOnly`: the caller must be the service operator (accounts/operator-only.ts).
 * - `aiSwitch`: an agent caller needs the switch "AI may edit classifications".
 * - a `departmentId` in the query or body must name a department of the caller's company.
 * - a member with a product scope (docs/teams.md): a product the request names outside it is 404
 *   to a read and 403 to a write, and a write may name only categories and catalogs in scope;
 *   a member with a channel scope may name only those channels in a write (db/product-scope.ts).
 *
 * Each check is the domain's own function; the domain functions check again for callers that do
 * not come through a route (MCP tools, jobs), with the same message.
 */
export function operationGuard(traits: OperationTraits): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (traits.security !== 'none' && !traits.credentialOptional) {
      const body = await jsonBodyOf(c, traits.upload !== undefined);
      const caller = authenticated(c);
      const permission = requiredPermission(traits, c.req.method);
      const adminField = traits.adminOnlyFields?.some((field) => body?.[field] != null) ?? false;
      if (traits.operatorOnly) assertOperator(caller);
      if (traits.adminOnly || adminField) assertAdmin(caller);
      if (permission === 'text.write')
        assertPermitted(caller, permission, { language: requestField(c, body, 'language') });
      else if (permission === 'product.write' && traits.textsOnlyWith)
        assertProductWrite(caller, body, traits.textsOnlyWith);
      else if (permission === 'product.write' && traits.textsImport)
        assertImportMode(caller, requestField(c, body, 'mode'));
      else if (permission === 'product.write' && traits.textsUpload) assertMayUploadImport(caller);
      else if (permission && !traits.adminOnly) assertPermitted(caller, permission);
      if (traits.aiSwitch) assertMayEditClassifications(caller);
      const departmentId = departmentOf(c, body);
      if (departmentId) await assertDepartment(c.var.db, caller, departmentId);
      if (!traits.adminOnly)
        await assertRequestInScope(c, body, caller, scopeModeOf(permission), traits.scopePerRecord ?? false);
    }
    await next();
  };
}

/** The scope checks of a member's request (db/product-scope.ts), on what the query or JSON body names. */
async function assertRequestInScope(
  c: Context<AppEnv>,
  body: Record<string, unknown> | undefined,
  caller: Caller,
  mode: ScopeMode,
  perRecord: boolean,
): Promise<void> {
  const field = (name: string) => requestField(c, body, name);
  const named = namedTargets(field);
  await assertNamedInScope(c.var.db, caller, perRecord ? perRecordTargets(caller, named) : named, mode);
  const channelId = field('channelId');
  if (mode !== 'read' && typeof channelId === 'string') assertChannelInScope(caller, channelId);
}

function authenticated(c: Context<AppEnv>): Caller {
  const caller = c.get('caller') as Caller | undefined;
  // A route that declares a permission must authenticate before it is described (account.routes.ts).
  if (!caller) throw new Error(`${c.req.path}: the operation guard ran before authentication`);
  return caller;
}
