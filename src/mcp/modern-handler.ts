import { env } from 'cloudflare:workers';
import { createMcpHandler, type StatelessMcpHandler } from 'agents/mcp/server';
import type { McpServer } from '@modelcontextprotocol/server';
import { createPimMcpServer } from './server';

let handler: StatelessMcpHandler | undefined;

/** Idle servers kept for the next requests; more than this many at once are left to the GC. */
const MAX_IDLE = 8;
const idle: McpServer[] = [];

/**
 * A server for one request: an idle one when there is one, else a new one. Building a server
 * (22 tools registered, each schema converted lazily on that instance) cost more CPU than the
 * tool call it served (bench/mcp.ts); nothing in it belongs to a request (the caller and the D1
 * session ride in each request's `authInfo`, see caller.ts), so once its exchange has closed the
 * SDK has detached the transport and it serves the next request. The SDK's own check refuses an
 * instance that is still serving, so two concurrent requests never share one.
 */
function serverForRequest(): McpServer {
  const reused = idle.pop();
  if (reused) return reused;
  const server = createPimMcpServer({ queue: env.JOB_QUEUE, files: env.FILES });
  server.server.onclose = () => {
    if (idle.length < MAX_IDLE && !idle.includes(server)) idle.push(server);
  };
  return server;
}

/**
 * The current protocol revision (2026-07-28) is stateless, so it is served the way the `agents`
 * package recommends: `createMcpHandler` with a server per request (reused once idle, above).
 * `legacy: 'reject'` because 2025-era traffic goes to the sessionful Durable Object instead.
 * Origin validation runs in `handler.ts` before this (hence `allowedOriginHostnames: '*'`), and
 * CORS belongs to the OAuth layer's route. Made once per isolate, as the package advises.
 */
export function modernHandler(): StatelessMcpHandler {
  handler ??= createMcpHandler(serverForRequest, {
    route: '/mcp',
    legacy: 'reject',
    corsOptions: false,
    allowedOriginHostnames: '*',
  });
  return handler;
}
