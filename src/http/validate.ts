import { validator } from 'hono-openapi';
import type { z } from 'zod';
import { badRequest } from '../kernel/app-error';

/** A Standard Schema issue; zod's carry their `code` (and `keys` for unknown fields). */
interface Issue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
  readonly code?: string;
  readonly keys?: readonly string[];
}

const keyOf = (segment: PropertyKey | { readonly key: PropertyKey }): PropertyKey =>
  typeof segment === 'object' ? segment.key : segment;

/** Whether the input has a value at `path` (zod 4 issues do not carry the input). */
function isPresent(input: unknown, path: PropertyKey[]): boolean {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return false;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value !== undefined;
}

/** Formats validation issues as one sentence that names each offending field (REST and MCP tools alike). */
export function describeIssues(issues: readonly Issue[], input?: unknown): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const keys = (issue.path ?? []).map(keyOf);
      const path = keys.map(String).join('.');
      if (issue.code === 'unrecognized_keys') {
        const names = (issue.keys ?? []).join(', ');
        return path ? `${path}: unknown field(s) ${names}` : `unknown field(s) ${names}`;
      }
      if (path && !isPresent(input, keys)) return `${path} is required`;
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/**
 * The one request validator: hono-openapi's `validator` (Standard Schema, so zod's own issues)
 * whose hook throws, so every validation failure is rendered by the shared error handler. The
 * same schema is what hono-openapi documents as the operation's request body or query.
 */
export function validate<Target extends 'json' | 'query', Schema extends z.ZodType>(target: Target, schema: Schema) {
  return validator(target, schema, (result) => {
    if (!result.success) throw badRequest(describeIssues(result.error, result.data));
  });
}
