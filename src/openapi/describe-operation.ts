import type { RouterRoute } from 'hono/types';
import { type DescribeRouteOptions, describeRoute, resolver, uniqueSymbol } from 'hono-openapi';
import type { z } from 'zod';
import { operationGuard } from './operation-guard';
import type { OperationTraits } from './operation-traits';

export type Tag =
  | 'Account'
  | 'Catalog'
  | 'Changes'
  | 'Classification'
  | 'Export'
  | 'Import'
  | 'Job'
  | 'Sync'
  | 'Webhooks';

export interface OperationDoc extends OperationTraits {
  tag: Tag;
  summary: string;
  description?: string;
  /** Schema of the 200 body; omitted for non-JSON responses such as downloads. */
  response?: z.ZodType;
  /** Content type of a non-JSON success body. */
  responseContentType?: string;
}

/** The OpenAPI extension that carries the traits to `declareErrorResponses`, which removes it. */
export const TRAITS_KEY = 'x-pim-traits';

/** `Catalog/AddProduct` for `/api/Catalog/AddProduct`: stable, readable operation ids. */
const operationId = (route: RouterRoute) => route.path.split('/').filter(Boolean).slice(1).join('_');

const rawContent = (types: string | readonly string[]) =>
  Object.fromEntries([types].flat().map((type) => [type, { schema: { type: 'string', format: 'binary' } as const }]));

const SECURITY = { cookie: [{ sessionCookie: [] }], bearer: [{ oauth2: ['api'] }], none: [] } as const;

/**
 * Documents the route it stands in (hono-openapi's `describeRoute`): tag, summary, success body
 * and security. hono-openapi reads it, with the `validate` middleware's schema, when it walks
 * the app, so paths and request schemas are never written twice.
 *
 * It also enforces the permissions the traits declare (`operationGuard`): placed before the
 * `validate` middleware and after authentication, it refuses a caller who may not call the
 * operation before the body is looked at, with the very 403 the document lists.
 */
export function describeOperation(doc: OperationDoc) {
  const { tag, summary, description, response, responseContentType, ...traits } = doc;
  const security = [...SECURITY[traits.security], ...(traits.credentialOptional ? [{}] : [])];
  const spec: DescribeRouteOptions & { [TRAITS_KEY]: OperationTraits } = {
    tags: [tag],
    summary,
    ...(description ? { description } : {}),
    operationId,
    security,
    ...(traits.upload ? { requestBody: { required: true, content: rawContent(traits.upload) } } : {}),
    responses: {
      200: response
        ? {
            description: 'Success',
            content: { 'application/json': { schema: resolver(response, { options: { io: 'output' } }) } },
          }
        : { description: 'Success', content: { [responseContentType ?? 'application/octet-stream']: {} } },
    },
    [TRAITS_KEY]: traits,
  };
  // hono-openapi finds an operation's description under its symbol on any middleware of the route.
  const described = describeRoute(spec) as ReturnType<typeof describeRoute> & { [uniqueSymbol]: unknown };
  return Object.assign(operationGuard(traits), { [uniqueSymbol]: described[uniqueSymbol] });
}
