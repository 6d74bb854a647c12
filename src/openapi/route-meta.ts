import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';

/** What the OpenAPI generator knows about one handler in a route's chain. */
export type RouteMeta = { kind: 'input'; target: 'json' | 'query'; schema: z.ZodType } | { kind: 'doc'; doc: RouteDoc };

export interface RouteDoc {
  summary: string;
  description?: string;
  tag: string;
  /** Schema of the 200 body; omitted for non-JSON responses such as downloads. */
  response?: z.ZodType;
  /** Content type of a non-JSON success body. */
  responseContentType?: string;
  security: 'cookie' | 'bearer' | 'none';
}

const metaByHandler = new WeakMap<Function, RouteMeta>();

export function recordInput(handler: Function, target: 'json' | 'query', schema: z.ZodType): void {
  metaByHandler.set(handler, { kind: 'input', target, schema });
}

export function routeMeta(handler: Function): RouteMeta | undefined {
  return metaByHandler.get(handler);
}

/**
 * A pass-through middleware that documents the route it stands in. The OpenAPI generator walks
 * the app's routes and reads these, so paths are never written twice.
 */
export function describeRoute(doc: RouteDoc): MiddlewareHandler {
  const handler: MiddlewareHandler = async (_c, next) => {
    await next();
  };
  metaByHandler.set(handler, { kind: 'doc', doc });
  return handler;
}
