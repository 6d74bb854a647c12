import { zValidator } from '@hono/zod-validator';
import type { z } from 'zod';
import { badRequest } from './app-error';
import { recordInput } from '../openapi/route-meta';

/** Whether the input has a value at `path` (zod 4 issues do not carry the input). */
function isPresent(input: unknown, path: PropertyKey[]): boolean {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value !== undefined;
}

/** Formats zod issues as one sentence that names each offending field. */
export function describeIssues(error: { issues: z.core.$ZodIssue[] }, input?: unknown): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.join('.');
      if (issue.code === 'unrecognized_keys') {
        const keys = issue.keys.join(', ');
        return path ? `${path}: unknown field(s) ${keys}` : `unknown field(s) ${keys}`;
      }
      if (path && !isPresent(input, issue.path)) return `${path} is required`;
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/**
 * The one request validator: zValidator whose hook throws, so every validation failure is
 * rendered by the shared error handler. The schema is also recorded for the OpenAPI document.
 */
export function validate<Target extends 'json' | 'query', Schema extends z.ZodType>(target: Target, schema: Schema) {
  const middleware = zValidator(target, schema, (result) => {
    if (!result.success) throw badRequest(describeIssues(result.error, result.data));
  });
  recordInput(middleware, target, schema);
  return middleware;
}
