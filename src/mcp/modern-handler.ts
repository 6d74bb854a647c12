import { env } from 'cloudflare:workers';
import { createMcpHandler, type StatelessMcpHandler } from 'agents/mcp/server';
import { createPimMcpServer } from './server';

let handler: StatelessMcpHandler | undefined;

/**
 * The current protocol revision (2026-07-28) is stateless, so it is served the way the `agents`
 * package recommends: `createMcpHandler` with a fresh SDK v2 server per request. `legacy:
 * 'reject'` because 2025-era traffic goes to the sessionful Durable Object instead. Origin
 * validation runs in `handler.ts` before this (hence `allowedOriginHostnames: '*'`), and CORS
 * belongs to the OAuth layer's route. Made once per isolate, as the package advises.
 */
export function modernHandler(): StatelessMcpHandler {
  handler ??= createMcpHandler(() => createPimMcpServer({ queue: env.JOB_QUEUE, files: env.FILES }), {
    route: '/mcp',
    legacy: 'reject',
    corsOptions: false,
    allowedOriginHostnames: '*',
  });
  return handler;
}
