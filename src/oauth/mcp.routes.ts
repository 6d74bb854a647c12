import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from '../env';
import { enterCell } from '../http/cell';
import { mcpApiHandler } from '../mcp/handler';
import type { McpProps } from './agent-auth';
import { verifyBearer } from './bearer';

/**
 * `{mcp_url}`: every request, including each message of an open MCP session, is verified with
 * all per-use rules before it reaches the MCP handler, so a revoked user is cut off within one
 * request. The handler sees `McpProps` as `ctx.props`. CORS is open because credentials travel
 * in the Authorization header, never in cookies.
 */
export const mcpRoutes = new Hono<AppEnv>()
  .use(
    cors({
      origin: '*',
      allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      allowHeaders: [
        'Authorization',
        'Content-Type',
        'Accept',
        'Mcp-Session-Id',
        'Mcp-Protocol-Version',
        'Last-Event-ID',
        'Mcp-Method',
        'Mcp-Name',
        'x-d1-bookmark',
      ],
      exposeHeaders: ['WWW-Authenticate', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'x-d1-bookmark'],
      maxAge: 600,
    }),
  )
  .all('/*', async (c) => {
    const { props, caller } = await verifyBearer(c.req.raw, c.env, c.var.dbSession.primary(), 'mcp');
    // Verified on the directory; tools run on the caller's cell (a session's object opens its own).
    await enterCell(c, caller.companyId);
    // The same hand-off the library's resource hosts use: the MCP handler reads ctx.props.
    const ctx = c.executionCtx as ExecutionContext & { props: McpProps };
    ctx.props = { ...props, caller };
    return mcpApiHandler.fetch(c.req.raw, c.env, ctx, c.var.dbSession);
  });
