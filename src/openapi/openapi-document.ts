import type { Hono } from 'hono';
import type { AppEnv } from '../env';
import { generateSpecs } from 'hono-openapi';
import { declareErrorResponses } from './error-responses';

type Document = Awaited<ReturnType<typeof generateSpecs>>;

const TAGS = ['Account', 'Catalog', 'Changes', 'Classification', 'Export', 'Import', 'Job', 'Sync', 'Webhooks'];

/**
 * The server-independent part of the document: hono-openapi walks the app's routes and reads
 * `describeOperation` and the `validate` middleware's zod schemas; then each operation's error
 * responses are derived from what it is (`error-responses.ts`). Built once per app.
 */
async function generate(app: Hono<AppEnv>): Promise<Document> {
  const doc = await generateSpecs(app, {
    documentation: {
      openapi: '3.1.0',
      info: {
        title: 'PIM Service REST API',
        version: '1.0.0',
        description:
          'Product information management for technical distributors. Routing: {base_url}/{Controller}/{Action}.',
      },
      tags: TAGS.map((name) => ({ name })),
      components: {
        schemas: {
          Error: {
            type: 'object',
            required: ['error'],
            properties: { error: { type: 'string' }, code: { type: 'string' }, requestId: { type: 'string' } },
          },
        },
      },
    },
    // Our 400 is the shared {"error"} body, declared with the other statuses.
    defaultValidationErrorResponse: false,
  });
  declareErrorResponses(doc as never);
  return doc;
}

const documents = new WeakMap<Hono<AppEnv>, Promise<Document>>();

/**
 * The OpenAPI 3.1 document of `/api/openapi.json` and `/api/docs`, for the server it is served
 * from ({base_url} = `serverUrl`; the OAuth endpoints, {auth_url}, are at its origin's root).
 */
export async function openApiDocument(app: Hono<AppEnv>, serverUrl: string) {
  let generated = documents.get(app);
  if (!generated) {
    generated = generate(app);
    documents.set(app, generated);
    // A failed generation is retried on the next request rather than cached.
    generated.catch(() => documents.delete(app));
  }
  const doc = await generated;
  const authOrigin = new URL(serverUrl).origin;
  return {
    ...doc,
    servers: [{ url: serverUrl }],
    components: {
      ...doc.components,
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
