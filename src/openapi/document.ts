import type { Hono } from 'hono';
import { z } from 'zod';
import { routeMeta, type RouteDoc } from './route-meta';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/**
 * Builds the OpenAPI 3.1 document by walking the app's routes and reading the metadata that
 * `describeRoute` and `validate` attached: the same zod schemas that validate requests.
 */
export function buildOpenApi(app: Hono<any>, serverUrl: string): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const chains = new Map<string, { method: string; path: string; handlers: Function[] }>();
  for (const route of app.routes) {
    if (route.method === 'ALL') continue;
    const key = `${route.method} ${route.path}`;
    const chain = chains.get(key) ?? { method: route.method.toLowerCase(), path: route.path, handlers: [] };
    chain.handlers.push(route.handler);
    chains.set(key, chain);
  }
  for (const { method, path, handlers } of chains.values()) {
    const metas = handlers.map((h) => routeMeta(h)).filter((m) => m !== undefined);
    const doc = metas.find((m) => m.kind === 'doc')?.doc as RouteDoc | undefined;
    if (!doc) continue;
    const operation: JsonSchema = {
      tags: [doc.tag],
      summary: doc.summary,
      operationId: path.split('/').filter(Boolean).slice(1).join('_') || path,
      responses: {
        '200': doc.response
          ? { description: 'Success', content: { 'application/json': { schema: toSchema(doc.response, 'output') } } }
          : { description: 'Success', content: { [doc.responseContentType ?? 'application/octet-stream']: {} } },
        '400': errorResponse('Malformed JSON, schema violation or unparseable value; the message names the field'),
        ...(doc.security !== 'none' || path.endsWith('/Login')
          ? { '401': errorResponse('Missing, expired or invalid credentials (Login: wrong email or password)') }
          : {}),
        '403': errorResponse('Not permitted (department of another company, missing scope or switch)'),
        '404': errorResponse('Unknown id, or an id of another company'),
        ...(method === 'post'
          ? {
              '409': errorResponse('Conflict with the stored state (duplicate SKU or code, job already finished)'),
              '413': errorResponse('Request body too large'),
              '415': errorResponse('Body of a type the operation does not take'),
            }
          : {}),
        '429': errorResponse('Rate limit exceeded'),
      },
    };
    if (doc.description) operation.description = doc.description;
    if (doc.security === 'cookie') operation.security = [{ sessionCookie: [] }];
    if (doc.security === 'bearer') operation.security = [{ oauth2: ['api'] }];
    if (doc.security === 'none') operation.security = [];
    for (const meta of metas) {
      if (meta.kind !== 'input') continue;
      const schema = toSchema(meta.schema, 'input');
      if (meta.target === 'json') {
        operation.requestBody = { required: true, content: { 'application/json': { schema } } };
      } else {
        const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
        const required = new Set((schema.required as string[] | undefined) ?? []);
        operation.parameters = Object.entries(properties).map(([name, s]) => ({
          name,
          in: 'query',
          required: required.has(name),
          schema: s,
        }));
      }
    }
    paths[path] ??= {};
    paths[path][method] = operation;
  }
  // {auth_url} is the Worker's root, not the /api base.
  const authOrigin = new URL(serverUrl).origin;
  return {
    openapi: '3.1.0',
    info: {
      title: 'PIM Service REST API',
      version: '1.0.0',
      description:
        'Product information management for technical distributors. Routing: {base_url}/{Controller}/{Action}.',
    },
    servers: [{ url: serverUrl }],
    tags: ['Account', 'Catalog', 'Classification', 'Export', 'Import', 'Job'].map((name) => ({ name })),
    paths,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: { error: { type: 'string' }, code: { type: 'string' }, requestId: { type: 'string' } },
        },
      },
      securitySchemes: {
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'Service.Cookie' },
        oauth2: {
          type: 'oauth2',
          flows: {
            authorizationCode: {
              authorizationUrl: `${authOrigin}/connect/authorize`,
              tokenUrl: `${authOrigin}/connect/token`,
              refreshUrl: `${authOrigin}/connect/token`,
              scopes: { api: 'Agent REST surface under /api/ai', mcp: 'MCP server', offline_access: 'Refresh tokens' },
            },
          },
        },
      },
    },
  };
}
