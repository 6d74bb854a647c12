import type { Bindings } from '../env';

/**
 * PLACEHOLDER until the MCP server lands: the MCP engineer (issue 4) replaces this file.
 * The OAuth layer (`src/oauth/mcp.routes.ts`) forwards every authenticated `/mcp` request here
 * with `ctx.props` set to `McpProps` (see `src/oauth/agent-auth.ts`).
 */
export const mcpApiHandler = {
  async fetch(_request: Request, _env: Bindings, _ctx: ExecutionContext): Promise<Response> {
    return Response.json({ error: 'MCP server not available yet' }, { status: 503 });
  },
};
