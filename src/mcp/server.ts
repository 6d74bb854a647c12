import { McpServer } from '@modelcontextprotocol/server';
import type { ToolContext } from './caller';
import { registerTools } from './tool-definition';
import { PIM_TOOLS } from './tools';

/** Name and version the server announces (initialize / server/discover) and the manifest repeats. */
export const SERVER_INFO = { name: 'pim-service', title: 'PIM Service', version: '1.0.0' } as const;

export const SERVER_INSTRUCTIONS =
  'Product information management for an electrical/industrial distributor. You act as the signed-in user, ' +
  "inside that user's company only. Start with get_statistics or list_catalogs, then list_categories / search_products " +
  'and get_product. Classifications (ETIM, eCl@ss, proficl@ss) are read with get_classification and written with ' +
  'create_classification / update_classification, which need the user\'s switch "AI may edit classifications". ' +
  'Exports run in the background: start_export, then poll get_job.';

/**
 * A fresh SDK server with every PIM tool. Made per request (current revision) or per session
 * (2025 revisions); the caller and D1 session of each tool call come from that call's own request.
 */
export function createPimMcpServer(deps: Omit<ToolContext, 'caller' | 'db'>): McpServer {
  const server = new McpServer(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: SERVER_INSTRUCTIONS,
  });
  registerTools(server, PIM_TOOLS, deps);
  return server;
}
