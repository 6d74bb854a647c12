import type { AuthInfo, CallToolResult, McpServer, ToolAnnotations } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { AppError, badRequest } from '../kernel/app-error';
import { describeIssues } from '../http/validate';
import { requestExtraFrom, type ToolContext } from './caller';
import {
  assertChannelInScope,
  assertNamedInScope,
  namedTargets,
  perRecordTargets,
  type ScopeMode,
  scopeModeOf,
} from '../db/product-scope';
import { BOOKMARK_HEADER } from '../db/session';
import type { Caller } from '../kernel/caller';
import { assertPermitted, assertProductWrite, type Permission } from '../kernel/permissions';

/**
 * One MCP tool of the PIM: a name, texts written for a model, zod input and output schemas and
 * a `run` that calls one domain function. The MCP server and the published manifest are both
 * generated from these definitions, so they cannot drift apart.
 */
export interface PimTool<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: Output;
  annotations: Required<Pick<ToolAnnotations, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint'>>;
  /**
   * What the caller's role must permit (kernel/permissions.ts), checked before the input is
   * validated like a route's guard; by default (`toolPermission`) `read` for a read-only tool,
   * else `product.write`. `text.write` is checked in the input's `language`.
   */
  permission?: Permission;
  /**
   * A product write that takes `translations`: a role without `product.write` may send these
   * identity fields and `translations` in its languages, nothing else (`assertProductWrite`).
   */
  textsOnlyWith?: readonly string[];
  /** The domain judges the product scope item by item (db/product-scope.ts `perRecordTargets`), as `OperationTraits.scopePerRecord`. */
  scopePerRecord?: true;
  /** A further check of the caller, before its input is validated (like a route's guard). */
  authorize?(caller: Caller): void;
  run(ctx: ToolContext, input: z.output<Input>): Promise<z.input<Output>>;
}

/** Keeps the input type of `run` tied to the input schema. */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  tool: PimTool<Input, Output>,
): PimTool {
  return tool as unknown as PimTool;
}

/** Annotation presets: every PIM tool works on the closed world of the caller's own company. */
export const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;
export const WRITE = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;
export const OVERWRITE = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/**
 * The one place a domain outcome becomes a tool result. Success carries the value both as
 * structured content and as JSON text (for clients that only read text). A service error
 * (`AppError`) becomes a tool error with the service's own message, so the model can correct
 * itself; anything else is logged and answered with a generic message that leaks no internals.
 * Never throws: a failing tool must not end the session.
 */
async function toToolResult(work: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    const value = (await work()) as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
  } catch (err) {
    if (err instanceof AppError) {
      return {
        isError: true,
        content: [{ type: 'text', text: JSON.stringify({ error: err.message, code: err.code }) }],
      };
    }
    const requestId = crypto.randomUUID();
    console.error(
      JSON.stringify({ requestId, where: 'mcp-tool', error: (err as Error)?.message, stack: (err as Error)?.stack }),
    );
    return {
      isError: true,
      content: [
        { type: 'text', text: JSON.stringify({ error: `internal error (request id ${requestId})`, code: 'internal' }) },
      ],
    };
  }
}

/**
 * The input schema as the SDK sees it: the tool's own JSON Schema for tools/list, but a
 * validation that lets every input through, because the SDK would validate before the tool's
 * `authorize` could refuse the caller. `callTool` validates right after authorizing instead.
 */
function listedOnly(input: z.ZodObject): Pick<z.ZodObject, '~standard'> {
  return { '~standard': { ...input['~standard'], validate: (value) => ({ value: value as Record<string, unknown> }) } };
}

/** The permission a tool needs: declared, else `read` for a read-only tool and `product.write` for any other. */
export function toolPermission(tool: Pick<PimTool, 'permission' | 'annotations'>): Permission {
  return tool.permission ?? (tool.annotations.readOnlyHint ? 'read' : 'product.write');
}

/** The scope checks of a member's tool call (db/product-scope.ts), on what its raw input names: as a REST request's. */
async function assertInputInScope(ctx: ToolContext, input: unknown, mode: ScopeMode, perRecord = false): Promise<void> {
  const raw = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const named = namedTargets((name) => raw[name]);
  await assertNamedInScope(ctx.db, ctx.caller, perRecord ? perRecordTargets(ctx.caller, named) : named, mode);
  if (mode !== 'read' && typeof raw.channelId === 'string') assertChannelInScope(ctx.caller, raw.channelId);
}

/** Authorization before validation, then the domain call: the order of a REST route (operation-guard.ts). */
async function callTool(tool: PimTool, ctx: ToolContext, input: unknown) {
  const language = input && typeof input === 'object' ? (input as Record<string, unknown>).language : undefined;
  const permission = toolPermission(tool);
  if (permission === 'product.write' && tool.textsOnlyWith) {
    const raw = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
    assertProductWrite(ctx.caller, raw, tool.textsOnlyWith);
  } else assertPermitted(ctx.caller, permission, { language });
  tool.authorize?.(ctx.caller);
  await assertInputInScope(ctx, input, scopeModeOf(permission), tool.scopePerRecord ?? false);
  const parsed = tool.input.safeParse(input ?? {});
  if (!parsed.success) throw badRequest(describeIssues(parsed.error.issues, input));
  return tool.run(ctx, parsed.data);
}

/**
 * Runs one tool call as the caller of its own HTTP request, on that request's D1 session; the
 * result's `_meta` carries the session's newest bookmark (`x-d1-bookmark`), which a stateless
 * client sends back (header or `_meta`) so its next call reads its own writes.
 */
async function runCall(tool: PimTool, deps: Omit<ToolContext, 'caller' | 'db'>, extra: unknown, input: unknown) {
  const request = requestExtraFrom((extra as { http?: { authInfo?: AuthInfo } }).http?.authInfo);
  const { dbSession } = request;
  const result = await toToolResult(() => callTool(tool, { ...deps, db: dbSession.db, caller: request.caller }, input));
  const bookmark = dbSession.bookmark();
  if (!bookmark) return result;
  request.remember?.(bookmark, !tool.annotations.readOnlyHint);
  return { ...result, _meta: { ...result._meta, [BOOKMARK_HEADER]: bookmark } };
}

/** Registers every tool on an SDK server. */
export function registerTools(
  server: McpServer,
  tools: readonly PimTool[],
  deps: Omit<ToolContext, 'caller' | 'db'>,
): void {
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: listedOnly(tool.input),
        outputSchema: tool.output,
        annotations: tool.annotations,
      },
      (input: unknown, extra) => runCall(tool, deps, extra, input),
    );
  }
}
