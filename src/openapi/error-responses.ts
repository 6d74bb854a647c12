import { RAW_BODY_PATHS } from '../http/middleware';
import { TRAITS_KEY } from './describe-operation';
import { requiredPermission, type OperationTraits } from './operation-traits';
import { ROLE_PERMISSIONS, ROLES } from '../kernel/permissions';
import { SCOPE_FIELDS } from '../db/product-scope';

type Schema = Record<string, any>;

/** What the rules below look at: read from the generated operation, never written by hand. */
interface OperationShape extends OperationTraits {
  method: string;
  path: string;
  /** Names of the top-level request fields (JSON body properties and query parameters). */
  fields: string[];
}

const WRITE_METHODS = ['post', 'put', 'patch'];

/**
 * The one home of the rule "which failures can this operation answer" (docs/reliability.md).
 * Each status follows from what answers it: the middleware in front of every operation
 * (`app.ts`), the validator, the domain functions' id and department checks, and the traits
 * the route declares. The contract suite and the bad-input sweep check that every status they
 * observe is declared here for that operation.
 */
export function errorStatuses(op: OperationShape): Record<string, string> {
  const out: Record<string, string> = {};
  const jsonWrite = WRITE_METHODS.includes(op.method) && !RAW_BODY_PATHS.includes(op.path);
  const ids = op.fields.filter((f) => (/Ids?$/.test(f) && f !== 'departmentId') || op.references?.includes(f));
  if (op.fields.length > 0 || jsonWrite || op.upload) {
    out['400'] = jsonWrite
      ? 'Malformed JSON, a schema violation or an unusable value; the message names the field'
      : 'A schema violation or an unusable value; the message names the field';
  }
  if (op.signIn) out['401'] = 'Wrong email or password';
  else if (op.security !== 'none' && !op.credentialOptional) {
    out['401'] =
      op.security === 'bearer' ? 'Missing, expired or revoked access token' : 'Not logged in, or the session expired';
  }
  const forbidden = [
    WRITE_METHODS.includes(op.method) && (op.security === 'cookie' || op.signIn) && 'a foreign Origin (CSRF)',
    op.fields.includes('departmentId') && 'a department of another company',
    op.security === 'bearer' && 'a token without the scope, or an account not permitted on the agent surface',
    op.aiSwitch && 'the account switch "AI may edit classifications" off',
    op.adminOnly && 'a caller who is not a company admin',
    op.adminOnlyFields?.length && `${op.adminOnlyFields.join(', ')} sent by a caller who is no company admin`,
    !op.adminOnly && permissionRefusal(op),
    !op.adminOnly && scopeRefusal(op),
    op.operatorOnly && 'a caller who is not the service operator (company admins and agents included)',
  ].filter(Boolean);
  if (forbidden.length) out['403'] = `Refused: ${forbidden.join('; ')}`;
  if (ids.length) {
    // a read naming a product outside the member's product scope is answered as an unknown id (docs/teams.md)
    const hidden = op.method === 'get' && ids.some((f) => PRODUCT_FIELDS.includes(f));
    out['404'] =
      `Unknown ${ids.join(', ')}, or one of another company` +
      (hidden ? "; a product outside the caller's catalog or category scope reads as unknown" : '');
  }
  if (op.conflict) out['409'] = op.conflict;
  if (jsonWrite || op.upload) out['413'] = op.upload ? 'The file exceeds its limit' : 'Request body too large';
  if (jsonWrite) out['415'] = 'The body is not application/json';
  if (op.rateLimited) out['429'] = op.rateLimited;
  return out;
}

/**
 * The documented refusal by role (kernel/permissions.ts), e.g. `a role without the permission
 * "publish"`; none for a permission every role has (`read`). The permission matrix test reads
 * the permission from this text.
 */
function permissionRefusal(op: OperationShape): string | false {
  const permission = requiredPermission(op, op.method);
  if (!permission || ROLES.every((role) => ROLE_PERMISSIONS[role].includes(permission))) return false;
  const scoped =
    permission === 'text.write'
      ? ' (in the language the request names, docs/teams.md)'
      : permission === 'product.write' && op.textsOnlyWith
        ? ' (one with "text.write" may send only `translations` in its languages, docs/teams.md)'
        : permission === 'product.write' && op.textsImport
          ? ' (one with "text.write" may start only a texts-only import, `mode: "texts"`, docs/teams.md)'
          : permission === 'product.write' && op.textsUpload
            ? ' (one with "text.write" may upload a file for a texts-only import too, docs/teams.md)'
            : '';
  return `a role without the permission "${permission}"${scoped}`;
}

const PRODUCT_FIELDS: readonly string[] = [...SCOPE_FIELDS.products, ...SCOPE_FIELDS.elements];
const SCOPED_FIELDS: readonly string[] = Object.values(SCOPE_FIELDS).flat();

/**
 * The documented refusal by scope (db/product-scope.ts, docs/teams.md): a write naming a
 * product, element, category or catalog outside the member's catalog or category scope, before
 * validation; a publication (export, sync) outside their product or channel scope.
 */
function scopeRefusal(op: OperationShape): string | false {
  const permission = requiredPermission(op, op.method);
  if (!permission || permission === 'read' || permission === 'company.admin') return false;
  if (permission === 'publish')
    return 'a member whose catalog, category or channel scope does not cover what the request publishes (docs/teams.md)';
  if (!op.fields.some((f) => SCOPED_FIELDS.includes(f))) return false;
  return 'a member whose catalog or category scope does not include a product, category or catalog the request names (docs/teams.md)';
}

/** Top-level property names of a schema, through unions, intersections and $refs. */
function fieldsOf(schema: Schema | undefined, components: Record<string, Schema>, seen = new Set<string>()): string[] {
  if (!schema) return [];
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    if (seen.has(name)) return [];
    seen.add(name);
    return fieldsOf(components[name], components, seen);
  }
  const nested = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  return [...Object.keys(schema.properties ?? {}), ...nested.flatMap((s: Schema) => fieldsOf(s, components, seen))];
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/**
 * Adds each operation's error responses (`errorStatuses`) to the document hono-openapi
 * generated, and drops the traits extension that carried the route's declared properties.
 */
export function declareErrorResponses(doc: { paths: Record<string, Schema>; components?: Schema }): void {
  const components: Record<string, Schema> = doc.components?.schemas ?? {};
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries<Schema>(item)) {
      const traits: OperationTraits | undefined = operation[TRAITS_KEY];
      if (!traits) continue;
      delete operation[TRAITS_KEY];
      const body = operation.requestBody?.content?.['application/json']?.schema;
      const query = (operation.parameters ?? []).map((p: Schema) => p.name as string);
      const fields = [...new Set([...fieldsOf(body, components), ...query])];
      const statuses = errorStatuses({ ...traits, method, path, fields });
      for (const [status, description] of Object.entries(statuses)) {
        operation.responses[status] = errorResponse(description);
      }
    }
  }
}
