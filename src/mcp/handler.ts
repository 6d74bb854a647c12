import { isLegacyRequest } from '@modelcontextprotocol/server';
import { placementOf } from '../db/cells';
import type { Bindings } from '../env';
import { BOOKMARK_HEADER, type DbSession, newerBookmark, validBookmark } from '../db/session';
import type { McpProps } from '../oauth/agent-auth';
import { REVOCATION_CHECK_MS, stillAllowed } from './access';
import { toAuthInfo } from './caller';
import { modernHandler } from './modern-handler';
import { foreignOriginReason } from './origin';
import { jsonRpcError, SESSION_HEADERS, sessionNotFound } from './responses';
import { guardStream } from './stream-watch';

const MAX_BODY_BYTES = 1024 * 1024;
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * `{mcp_url}`. The OAuth layer has verified the bearer token and every per-use rule before a
 * request gets here (`ctx.props` is `McpProps`). Two eras share the endpoint:
 *
 * - the current revision (2026-07-28) is stateless: each request is served on its own by the
 *   `agents` package's `createMcpHandler` with a fresh server (see `modern-handler.ts`);
 * - 2025 revisions open a session with `initialize`: the session lives in its own Durable
 *   Object (`McpSession`), found by its `Mcp-Session-Id`, for POST, the GET stream and DELETE.
 *
 * `dbSession` is the request's D1 session (opened from its `x-d1-bookmark` header); a bookmark
 * in a message's `params._meta` raises it. Stateless calls run on it; a session's Durable
 * Object is handed its bookmark and keeps the newest.
 */
export const mcpApiHandler = {
  async fetch(request: Request, env: Bindings, ctx: ExecutionContext, dbSession: DbSession): Promise<Response> {
    if (new URL(request.url).pathname !== '/mcp') return Response.json({ error: 'route not found' }, { status: 404 });
    const refused = foreignOriginReason(request);
    if (refused) return Response.json({ error: refused, code: 'forbidden' }, { status: 403 });
    const props = (ctx as ExecutionContext & { props?: McpProps }).props;
    if (!props?.caller)
      return Response.json({ error: 'authentication required', code: 'unauthorized' }, { status: 401 });

    const text = request.method === 'POST' ? await readBody(request) : undefined;
    if (text === null)
      return Response.json(
        { error: `request body exceeds ${MAX_BODY_BYTES} bytes`, code: 'payload_too_large' },
        { status: 413 },
      );
    const parsedBody = parseOrUndefined(text);
    const brought = newerBookmark(validBookmark(request.headers.get(BOOKMARK_HEADER)), bookmarkInMeta(parsedBody));
    dbSession.atLeast(brought);
    const forwarded = text === undefined ? request : new Request(request, { body: text });
    if (!(await isLegacyRequest(forwarded, parsedBody))) {
      const response = await modernHandler().fetch(forwarded, {
        authInfo: toAuthInfo({ caller: props.caller, dbSession }),
        ...(parsedBody === undefined ? {} : { parsedBody }),
      });
      // A long-lived answer (e.g. subscriptions/listen) ends within seconds of a revocation too.
      return guardStream(response, () => stillAllowed(env, props), REVOCATION_CHECK_MS);
    }
    return forwardToSession(forwarded, env, props, parsedBody, validBookmark(brought));
  },
};

/** The newest `_meta["x-d1-bookmark"]` among the JSON-RPC messages of a body. */
function bookmarkInMeta(body: unknown): string | null {
  let newest: string | null = null;
  for (const message of Array.isArray(body) ? body : [body]) {
    const value = (message as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta?.[
      BOOKMARK_HEADER
    ];
    if (typeof value === 'string' && (newest === null || value > newest)) newest = value;
  }
  return newest;
}

/**
 * Routes a 2025-era request to the Durable Object of its session (a new one for `initialize`).
 * The object trusts what the Worker verified (it is reachable only through this binding, and the
 * internal headers are overwritten here): the caller's props and the cell the company lives in
 * (from the placement `enterCell` just read, so no second directory read). The stub is fetched
 * directly: the object starts its own lifecycle on a fetch, so the `agents` package's
 * `getAgentByName` (one more round trip to the object per message) is not needed.
 */
async function forwardToSession(
  request: Request,
  env: Bindings,
  props: McpProps,
  parsedBody: unknown,
  bookmark: string | null,
): Promise<Response> {
  let sessionId = request.headers.get('Mcp-Session-Id');
  const opens = sessionId === null && isInitialize(parsedBody);
  if (opens) sessionId = crypto.randomUUID();
  else if (sessionId === null) return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  else if (!SESSION_ID.test(sessionId)) return sessionNotFound();

  const { cell } = await placementOf(env, props.caller.companyId);
  const headers = new Headers(request.headers);
  headers.set(SESSION_HEADERS.sessionId, sessionId!);
  headers.set(SESSION_HEADERS.props, JSON.stringify(props));
  headers.set(SESSION_HEADERS.opens, opens ? '1' : '0');
  headers.set(SESSION_HEADERS.cell, cell);
  if (bookmark) headers.set(BOOKMARK_HEADER, bookmark);
  else headers.delete(BOOKMARK_HEADER);
  const session = env.MCP_SESSION.get(env.MCP_SESSION.idFromName(sessionId!));
  return session.fetch(new Request(request, { headers }));
}

function isInitialize(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    (body as { method?: unknown }).method === 'initialize'
  );
}

/** The body as text, or null when it is larger than the endpoint accepts. */
async function readBody(request: Request): Promise<string | null> {
  const declared = Number(request.headers.get('Content-Length') ?? '0');
  if (declared > MAX_BODY_BYTES) return null;
  const text = await request.text();
  return new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES ? null : text;
}

function parseOrUndefined(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
